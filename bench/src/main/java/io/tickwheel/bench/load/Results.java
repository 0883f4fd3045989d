package io.tickwheel.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Measured values (target, scenario, metric, value), printed as tables and CSV. Not thread safe (main thread). */
public final class Results {
  /** One measured value; {@code value} is already formatted. */
  public record Row(String target, String scenario, String metric, String value) {}

  private final List<Row> rows = new ArrayList<>();

  public void add(String target, String scenario, String metric, Object value) {
    String v = value instanceof Double d ? String.format("%.1f", d) : String.valueOf(value);
    rows.add(new Row(target, scenario, metric, v));
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  /** The values of one target and scenario as a two-column table. */
  public void printScenario(PrintStream out, String target, String scenario) {
    out.println();
    out.println("== " + target + " / " + scenario);
    int w = rows.stream().filter(r -> r.target.equals(target) && r.scenario.equals(scenario))
        .mapToInt(r -> r.metric.length()).max().orElse(10);
    for (Row r : rows) {
      if (r.target.equals(target) && r.scenario.equals(scenario)) {
        out.printf("  %-" + w + "s  %s%n", r.metric, r.value);
      }
    }
  }

  /** One table: a row per scenario.metric, a column per target. */
  public void printSummary(PrintStream out) {
    Set<String> targets = new LinkedHashSet<>();
    Map<String, Map<String, String>> byMetric = new LinkedHashMap<>();
    for (Row r : rows) {
      targets.add(r.target);
      byMetric.computeIfAbsent(r.scenario + " " + r.metric, k -> new LinkedHashMap<>()).put(r.target, r.value);
    }
    int w = byMetric.keySet().stream().mapToInt(String::length).max().orElse(10);
    StringBuilder h = new StringBuilder(String.format("| %-" + w + "s |", "scenario metric"));
    StringBuilder sep = new StringBuilder("|" + "-".repeat(w + 2) + "|");
    for (String t : targets) {
      int cw = Math.max(18, t.length());
      h.append(String.format(" %" + cw + "s |", t));
      sep.append("-".repeat(cw + 1)).append(":|");
    }
    out.println();
    out.println("== summary");
    out.println(h);
    out.println(sep);
    for (Map.Entry<String, Map<String, String>> e : byMetric.entrySet()) {
      StringBuilder line = new StringBuilder(String.format("| %-" + w + "s |", e.getKey()));
      for (String t : targets) {
        line.append(String.format(" %" + Math.max(18, t.length()) + "s |", e.getValue().getOrDefault(t, "")));
      }
      out.println(line);
    }
  }

  public void writeCsv(Path file) throws IOException {
    writeCsv(file, List.of());
  }

  /** Every row, then {@code extra} (e.g. {@link Comparison#csvRows()}), as {@code target,scenario,metric,value}. */
  public void writeCsv(Path file, List<Row> extra) throws IOException {
    StringBuilder b = new StringBuilder("target,scenario,metric,value\n");
    List<Row> all = new ArrayList<>(rows);
    all.addAll(extra);
    for (Row r : all) {
      b.append(r.target).append(',').append(r.scenario).append(',').append(r.metric).append(',').append(r.value)
          .append('\n');
    }
    Files.writeString(file, b);
  }
}
