package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The writer's cache of the timers it wrote last, alone: order of eviction, removal, the byte bound, forgetting. */
class RecentTimersTest {

  private static Timer once(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"id\":\"" + id + "\"}", 1, due, 0, 1);
  }

  @Test
  void aGroupsRemovalDropsTheEntryARewriteMovesItLastAndAFailedWriteForgetsAll() {
    Timer removed = once("-", 0);
    RecentTimers r = new RecentTimers(2, 1 << 20);
    Map<String, Timer> g1 = new HashMap<>();
    g1.put("a", once("a", 1));
    g1.put("b", once("b", 2));
    r.groupWritten(g1, removed);
    r.groupWritten(Map.of("a", once("a", 3)), removed); // a rewritten: now b is the eldest
    r.groupWritten(Map.of("c", once("c", 4)), removed);
    assertThat(r.has("b")).isFalse();
    assertThat(r.get("a").nextDueAt()).isEqualTo(3);
    assertThat(r.has("c")).isTrue();
    r.groupWritten(Map.of("c", removed), removed);
    assertThat(r.has("c")).isFalse();
    r.forget();
    assertThat(r.size()).isZero();
    assertThat(r.bytes()).isZero();
    assertThat(r.get("a")).isNull();
  }

  @Test
  void largePayloadsAreBoundedByBytesNotOnlyByCount() {
    Timer removed = once("-", 0);
    String big = "x".repeat(10_000);
    Timer one = once("a", 1).withPayload(big);
    long w = RecentTimers.weight(one);
    assertThat(w).isGreaterThan(20_000);
    RecentTimers r = new RecentTimers(1000, 3 * w);
    for (int i = 0; i < 10; i++) {
      r.groupWritten(Map.of("k" + i, once("k" + i, i).withPayload(big)), removed);
    }
    assertThat(r.size()).isEqualTo(2); // the ids are one character longer than "a": each weighs a little more
    assertThat(r.bytes()).isLessThanOrEqualTo(3 * w);
    assertThat(r.has("k9")).isTrue();
    assertThat(r.has("k7")).isFalse();
    // a timer heavier than the whole budget is not kept at all (and pushes nothing out)
    RecentTimers small = new RecentTimers(1000, 1000);
    small.groupWritten(Map.of("s", once("s", 1)), removed);
    small.groupWritten(Map.of("a", one), removed);
    assertThat(small.has("a")).isFalse();
    assertThat(small.has("s")).isTrue();
    // rewriting an entry replaces its weight rather than adding to it
    small.groupWritten(Map.of("s", once("s", 2)), removed);
    assertThat(small.bytes()).isEqualTo(RecentTimers.weight(once("s", 2)));
  }

  @Test
  void aTimerDueBeyondTheHorizonIsNotKeptAndDropsItsEarlierVersion() {
    Timer removed = once("-", 0);
    long[] now = {1_000_000};
    RecentTimers r = new RecentTimers(100, 1 << 20, 60_000, () -> now[0]);
    r.groupWritten(Map.of("soon", once("soon", 1_060_000), "late", once("late", 1_060_001)), removed);
    assertThat(r.has("soon")).as("due exactly at the horizon").isTrue();
    assertThat(r.has("late")).as("due 1 ms beyond it").isFalse();
    r.groupWritten(Map.of("overdue", once("overdue", 5)), removed);
    assertThat(r.has("overdue")).isTrue();
    // a touch that moves a kept timer beyond the horizon: the older version must not be read any more
    r.groupWritten(Map.of("soon", once("soon", 2_000_000)), removed);
    assertThat(r.has("soon")).isFalse();
    assertThat(r.bytes()).isEqualTo(RecentTimers.weight(once("overdue", 5)));
    // the horizon moves with the clock
    now[0] = 1_940_000;
    r.groupWritten(Map.of("soon", once("soon", 2_000_000)), removed);
    assertThat(r.get("soon").nextDueAt()).isEqualTo(2_000_000);
  }
}
