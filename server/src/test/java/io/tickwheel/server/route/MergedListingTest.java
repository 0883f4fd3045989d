package io.tickwheel.server.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.testing.TestVertx;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The listing merged over partition stores: the single order, every timer once, a bounded number of store reads. */
class MergedListingTest {

  static final int P = 16;

  final MemoryTimerStore[] stores = new MemoryTimerStore[P];
  final AtomicInteger reads = new AtomicInteger();
  final List<Timer> all = new ArrayList<>();

  MergedListingTest() {
    for (int p = 0; p < P; p++) {
      stores[p] = new MemoryTimerStore();
    }
  }

  void put(String id, String topic, long dueAt) {
    Timer t = new Timer(id, topic, Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, null, 0, dueAt, 0, 1);
    TestVertx.await(stores[Partitions.of(id, P)].put(t));
    all.add(t);
  }

  MergedListing listing() {
    return new MergedListing(P, p -> {
      reads.incrementAndGet();
      return stores[p];
    });
  }

  /**
   * Partition stores that examine at most {@code scan} index entries a read, as Redis's {@code page.lua} does: a
   * filtered read may answer fewer timers than asked, or none, with a {@code next}.
   */
  MergedListing scanningListing(int scan, int maxReads) {
    TimerStore[] scanning = new TimerStore[P];
    for (int p = 0; p < P; p++) {
      MemoryTimerStore mem = stores[p];
      scanning[p] = (TimerStore) Proxy.newProxyInstance(TimerStore.class.getClassLoader(),
          new Class<?>[] {TimerStore.class}, (proxy, m, args) -> {
            if (!m.getName().equals("list")) {
              return m.invoke(mem, args);
            }
            String topic = (String) args[0];
            int limit = (Integer) args[2];
            return mem.list(null, (TimerCursor) args[1], scan).map(pg -> {
              List<Timer> hits = new ArrayList<>();
              for (Timer t : pg.timers()) {
                if (topic == null || topic.equals(t.topic())) {
                  hits.add(t);
                  if (hits.size() == limit) {
                    return new TimerPage(hits, TimerCursor.after(t));
                  }
                }
              }
              return new TimerPage(hits, pg.next());
            });
          });
    }
    return new MergedListing(P, p -> {
      reads.incrementAndGet();
      return scanning[p];
    }, maxReads);
  }

  List<Timer> pageThrough(String topic, int limit, List<Integer> readsPerPage) {
    return pageThrough(this::listing, topic, limit, readsPerPage);
  }

  List<Timer> pageThrough(Supplier<MergedListing> listing, String topic, int limit, List<Integer> readsPerPage) {
    List<Timer> got = new ArrayList<>();
    TimerCursor after = null;
    do {
      reads.set(0);
      ReadOutcome o = TestVertx.await(listing.get().page(topic, after, limit));
      TimerPage page = ((ReadOutcome.Listed) o).page();
      readsPerPage.add(reads.get());
      assertThat(page.timers().size()).isLessThanOrEqualTo(limit);
      got.addAll(page.timers());
      after = page.next();
    } while (after != null);
    return got;
  }

  @Test
  void pagesFollowTheSingleOrderAndEveryTimerComesOnce() {
    Random r = new Random(7);
    for (int i = 0; i < 500; i++) {
      put("m-" + i, i % 3 == 0 ? "x" : "y", 1_000 + r.nextInt(100));     // many equal due times: ids break ties
    }
    List<Timer> expected = new ArrayList<>(all);
    expected.sort(Comparator.comparingLong(Timer::nextDueAt).thenComparing(Timer::id));
    for (int limit : new int[] {1, 7, 100, 1000}) {
      List<Integer> readsPerPage = new ArrayList<>();
      List<Timer> got = pageThrough(null, limit, readsPerPage);
      assertThat(got).as("limit %d", limit).isEqualTo(expected);
      // P first reads, then at most P·log2(limit)+P more (each refill doubles a partition's chunk)
      int bound = P + P * (32 - Integer.numberOfLeadingZeros(limit)) + P;
      assertThat(readsPerPage).as("store reads per page, limit %d", limit).allMatch(n -> n <= bound);
    }
    List<Timer> x = pageThrough("x", 50, new ArrayList<>());
    assertThat(x).hasSize(167).allMatch(t -> t.topic().equals("x"));
  }

  @Test
  void aPageFromOnePartitionReadsItAgainWithGrowingChunksNotOncePerTimer() {
    String prefix = "only";
    int n = 0;
    for (int i = 0; n < 300; i++) {
      if (Partitions.of(prefix + i, P) == 5) {
        put(prefix + i, "t", 10_000 + i);
        n++;
      }
    }
    List<Integer> readsPerPage = new ArrayList<>();
    List<Timer> got = pageThrough(null, 100, readsPerPage);
    assertThat(got).hasSize(300);
    // first page: 16 reads of 13, then partition 5 again for 26, 52, 100: 19 reads, not 100
    assertThat(readsPerPage.get(0)).isLessThanOrEqualTo(P + 4);
  }

  @Test
  void aRareTopicAmongManyTimersEndsEachPageWithinItsScanBudgetShortOrEmptyButWithANextCursor() {
    for (int i = 0; i < 4000; i++) {
      put("c-" + i, "common", 1_000 + i);
    }
    put("r-1", "rare", 10_000);
    List<Integer> readsPerPage = new ArrayList<>();
    List<Timer> got = pageThrough(() -> scanningListing(4, 0), "rare", 10, readsPerPage);
    assertThat(got).extracting(Timer::id).containsExactly("r-1");
    // each partition holds ~250 timers, 4 examined a read: ~63 reads each to reach the end, far over the budget
    int budget = MergedListing.maxReads(P, 10);
    assertThat(budget).isEqualTo(P * 6);
    assertThat(readsPerPage).allMatch(n -> n <= budget);
    assertThat(readsPerPage.size()).as("pages (the first ones empty, with a next)").isGreaterThan(1);
  }

  @Test
  void pagesEndedByTheScanBudgetStillFollowTheSingleOrderAndEveryTimerComesOnce() {
    Random r = new Random(11);
    String[] topics = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (int i = 0; i < 800; i++) {
      put("s-" + i, topics[Math.min(topics.length - 1, (int) Math.abs(r.nextGaussian() * 2.5))], 1_000 + r.nextInt(300));
    }
    for (String topic : new String[] {null, "a", "c", "h"}) {
      List<Timer> expected = new ArrayList<>();
      for (Timer t : all) {
        if (topic == null || topic.equals(t.topic())) {
          expected.add(t);
        }
      }
      expected.sort(Comparator.comparingLong(Timer::nextDueAt).thenComparing(Timer::id));
      for (int limit : new int[] {1, 9, 60}) {
        for (int maxReads : new int[] {P, P + 3, 3 * P}) {
          List<Integer> readsPerPage = new ArrayList<>();
          List<Timer> got = pageThrough(() -> scanningListing(3, maxReads), topic, limit, readsPerPage);
          assertThat(got).as("topic %s, limit %d, budget %d", topic, limit, maxReads).isEqualTo(expected);
          assertThat(readsPerPage).allMatch(n -> n <= maxReads);
        }
      }
    }
  }

  @Test
  void anEmptyClusterListsNothingWithoutANextCursor() {
    ReadOutcome o = TestVertx.await(listing().page(null, null, 100));
    assertThat(((ReadOutcome.Listed) o).page().timers()).isEmpty();
    assertThat(((ReadOutcome.Listed) o).page().next()).isNull();
  }
}
