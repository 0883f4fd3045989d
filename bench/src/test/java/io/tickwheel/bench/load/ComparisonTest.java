package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ratio table: which columns are compared, how each ratio is computed, and how missing figures are shown. */
class ComparisonTest {

  private static Results results() {
    Results r = new Results();
    for (String[] row : new String[][] {
        {"tickwheel-rocksdb", "throughput", "single accepted/s", "9000"},
        {"tickwheel-rocksdb", "throughput", "batch timers/s", "60000"},
        {"tickwheel-rocksdb", "lateness", "lateness p99 ms", "12"},
        {"tickwheel-rocksdb", "lateness", "early (must be 0)", "0"},
        {"tickwheel-rocksdb", "lateness", "missing (must be 0)", "0"},
        {"tickwheel-rocksdb", "lateness", "duplicates (must be 0)", "0"},
        {"tickwheel-rocksdb", "burst", "lateness p99 ms", "0"},
        {"tickwheel-rocksdb", "burst", "due to last firing ms", "250"},
        {"tickwheel-rocksdb", "burst", "scheduled before due", "yes"},
        {"tickwheel-rocksdb", "throughput#2", "single accepted/s", "1"},
        {"quartz-jdbc", "throughput", "single accepted/s", "300"},
        {"quartz-jdbc", "throughput", "batch timers/s", "1000"},
        {"quartz-jdbc", "lateness", "lateness p99 ms", "24000"},
        {"quartz-jdbc", "lateness", "early (must be 0)", "0"},
        {"quartz-jdbc", "lateness", "missing (must be 0)", "3"},
        {"quartz-jdbc", "lateness", "duplicates (must be 0)", "0"},
        {"quartz-jdbc", "burst", "FAILED", "java.lang.IllegalStateException: boom"},
        {"redisson-delayed-queue", "throughput", "single accepted/s", "2000"},
        {"redisson-delayed-queue", "throughput", "batch timers/s", "5000"},
        {"redisson-delayed-queue", "lateness", "lateness p99 ms", "NaN"}}) {
      r.add(row[0], row[1], row[2], row[3]);
    }
    return r;
  }

  @Test
  void tickwheelColumnsAreComparedWithEveryPeer() {
    Comparison c = new Comparison(results().rows());
    assertThat(c.applicable()).isTrue();
    assertThat(c.tickwheelTargets()).containsExactly("tickwheel-rocksdb");
    assertThat(c.peerTargets()).containsExactly("quartz-jdbc", "redisson-delayed-queue");
  }

  @Test
  void throughputIsTickwheelOverPeerAndTimesArePeerOverTickwheel() {
    Comparison c = new Comparison(results().rows());
    Comparison.Metric single = Comparison.METRICS.get(0);
    Comparison.Metric batch = Comparison.METRICS.get(1);
    Comparison.Metric lateness = Comparison.METRICS.get(2);
    assertThat(c.ratio("tickwheel-rocksdb", "quartz-jdbc", single)).isEqualTo(30.0);
    assertThat(c.ratio("tickwheel-rocksdb", "quartz-jdbc", batch)).isEqualTo(60.0);
    assertThat(c.ratio("tickwheel-rocksdb", "redisson-delayed-queue", single)).isEqualTo(4.5);
    assertThat(c.ratio("tickwheel-rocksdb", "quartz-jdbc", lateness)).isEqualTo(2000.0);
    assertThat(c.cell("tickwheel-rocksdb", "quartz-jdbc", single)).isEqualTo("30.0× (9000 / 300)");
    assertThat(c.cell("tickwheel-rocksdb", "quartz-jdbc", lateness)).isEqualTo("2000× (12 / 24000)");
  }

  @Test
  void aTickwheelTimeOfZeroCountsAsOneMillisecondAndTheRatioIsShownAsALowerBound() {
    Results r = new Results();
    r.add("tickwheel-redis", "burst", "lateness p99 ms", "0");
    r.add("db-scheduler", "burst", "lateness p99 ms", "5295");
    Comparison c = new Comparison(r.rows());
    Comparison.Metric burstP99 = Comparison.METRICS.get(3);
    assertThat(c.ratio("tickwheel-redis", "db-scheduler", burstP99)).isEqualTo(5295.0);
    assertThat(c.cell("tickwheel-redis", "db-scheduler", burstP99)).isEqualTo("≥5295× (0 / 5295)");
  }

  @Test
  void missingFiguresSayWhyInsteadOfDisappearing() {
    Comparison c = new Comparison(results().rows());
    Comparison.Metric burstP99 = Comparison.METRICS.get(3);
    Comparison.Metric lateness = Comparison.METRICS.get(2);
    assertThat(c.cell("tickwheel-rocksdb", "quartz-jdbc", burstP99)).isEqualTo("– (0 / failed)");
    assertThat(c.cell("tickwheel-rocksdb", "redisson-delayed-queue", lateness)).isEqualTo("– (12 / n/a)");
    assertThat(c.cell("tickwheel-rocksdb", "redisson-delayed-queue", burstP99)).isEqualTo("– (0 / not run)");
    assertThat(c.cell("tickwheel-rocksdb", "quartz-jdbc", Comparison.METRICS.get(7))).isEqualTo("0 / 3");
  }

  @Test
  void onlyTheFirstRunOfARepeatedScenarioCounts() {
    Comparison c = new Comparison(results().rows());
    assertThat(c.number("tickwheel-rocksdb", "throughput", "single accepted/s")).isEqualTo(9000.0);
  }

  @Test
  void theIssueTargetsAreCheckedPerPair() {
    List<String> t = new Comparison(results().rows()).targets();
    assertThat(t).contains(
        "tickwheel-rocksdb single schedule ≥ 10.0× quartz-jdbc: 30.0× → MET",
        "tickwheel-rocksdb batch schedule ≥ 3.00× redisson-delayed-queue: 12.0× → MET",
        "tickwheel-rocksdb single schedule ≥ 3.00× redisson-delayed-queue: 4.50× → MET",
        "tickwheel-rocksdb lateness p99 ≤ tick + 5 ms (15 ms at the default 10 ms tick): 12.0 ms → MET",
        "tickwheel-rocksdb 0 early / 0 missing / 0 duplicated in every scenario: MET",
        "quartz-jdbc 0 early / 0 missing / 0 duplicated in every scenario: MISSED (3 bad firings)");
  }

  @Test
  void theMarkdownTableHasAColumnPerPairAndTheCsvRowsTheRatios() {
    Comparison c = new Comparison(results().rows());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    c.printMarkdown(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String md = bytes.toString(StandardCharsets.UTF_8);
    assertThat(md).contains("| figure | tickwheel-rocksdb vs quartz-jdbc | tickwheel-rocksdb vs redisson-delayed-queue |")
        .contains("|---|---:|---:|")
        .contains("| single schedule accepted/s (tw/peer) | 30.0× (9000 / 300) | 4.50× (9000 / 2000) |");
    List<Results.Row> rows = c.csvRows();
    assertThat(rows).hasSize(2 * Comparison.METRICS.size())
        .contains(new Results.Row("tickwheel-rocksdb/quartz-jdbc", "ratio", "single schedule accepted/s (tw/peer)",
            "30.000"))
        .contains(new Results.Row("tickwheel-rocksdb/quartz-jdbc", "ratio", "burst lateness p99 ms (peer/tw)", "NaN"));
    assertThat(rows).allSatisfy(r -> assertThat(r.value()).doesNotContain(","));
  }

  @Test
  void withoutAPeerThereIsNothingToCompare() {
    Results r = new Results();
    r.add("tickwheel-memory", "throughput", "single accepted/s", "1");
    assertThat(new Comparison(r.rows()).applicable()).isFalse();
  }
}
