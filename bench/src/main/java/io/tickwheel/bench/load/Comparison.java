package io.tickwheel.bench.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * tickwheel against its peers, from one run's {@link Results}: a column per pair (tickwheel column, peer column),
 * where a tickwheel column is a target whose name starts with {@code tickwheel} (one per store) and a peer is any
 * other target. Only the first run of a scenario counts (a repeated {@code throughput#2} is ignored).
 *
 * <p>How each cell is computed ({@code tw} = the tickwheel column's value, {@code peer} = the peer's):
 * <ul>
 *   <li>throughput, higher is better ({@code throughput single accepted/s}, {@code throughput batch timers/s}):
 *       {@code tw / peer}, "how many times more timers tickwheel durably accepted per second";</li>
 *   <li>time, lower is better ({@code lateness lateness p99 ms}, {@code burst lateness p99 ms},
 *       {@code burst due to last firing ms}): {@code peer / max(tw, 1 ms)}, "how many times later the peer is".
 *       The figures have millisecond resolution, so a tickwheel value of 0 counts as 1 ms and the ratio is then a
 *       lower bound (shown with {@code ≥});</li>
 *   <li>correctness (early, missing, duplicates of the lateness and burst scenarios, and whether the burst was
 *       scheduled before its due time): no ratio, the two values side by side as {@code tw / peer}.</li>
 * </ul>
 * Every ratio cell also shows both values, {@code ratio (tw / peer)}. A value that is missing says why instead:
 * {@code failed} (the scenario threw for that target), {@code not run} (the target has no row for the scenario),
 * {@code n/a} (the value is NaN: no firing arrived). Ratios are rounded to 3 significant digits for display and
 * written with 3 decimals to the CSV.
 *
 * <p>{@link #targets} checks the targets: durable schedule throughput (single and batch) ≥ 10× Quartz-JDBC and
 * db-scheduler and ≥ 3× Redisson; tickwheel's p99 lateness (lateness scenario) ≤ tick + 5 ms; 0 early, 0 missing and
 * 0 duplicated firings in every scenario of every target. Not thread safe; build it after the run.
 */
public final class Comparison {
  /** One compared figure: its scenario and metric in {@link Results}, how it is shown, and how it compares. */
  public record Metric(String scenario, String metric, String label, Kind kind) {}

  /** How a figure compares: {@code tw/peer}, {@code peer/tw}, or side by side. */
  public enum Kind { HIGHER_IS_BETTER, LOWER_IS_BETTER, SIDE_BY_SIDE }

  /** The headline figures, in table order. */
  public static final List<Metric> METRICS = List.of(
      new Metric("throughput", "single accepted/s", "single schedule accepted/s (tw/peer)", Kind.HIGHER_IS_BETTER),
      new Metric("throughput", "batch timers/s", "batch schedule timers/s (tw/peer)", Kind.HIGHER_IS_BETTER),
      new Metric("lateness", "lateness p99 ms", "lateness p99 ms (peer/tw)", Kind.LOWER_IS_BETTER),
      new Metric("burst", "lateness p99 ms", "burst lateness p99 ms (peer/tw)", Kind.LOWER_IS_BETTER),
      new Metric("burst", "due to last firing ms", "burst due → last firing ms (peer/tw)", Kind.LOWER_IS_BETTER),
      new Metric("burst", "scheduled before due", "burst scheduled before due (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("lateness", "early (must be 0)", "lateness early (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("lateness", "missing (must be 0)", "lateness missing (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("lateness", "duplicates (must be 0)", "lateness duplicates (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("burst", "early (must be 0)", "burst early (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("burst", "missing (must be 0)", "burst missing (tw / peer)", Kind.SIDE_BY_SIDE),
      new Metric("burst", "duplicates (must be 0)", "burst duplicates (tw / peer)", Kind.SIDE_BY_SIDE));

  /** Throughput factor the issue asks of tickwheel over each peer. */
  public static final Map<String, Double> THROUGHPUT_TARGETS = Map.of(
      "quartz-jdbc", 10.0, "db-scheduler", 10.0, "redisson-delayed-queue", 3.0);

  /** (target, scenario, metric) → value; and the scenarios that failed per target. */
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Set<String> failed = new LinkedHashSet<>();
  private final Set<String> ran = new LinkedHashSet<>();
  private final List<String> tickwheels = new ArrayList<>();
  private final List<String> peers = new ArrayList<>();

  public Comparison(List<Results.Row> rows) {
    for (Results.Row r : rows) {
      if (r.target().startsWith("tickwheel")) {
        if (!tickwheels.contains(r.target())) {
          tickwheels.add(r.target());
        }
      } else if (!peers.contains(r.target())) {
        peers.add(r.target());
      }
      ran.add(r.target() + "\n" + r.scenario());
      if (r.metric().equals("FAILED")) {
        failed.add(r.target() + "\n" + r.scenario());
      }
      values.putIfAbsent(r.target() + "\n" + r.scenario() + "\n" + r.metric(), r.value());
    }
  }

  /** Whether there is anything to compare: at least one tickwheel column and one peer. */
  public boolean applicable() {
    return !tickwheels.isEmpty() && !peers.isEmpty();
  }

  public List<String> tickwheelTargets() {
    return List.copyOf(tickwheels);
  }

  public List<String> peerTargets() {
    return List.copyOf(peers);
  }

  /** The raw value of a target's figure, or null. */
  public String value(String target, String scenario, String metric) {
    return values.get(target + "\n" + scenario + "\n" + metric);
  }

  /** The value as a number, NaN when absent or not numeric. */
  public double number(String target, String scenario, String metric) {
    return parse(value(target, scenario, metric));
  }

  /**
   * The ratio of one figure for one pair (see the class comment), or NaN when either value is missing or not a
   * number, or when a throughput peer value is 0.
   */
  public double ratio(String tw, String peer, Metric m) {
    double a = number(tw, m.scenario(), m.metric());
    double b = number(peer, m.scenario(), m.metric());
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    return switch (m.kind()) {
      case HIGHER_IS_BETTER -> b == 0 ? Double.NaN : a / b;
      case LOWER_IS_BETTER -> b / Math.max(a, 1);
      case SIDE_BY_SIDE -> Double.NaN;
    };
  }

  /** The table cell of one figure for one pair. */
  public String cell(String tw, String peer, Metric m) {
    String a = shown(tw, m.scenario(), m.metric());
    String b = shown(peer, m.scenario(), m.metric());
    if (m.kind() == Kind.SIDE_BY_SIDE) {
      return a + " / " + b;
    }
    double r = ratio(tw, peer, m);
    if (Double.isNaN(r)) {
      return "– (" + a + " / " + b + ")";
    }
    boolean bound = m.kind() == Kind.LOWER_IS_BETTER && number(tw, m.scenario(), m.metric()) < 1;
    return (bound ? "≥" : "") + significant(r) + "× (" + a + " / " + b + ")";
  }

  /** A value for a table: the figure, or {@code failed} / {@code not run} / {@code n/a}. */
  private String shown(String target, String scenario, String metric) {
    String v = value(target, scenario, metric);
    if (failed.contains(target + "\n" + scenario)) {
      return "failed";
    }
    if (v == null) {
      return ran.contains(target + "\n" + scenario) ? "n/a" : "not run";
    }
    return v.equals("NaN") ? "n/a" : v;
  }

  /** Prints the ratio table in Markdown: a row per figure, a column per (tickwheel, peer) pair. */
  public void printMarkdown(PrintStream out) {
    out.println();
    out.println("== tickwheel / peer");
    StringBuilder h = new StringBuilder("| figure |");
    StringBuilder sep = new StringBuilder("|---|");
    for (String tw : tickwheels) {
      for (String p : peers) {
        h.append(' ').append(tw).append(" vs ").append(p).append(" |");
        sep.append("---:|");
      }
    }
    out.println(h);
    out.println(sep);
    for (Metric m : METRICS) {
      StringBuilder line = new StringBuilder("| " + m.label() + " |");
      for (String tw : tickwheels) {
        for (String p : peers) {
          line.append(' ').append(cell(tw, p, m)).append(" |");
        }
      }
      out.println(line);
    }
    out.println();
    out.println("Issue targets:");
    for (String t : targets()) {
      out.println("- " + t);
    }
  }

  /** The ratio rows for the CSV: target {@code tw/peer}, scenario {@code ratio}, metric = the figure's label. */
  public List<Results.Row> csvRows() {
    List<Results.Row> rows = new ArrayList<>();
    for (String tw : tickwheels) {
      for (String p : peers) {
        for (Metric m : METRICS) {
          String v;
          if (m.kind() == Kind.SIDE_BY_SIDE) {
            v = (shown(tw, m.scenario(), m.metric()) + " / " + shown(p, m.scenario(), m.metric())).replace(',', ';');
          } else {
            double r = ratio(tw, p, m);
            v = Double.isNaN(r) ? "NaN" : String.format(Locale.ROOT, "%.3f", r);
          }
          rows.add(new Results.Row(tw + "/" + p, "ratio", m.label(), v));
        }
      }
    }
    return rows;
  }

  /** The targets, one line each, ending in {@code MET}, {@code MISSED} or {@code not measured}. */
  public List<String> targets() {
    List<String> lines = new ArrayList<>();
    for (String tw : tickwheels) {
      for (String p : peers) {
        Double factor = THROUGHPUT_TARGETS.get(p);
        if (factor == null) {
          continue;
        }
        for (Metric m : METRICS.subList(0, 2)) {
          double r = ratio(tw, p, m);
          lines.add(tw + " " + m.metric().replace(" accepted/s", "").replace(" timers/s", "") + " schedule ≥ "
              + significant(factor) + "× " + p + ": " + (Double.isNaN(r) ? "– → not measured"
              : significant(r) + "× → " + (r >= factor ? "MET" : "MISSED")));
        }
      }
    }
    for (String tw : tickwheels) {
      double p99 = number(tw, "lateness", "lateness p99 ms");
      lines.add(tw + " lateness p99 ≤ tick + 5 ms (15 ms at the default 10 ms tick): "
          + (Double.isNaN(p99) ? "not measured" : significant(p99) + " ms → " + (p99 <= 15 ? "MET" : "MISSED")));
    }
    List<String> all = new ArrayList<>(tickwheels);
    all.addAll(peers);
    for (String t : all) {
      long bad = 0;
      boolean measured = false;
      for (String key : values.keySet()) {
        String[] k = key.split("\n", 3);
        if (k[0].equals(t) && (k[2].startsWith("early") || k[2].startsWith("missing")
            || k[2].startsWith("duplicates"))) {
          double v = parse(values.get(key));
          measured = true;
          bad += Double.isNaN(v) ? 1 : (long) v;
        }
      }
      lines.add(t + " 0 early / 0 missing / 0 duplicated in every scenario: "
          + (!measured ? "not measured" : bad == 0 ? "MET" : "MISSED (" + bad + " bad firings)"));
    }
    return lines;
  }

  /**
   * The chart's two panels, a bar per target (tickwheel columns first): durable schedule throughput (single and
   * batch, accepted timers/s) and p99 lateness (lateness stream and burst, ms). Missing values are NaN.
   */
  public List<SvgChart.Panel> chartPanels() {
    List<String> all = new ArrayList<>(tickwheels);
    all.addAll(peers);
    return List.of(
        panel("Durable schedule throughput, timers accepted/s (higher is better)", all,
            new String[] {"single requests", "batches"},
            new String[][] {{"throughput", "single accepted/s"}, {"throughput", "batch timers/s"}}),
        panel("p99 lateness, ms after the due time (lower is better)", all,
            new String[] {"lateness stream", "burst (all due at once)"},
            new String[][] {{"lateness", "lateness p99 ms"}, {"burst", "lateness p99 ms"}}));
  }

  private SvgChart.Panel panel(String title, List<String> series, String[] groups, String[][] figures) {
    double[][] v = new double[groups.length][series.size()];
    for (int g = 0; g < groups.length; g++) {
      for (int s = 0; s < series.size(); s++) {
        v[g][s] = failed.contains(series.get(s) + "\n" + figures[g][0]) ? Double.NaN
            : number(series.get(s), figures[g][0], figures[g][1]);
      }
    }
    return new SvgChart.Panel(title, List.of(groups), series, v);
  }

  /** 3 significant digits, no exponent: 0.123, 1.23, 12.3, 123, 1234. */
  static String significant(double v) {
    double a = Math.abs(v);
    String f = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
    return String.format(Locale.ROOT, f, v);
  }

  private static double parse(String v) {
    if (v == null) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(v.replace("_", ""));
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
