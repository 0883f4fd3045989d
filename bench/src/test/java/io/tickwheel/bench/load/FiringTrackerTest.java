package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FiringTrackerTest {

  @Test
  void p99BySecondGroupsTimersByIndexAndSkipsTheUnreceived() {
    FiringTracker t = new FiringTracker("x-", 7);
    for (int i = 0; i < 7; i++) {
      t.expect(i, 1_000 + i);
    }
    t.fired("x-0", 1_000, 1_002);
    t.fired("x-1", 1_001, 1_001);
    t.fired("x-2", 1_002, 1_042);
    t.fired("x-3", 1_003, 1_010);
    t.fired("x-3", 1_003, 1_500);   // a duplicate does not replace the first lateness
    t.fired("x-6", 1_006, 1_005);   // early: counted as 0 late
    assertThat(t.p99BySecond(3)).isEqualTo("40 7 0");
    assertThat(t.duplicates()).isEqualTo(1);
    assertThat(t.early()).isEqualTo(1);
    assertThat(new FiringTracker("y-", 4).p99BySecond(2)).isEqualTo("- -");
  }
}
