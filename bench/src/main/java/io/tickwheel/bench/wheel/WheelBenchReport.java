package io.tickwheel.bench.wheel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link WheelBenchmarks} in a quick configuration (one fork per benchmark and parameter set, one
 * warm-up iteration and three measured iterations of 800 ms; about four minutes on two idle cores) and prints
 * the throughput of every peer and the ratio ours/peer, then the bytes per pending timer of each peer
 * ({@link BytesPerTimer}) and whether the churn targets are met.
 *
 * <p>Usage: {@code java -Xmx2g -cp bench/target/benchmarks.jar io.tickwheel.bench.wheel.WheelBenchReport [options]}
 * (or {@code bench/run-wheel-bench.sh [options]}, which builds first); {@code --help} lists the options
 * ({@link WheelBenchOptions}), bad ones exit 2:
 * <ul>
 *   <li>{@code --workloads LIST} benchmark methods to run, a comma list or a regex (default
 *       {@code schedule,cancel,churn,expireDrain})</li>
 *   <li>{@code --peers a,b} peers to run (default all; ours is always included)</li>
 *   <li>{@code --pending 10000,1000000} pending sizes (default both)</li>
 *   <li>{@code --warmup N}, {@code --iterations N}, {@code --time MS} JMH iterations and their length</li>
 *   <li>{@code --prof NAME} add a JMH profiler (e.g. {@code gc}, {@code stack})</li>
 *   <li>{@code --bytes-timers N} timers for the bytes-per-timer figure (default 1000000; 0 skips it)</li>
 *   <li>{@code --log FILE} JMH's own output (default {@code wheel-bench-jmh.log} in the temp directory);
 *       the JSON results go next to it</li>
 * </ul>
 */
public final class WheelBenchReport {

  private static final String OURS = "ours";

  private WheelBenchReport() {
  }

  public static void main(String[] args) throws RunnerException, InterruptedException {
    WheelBenchOptions o;
    try {
      o = WheelBenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("wheel-bench: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (o.helpRequested()) {
      System.out.print(WheelBenchOptions.usage());
      return;
    }
    String include = "^" + WheelBenchmarks.class.getName().replace(".", "\\.") + "\\.(" + o.workloads() + ")$";
    ChainedOptionsBuilder jmh = new OptionsBuilder()
        .include(include)
        .param("peer", o.peers().toArray(new String[0]))
        .param("pending", o.pending().toArray(new String[0]))
        .forks(1)
        .warmupIterations(o.warmup())
        .warmupTime(TimeValue.milliseconds(o.timeMs()))
        .measurementIterations(o.iterations())
        .measurementTime(TimeValue.milliseconds(o.timeMs()))
        .shouldFailOnError(true)
        .output(o.log().getPath())
        .result(o.log().getPath().replaceFirst("\\.log$", "") + ".json")
        .resultFormat(ResultFormatType.JSON);
    for (String prof : o.profilers()) {
      jmh.addProfiler(prof);
    }
    System.out.printf("tickwheel wheel benchmarks: %s; peers %s; pending %s; %d x %d ms warm-up, %d x %d ms measured%n",
        o.workloads(), o.peers(), o.pending(), o.warmup(), o.timeMs(), o.iterations(), o.timeMs());
    System.out.printf("JMH output: %s%n", o.log());
    long t0 = System.nanoTime();
    Collection<RunResult> results = new Runner(jmh.build()).run();
    System.out.printf("JMH done in %d s%n%n", (System.nanoTime() - t0) / 1_000_000_000L);

    Table table = Table.of(results, o.peers());
    System.out.println(table.throughput());
    System.out.println(table.ratios());

    if (o.bytesTimers() > 0) {
      System.out.printf("Bytes per pending timer (%,d timers; heap delta after System.gc(), key strings excluded)%n%n",
          o.bytesTimers());
      System.out.println("| peer | bytes/timer |");
      System.out.println("|---|---:|");
      Fixtures fixtures = new Fixtures(o.bytesTimers(), o.bytesTimers());
      for (String peer : o.peers()) {
        System.out.printf(Locale.ROOT, "| %s | %.1f |%n", peer, BytesPerTimer.measure(peer, fixtures));
      }
      System.out.println();
    }
    System.out.println(table.targets());
    System.out.printf("total %d s%n", (System.nanoTime() - t0) / 1_000_000_000L);
  }

  /** Median throughput per (workload, pending) row and peer column. */
  static final class Table {
    private final List<String> peers;
    private final Map<String, Map<String, Double>> rows = new LinkedHashMap<>();

    private Table(List<String> peers) {
      this.peers = peers;
    }

    static Table of(Collection<RunResult> results, List<String> peers) {
      Table t = new Table(peers);
      List<RunResult> sorted = new ArrayList<>(results);
      sorted.sort((a, b) -> rowKey(a).compareTo(rowKey(b)));
      for (RunResult r : sorted) {
        String peer = r.getParams().getParam("peer");
        double median = r.getPrimaryResult().getStatistics().getPercentile(50);
        t.rows.computeIfAbsent(rowName(r), k -> new LinkedHashMap<>()).put(peer, median);
      }
      return t;
    }

    private static String rowKey(RunResult r) {
      String method = method(r);
      int order = List.of("schedule", "cancel", "churn", "expireDrain").indexOf(method);
      String pending = r.getParams().getParam("pending");
      return order + method + (pending == null ? "" : String.format("%010d", Integer.parseInt(pending)));
    }

    private static String method(RunResult r) {
      String label = r.getParams().getBenchmark();
      return label.substring(label.lastIndexOf('.') + 1);
    }

    private static String rowName(RunResult r) {
      String pending = r.getParams().getParam("pending");
      return pending == null ? method(r) + " @" + human(WheelBenchmarks.DRAIN) + " due"
          : method(r) + " @" + human(Integer.parseInt(pending));
    }

    private static String human(int n) {
      return n >= 1_000_000 ? n / 1_000_000 + "M" : n >= 1_000 ? n / 1_000 + "k" : Integer.toString(n);
    }

    Double score(String row, String peer) {
      Map<String, Double> r = rows.get(row);
      return r == null ? null : r.get(peer);
    }

    String throughput() {
      StringBuilder sb = new StringBuilder("Throughput, million timers per second (median of the measured iterations)\n\n");
      sb.append("| benchmark |");
      peers.forEach(p -> sb.append(' ').append(p).append(" |"));
      sb.append("\n|---|");
      peers.forEach(p -> sb.append("---:|"));
      sb.append('\n');
      rows.forEach((row, scores) -> {
        sb.append("| ").append(row).append(" |");
        for (String p : peers) {
          Double s = scores.get(p);
          sb.append(s == null ? " - |" : String.format(Locale.ROOT, " %.2f |", s / 1e6));
        }
        sb.append('\n');
      });
      return sb.toString();
    }

    String ratios() {
      StringBuilder sb = new StringBuilder("Ratio ours/peer (> 1: ours is faster)\n\n| benchmark |");
      List<String> others = peers.stream().filter(p -> !p.equals(OURS)).toList();
      others.forEach(p -> sb.append(" ours/").append(p).append(" |"));
      sb.append("\n|---|");
      others.forEach(p -> sb.append("---:|"));
      sb.append('\n');
      rows.forEach((row, scores) -> {
        sb.append("| ").append(row).append(" |");
        for (String p : others) {
          Double ours = scores.get(OURS);
          Double peer = scores.get(p);
          sb.append(ours == null || peer == null ? " - |" : String.format(Locale.ROOT, " %.2f |", ours / peer));
        }
        sb.append('\n');
      });
      return sb.toString();
    }

    String targets() {
      String row = "churn @1M";
      StringBuilder sb = new StringBuilder("Targets (" + row + ")\n\n");
      target(sb, row, "netty", 2.0, "ours >= 2x netty");
      target(sb, row, "kafka", 2.0, "ours >= 2x kafka");
      target(sb, row, "stpe", 4.0, "ours >= 4x stpe");
      target(sb, row, "agrona", 0.5, "ours within 2x of agrona (keyed)");
      return sb.toString();
    }

    private void target(StringBuilder sb, String row, String peer, double min, String what) {
      Double ours = score(row, OURS);
      Double other = score(row, peer);
      if (ours == null || other == null) {
        sb.append(String.format("- %s: not measured%n", what));
        return;
      }
      double ratio = ours / other;
      sb.append(String.format(Locale.ROOT, "- %s: ours/%s = %.2f -> %s%n", what, peer, ratio, ratio >= min ? "MET" : "MISSED"));
    }
  }
}
