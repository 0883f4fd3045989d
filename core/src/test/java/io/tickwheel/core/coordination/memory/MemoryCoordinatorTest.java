package io.tickwheel.core.coordination.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.Holder;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.TimerStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemoryCoordinatorTest {

  private final AtomicLong now = new AtomicLong(10_000);
  private final MemoryCoordinator c = new MemoryCoordinator(now::get, 8);

  private static Timer timer(String id) {
    return new Timer(id, "t", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{}", 1, 50_000, 0, 1);
  }

  @Test
  void lastSeqsGivesEveryPartitionsLastSeqAndFailsBeforeJoin() {
    assertThatThrownBy(() -> c.lastSeqs().await()).isInstanceOf(IllegalStateException.class);
    c.join("a", "http://a", 8).await();
    Lease l = c.acquire(5, "a", 6_000).await();
    TimerStore s = c.partitionStore(5, l.epoch());
    s.put(timer("x")).await();
    s.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 50_000, 50_001, null))).await();
    assertThat(c.lastSeqs().await()).containsExactly(0, 0, 0, 0, 0, 1, 0, 0);
  }

  @Test
  void joinWithAnotherPartitionCountIsRefusedNamingBothCounts() {
    assertThat(c.join("a", "http://a", 8).await()).isEqualTo(8);
    assertThatThrownBy(() -> c.join("b", "http://b", 16).await())
        .isInstanceOf(ClusterConfigException.class).hasMessageContaining("8 partitions").hasMessageContaining("16");
  }

  @Test
  void twoProcessesWithOneNodeIdNeverShareALeaseOrEpochAndTheSecondIsRefusedWhileTheFirstIsAlive() {
    c.join("a", "http://a1", 8).await();
    String first = Holder.of("a", "one");
    String second = Holder.of("a", "two");
    assertThat(c.heartbeat(first, "http://a1", 6_000).await()).extracting(Member::nodeId).containsExactly("a");
    assertThatThrownBy(() -> c.heartbeat(second, "http://a2", 6_000).await())
        .isInstanceOfSatisfying(NodeIdInUseException.class, e -> {
          assertThat(e.nodeId()).isEqualTo("a");
          assertThat(e.address()).isEqualTo("http://a1");
          assertThat(e.lastSeenAt()).isEqualTo(10_000);
          assertThat(e).isInstanceOf(ClusterConfigException.class).hasMessageContaining("--node-id");
        });
    c.leave(second).await();                          // the refused one's leave does not remove the member
    assertThat(c.members().await()).extracting(Member::address).containsExactly("http://a1");
    // the lease: the same node id is not the same holder
    Lease l = c.acquire(0, first, 6_000).await();
    assertThat(l.nodeId()).isEqualTo("a");
    assertThat(c.leases().await().get(0).nodeId()).isEqualTo("a");
    assertThat(c.acquire(0, second, 6_000).await()).as("not handed the first's epoch").isNull();
    assertThat(c.renew(second, new int[] {0}, new long[] {l.epoch()}, 6_000).await()).containsExactly((Lease) null);
    c.release(0, second, l.epoch()).await();
    assertThat(c.leases().await().get(0).expiresAt()).isEqualTo(16_000);
    // the first is gone (killed, not left): once its membership and lease end, the second takes both, a new epoch
    now.set(16_000);
    assertThat(c.heartbeat(second, "http://a2", 6_000).await()).extracting(Member::address)
        .containsExactly("http://a2");
    Lease taken = c.acquire(0, second, 6_000).await();
    assertThat(taken.epoch()).isGreaterThan(l.epoch());
    assertThatThrownBy(() -> c.partitionStore(0, l.epoch()).put(timer("x")).await())
        .isInstanceOf(StoreFencedException.class);
    assertThat(c.partitionReader(0).get("x").await()).isNull();
    assertThatThrownBy(() -> c.heartbeat(first, "http://a1", 6_000).await()).isInstanceOf(NodeIdInUseException.class);
    // a plain node id (no instance) is checked against nothing
    assertThat(c.heartbeat("a", "http://a3", 6_000).await()).extracting(Member::address).containsExactly("http://a3");
  }

  @Test
  void aFreePartitionIsAcquiredWithAnEpochNotBelowTheClockAndRenewedWithTheSameEpoch() {
    c.join("a", "http://a", 8).await();
    Lease l = c.acquire(3, "a", 6_000).await();
    assertThat(l).isEqualTo(new Lease(3, "a", 10_000, 16_000));
    now.set(12_000);
    assertThat(c.acquire(3, "b", 6_000).await()).isNull();
    assertThat(c.renew("a", new int[] {3}, new long[] {10_000}, 6_000).await()).containsExactly(new Lease(3, "a", 10_000, 18_000));
  }

  @Test
  void anExpiredLeaseGoesToAnotherNodeWithAGreaterEpochAndFencesTheOldHolder() {
    c.join("a", "http://a", 8).await();
    Lease a = c.acquire(1, "a", 6_000).await();
    TimerStore old = c.partitionStore(1, a.epoch());
    old.put(timer("x")).await();
    now.set(16_000); // a's lease ends at 16,000: expired
    assertThatThrownBy(() -> old.put(timer("y")).await()).isInstanceOf(StoreFencedException.class);
    Lease b = c.acquire(1, "b", 6_000).await();
    assertThat(b.epoch()).isEqualTo(16_000);
    assertThat(c.renew("a", new int[] {1}, new long[] {a.epoch()}, 6_000).await()).containsExactly((Lease) null);
    assertThatThrownBy(() -> old.remove("x").await()).isInstanceOf(StoreFencedException.class);
    assertThat(c.partitionReader(1).get("x").await()).isNotNull();
    assertThat(c.partitionReader(1).get("y").await()).isNull();
    c.partitionStore(1, b.epoch()).remove("x").await();
    assertThat(c.partitionReader(1).get("x").await()).isNull();
  }

  @Test
  void aReleasedPartitionIsFreeAtOnceAndTheNextEpochStillGrowsWhenTheClockDoesNot() {
    c.join("a", "http://a", 8).await();
    Lease a = c.acquire(0, "a", 6_000).await();
    c.release(0, "a", a.epoch()).await();
    Lease b = c.acquire(0, "b", 6_000).await();
    assertThat(b.nodeId()).isEqualTo("b");
    assertThat(b.epoch()).isEqualTo(a.epoch() + 1);
  }

  @Test
  void membersExpireAfterTheirTtlAndLeaveRemovesAtOnce() {
    c.heartbeat("a", "http://a", 3_000).await();
    c.heartbeat("b", "http://b", 3_000).await();
    assertThat(c.members().await()).extracting(m -> m.nodeId()).containsExactly("a", "b");
    now.addAndGet(2_000);
    c.heartbeat("b", "http://b", 3_000).await();
    now.addAndGet(1_000);
    assertThat(c.members().await()).extracting(m -> m.nodeId()).containsExactly("b");
    c.leave("b").await();
    assertThat(c.members().await()).isEmpty();
  }
}
