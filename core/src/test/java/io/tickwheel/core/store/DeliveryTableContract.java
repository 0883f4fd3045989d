package io.tickwheel.core.store;

import static io.tickwheel.core.store.StoreFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of the {@link DeliveryTable} part: deliveries created with their firing, replaced by
 * compare-and-set, listed, streamed at recovery, trimmed, durable. Run against every store by
 * {@link TimerStoreContract}.
 */
public interface DeliveryTableContract extends StoreUnderTest {

  @Test
  default void aFiringWithACallbackRecordsAPendingDeliveryOfThatFiringInTheSameWrite() {
    Timer t = timer("cb", 100);
    Timer plain = timer("plain", 100);
    await(store().putAll(List.of(t, plain)));
    List<FiringResult> r = await(store().recordFirings(List.of(fireWithHook(t, 105, null), fire(plain, 105, null))));
    Delivery d = r.get(0).delivery();
    assertThat(d).isEqualTo(Delivery.pending(r.get(0).firing(), HOOK));
    assertThat(d.id()).isEqualTo("msg_1");
    assertThat(r.get(1).delivery()).as("no callback, no delivery").isNull();
    assertThat(await(store().getDelivery(1))).isEqualTo(d);
    assertThat(await(store().getDelivery(2))).isNull();
    assertThat(await(store().countDeliveries(DeliveryState.PENDING))).isEqualTo(1);
  }

  @Test
  default void aStaleOrSkippedFiringRecordsNoDelivery() {
    Timer t = periodic("cbp", 100, 50);
    await(store().put(t));
    FiringRequest stale = new FiringRequest(t.id(), t.generation() + 1, t.firings(), true, 100, 101, null, 100, HOOK);
    FiringRequest skip = new FiringRequest(t.id(), t.generation(), t.firings(), false, 100, 101, t.fired(150), 100,
        HOOK);
    List<FiringResult> r = await(store().recordFirings(List.of(stale, skip)));
    assertThat(r.get(0).delivery()).isNull();
    assertThat(r.get(1).delivery()).isNull();
    assertThat(await(store().listDeliveries(null, 0, 10)).items()).isEmpty();
  }

  @Test
  default void updateDeliveryReplacesAStoredOneOnlyAndMovesItBetweenStates() {
    Delivery d = fireHooked(1, 100).get(0);
    Delivery after = d.after(new Attempt(1, 100, 500, null, 3), DeliveryState.PENDING, 5100, 103);
    assertThat(await(store().updateDelivery(after))).isTrue();
    assertThat(await(store().getDelivery(d.seq()))).isEqualTo(after);
    Delivery dead = after.after(new Attempt(2, 5100, 410, null, 2), DeliveryState.DEAD, 0, 5102);
    assertThat(await(store().updateDelivery(dead))).isTrue();
    assertThat(await(store().countDeliveries(DeliveryState.PENDING))).isZero();
    assertThat(await(store().countDeliveries(DeliveryState.DEAD))).isEqualTo(1);
    assertThat(await(store().listDeliveries(DeliveryState.DEAD, 0, 10)).items()).containsExactly(dead);
    assertThat(await(store().listDeliveries(DeliveryState.PENDING, 0, 10)).items()).isEmpty();
    Delivery unknown = Delivery.pending(new Firing(999, "x", "t1", 1, 1, 1, null), HOOK);
    assertThat(await(store().updateDelivery(unknown))).as("never created: not created now").isFalse();
    assertThat(await(store().getDelivery(999))).isNull();
  }

  @Test
  default void updateDeliveryExpectingAStateIsACompareAndSetSoConcurrentRequeuesOfADeadOneHaveOneWinner() {
    Delivery d = fireHooked(1, 100).get(0);
    Delivery dead = d.after(new Attempt(1, 100, 410, null, 3), DeliveryState.DEAD, 0, 103);
    assertThat(await(store().updateDelivery(dead, DeliveryState.PENDING))).isTrue();
    List<Future<Boolean>> requeues = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      requeues.add(store().updateDelivery(dead.requeued(200 + i), DeliveryState.DEAD));
    }
    await(Future.join(requeues));
    assertThat(requeues.stream().filter(f -> f.result()).count()).as("requeues that won").isEqualTo(1);
    Delivery won = await(store().getDelivery(d.seq()));
    assertThat(won.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(requeues.stream().map(f -> f.result()).toList().indexOf(true))
        .as("the stored record is the winner's").isEqualTo((int) (won.updatedAt() - 200));
    assertThat(await(store().countDeliveries(DeliveryState.PENDING))).isEqualTo(1);
    assertThat(await(store().countDeliveries(DeliveryState.DEAD))).isZero();
    assertThat(await(store().listDeliveries(DeliveryState.DEAD, 0, 10)).items()).isEmpty();
    assertThat(await(store().updateDelivery(dead.requeued(300), DeliveryState.DEAD)))
        .as("not dead any more: refused, nothing changed").isFalse();
    assertThat(await(store().getDelivery(d.seq()))).isEqualTo(won);
    Delivery unknown = Delivery.pending(new Firing(999, "x", "t1", 1, 1, 1, null), HOOK);
    assertThat(await(store().updateDelivery(unknown, DeliveryState.PENDING))).isFalse();
    assertThat(await(store().getDelivery(999))).isNull();
  }

  @Test
  default void listDeliveriesPagesInSeqOrderByStateWithTheCursor() {
    List<Delivery> ds = fireHooked(5, 100);
    await(store().updateDelivery(ds.get(1).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    await(store().updateDelivery(ds.get(3).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    DeliveryPage p1 = await(store().listDeliveries(DeliveryState.PENDING, 0, 2));
    assertThat(p1.items()).extracting(Delivery::seq).containsExactly(1L, 3L);
    DeliveryPage p2 = await(store().listDeliveries(DeliveryState.PENDING, p1.nextAfter(), 2));
    assertThat(p2.items()).extracting(Delivery::seq).containsExactly(5L);
    assertThat(p2.nextAfter()).isEqualTo(-1);
    assertThat(await(store().listDeliveries(DeliveryState.SUCCEEDED, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(2L, 4L);
    DeliveryPage all = await(store().listDeliveries(null, 2, 10));
    assertThat(all.items()).extracting(Delivery::seq).containsExactly(3L, 4L, 5L);
    assertThat(all.nextAfter()).isEqualTo(-1);
  }

  @Test
  default void loadPendingDeliveriesStreamsOnlyThePendingOnesInBoundedBatches() {
    List<Delivery> ds = fireHooked(7, 100);
    await(store().updateDelivery(ds.get(0).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0, 101)));
    List<List<Delivery>> batches = new ArrayList<>();
    long n = await(store().loadPendingDeliveries(4, b -> {
      batches.add(new ArrayList<>(b));
      return Future.succeededFuture();
    }));
    assertThat(n).isEqualTo(6);
    assertThat(batches).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(4));
    assertThat(batches.stream().flatMap(List::stream).map(Delivery::seq).sorted().toList())
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  default void trimDeliveriesRemovesTheOldestFinishedOnesAndNeverAPendingOne() {
    List<Delivery> ds = fireHooked(6, 100);
    for (int i = 0; i < 4; i++) {
      DeliveryState st = i % 2 == 0 ? DeliveryState.SUCCEEDED : DeliveryState.DEAD;
      await(store().updateDelivery(ds.get(i).after(new Attempt(1, 100, i % 2 == 0 ? 200 : 410, null, 1), st, 0,
          1000 + i)));
    }
    // count: keep the 2 newest finished (seqs 3 and 4)
    assertThat(await(store().trimDeliveries(new Retention(2, Long.MAX_VALUE / 4), 2000))).isEqualTo(2);
    assertThat(await(store().listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(3L, 4L, 5L, 6L);
    // age: finished ones changed before 1003 go (seq 3 changed at 1002); pending ones stay however old
    assertThat(await(store().trimDeliveries(new Retention(100, 1000), 2003))).isEqualTo(1);
    assertThat(await(store().listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq)
        .containsExactly(4L, 5L, 6L);
    assertThat(await(store().trimDeliveries(new Retention(1, 0), 1_000_000))).isEqualTo(1);
    assertThat(await(store().listDeliveries(null, 0, 10)).items()).extracting(Delivery::seq).containsExactly(5L, 6L);
    assertThat(await(store().getDelivery(4))).isNull();
  }

  /**
   * A store may trim a bounded number of records per call; repeated calls still reach an old record behind many
   * recent ones (a retried delivery can finish after later ones), and never remove a recent one.
   */
  @Test
  default void repeatedTrimsRemoveOldFinishedDeliveriesBehindManyRecentOnesAndNoRecentOne() {
    int n = 1_500;
    List<Delivery> ds = fireHooked(n, 100);
    java.util.Set<Long> old = java.util.Set.of(ds.get(1_199).seq(), ds.get(1_399).seq());
    for (Delivery d : ds) {
      long updatedAt = old.contains(d.seq()) ? 500 : 2_000;
      await(store().updateDelivery(d.after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0,
          updatedAt)));
    }
    long removed = 0;
    for (int call = 0; call < 50; call++) {
      removed += await(store().trimDeliveries(new Retention(1_000_000, 1_000), 2_100));
    }
    assertThat(removed).isEqualTo(2);
    for (long seq : old) {
      assertThat(await(store().getDelivery(seq))).isNull();
    }
    assertThat(await(store().countDeliveries(DeliveryState.SUCCEEDED))).isEqualTo(n - 2);
  }

  @Test
  default void aTrimWithNothingFinishedDoesNotHideADeliveryThatFinishesLater() {
    List<Delivery> ds = fireHooked(2, 100);
    Retention r = new Retention(100, 1000);
    assertThat(await(store().trimDeliveries(r, 5_000))).as("both pending").isZero();
    assertThat(await(store().trimDeliveries(r, 6_000))).isZero();
    await(store().updateDelivery(ds.get(0).after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0,
        1_000)));
    assertThat(await(store().trimDeliveries(r, 6_000))).as("finished since, and old").isEqualTo(1);
    assertThat(await(store().getDelivery(ds.get(0).seq()))).isNull();
    assertThat(await(store().getDelivery(ds.get(1).seq()))).isNotNull();
  }

  @Test
  default void oneTrimRemovesBothTheCountsExcessAndTheOldOnes() {
    List<Delivery> ds = fireHooked(10, 100);
    for (Delivery d : ds) {
      long updatedAt = d == ds.get(4) ? 500 : 2_000;
      await(store().updateDelivery(d.after(new Attempt(1, 100, 200, null, 1), DeliveryState.SUCCEEDED, 0,
          updatedAt)));
    }
    assertThat(await(store().trimDeliveries(new Retention(9, 1_000), 2_100))).isEqualTo(2);
    assertThat(await(store().getDelivery(ds.get(0).seq()))).as("the oldest, beyond the count").isNull();
    assertThat(await(store().getDelivery(ds.get(4).seq()))).as("the old one").isNull();
    assertThat(await(store().countDeliveries(DeliveryState.SUCCEEDED))).isEqualTo(8);
  }

  @Test
  default void pendingDeliveriesAndTheirAttemptsSurviveAReopen() throws Exception {
    List<Delivery> ds = fireHooked(2, 100);
    Delivery retrying = ds.get(0).after(new Attempt(1, 100, 503, null, 4), DeliveryState.PENDING, 5100, 104);
    await(store().updateDelivery(retrying));
    await(store().close());
    TimerStore reopened = reopenOrSkip();
    List<Delivery> loaded = new ArrayList<>();
    await(store().loadPendingDeliveries(10, b -> {
      loaded.addAll(b);
      return Future.succeededFuture();
    }));
    assertThat(loaded).containsExactlyInAnyOrder(retrying, ds.get(1));
    assertThat(await(store().getDelivery(1))).isEqualTo(retrying);
  }

  /** Fires {@code n} once timers with the hook; returns their deliveries in seq order. */
  private List<Delivery> fireHooked(int n, long firedAt) {
    List<Timer> ts = new ArrayList<>();
    List<FiringRequest> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Timer t = timer("h" + firedAt + "-" + i, 100 + i);
      ts.add(t);
      rs.add(fireWithHook(t, firedAt, null));
    }
    await(store().putAll(ts));
    List<Delivery> out = new ArrayList<>();
    for (FiringResult r : await(store().recordFirings(rs))) {
      out.add(r.delivery());
    }
    return out;
  }
}
