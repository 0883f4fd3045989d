package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cluster-wide firing stream in process: a {@link MemoryCoordinator}, partition owners that record firings through
 * their fenced partition stores and broadcast {@code "f <partition> <seq>"}, and several nodes' hubs, each over a
 * {@link ClusterFiringFeed}, with real WebSocket and SSE subscribers.
 */
@ExtendWith(VertxExtension.class)
class ClusterFeedTest {

  static final int P = 8;
  static final long NO_CATCH_UP = 600_000;

  private final MemoryCoordinator coordinator = new MemoryCoordinator(System::currentTimeMillis, P);
  private final TimerStore[] owned = new TimerStore[P];
  private final AtomicLong ids = new AtomicLong();

  @BeforeEach
  void ownEveryPartition() {
    PushServer.await(coordinator.join("owner", "http://owner", P));
    for (int p = 0; p < P; p++) {
      Lease lease = PushServer.await(coordinator.acquire(p, "owner", 600_000));
      owned[p] = coordinator.partitionStore(p, lease.epoch());
    }
  }

  @Test
  void aSubscriberOnEveryNodeGetsEveryPartitionsFiringsOnceInSeqOrderPerPartition(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    ClusterPushNode b = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    try (WsProbe onA = a.ws(); WsProbe onB = b.ws()) {
      onA.subscribe("*");
      onA.next("subscribed");
      onB.subscribe("*");
      onB.next("subscribed");

      Set<String> fired = new HashSet<>();
      for (int round = 0; round < 5; round++) {
        fired.addAll(keys(fire(40, "t" + round)));
      }

      for (WsProbe probe : List.of(onA, onB)) {
        List<JsonObject> got = probe.firings(fired.size());
        assertExactlyOnceInOrderPerPartition(got, fired);
        for (JsonObject m : got) {
          assertThat(m.getString("cursor")).startsWith("c");
          assertThat(m.getInteger("partition")).isBetween(0, P - 1);
        }
        assertThat(probe.untilPong()).isEmpty();
      }
    }
  }

  @Test
  void firingsCarriedInTheOwnersBroadcastArePublishedWithoutAnyReadOfTheLog(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    try (WsProbe onA = a.ws()) {
      onA.subscribe("*");
      onA.next("subscribed");
      long reads = a.feed.reads;
      Set<String> fired = new HashSet<>();
      for (int round = 0; round < 5; round++) {
        fired.addAll(keys(fire(Broadcast.FIRINGS, 40, "t" + round)));
      }
      assertExactlyOnceInOrderPerPartition(onA.firings(fired.size()), fired);
      assertThat(a.feed.reads).as("log reads").isEqualTo(reads);
      assertThat(a.feed.pushed).isEqualTo(200);
    }
  }

  @Test
  void firingsANodeRecordsReachItsOwnSubscribersAtOnceAndTheOtherNodesThroughItsBroadcastWithoutAnyReadOfTheLog(
      Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    ClusterPushNode other = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    ClusterFiringSink sink = new ClusterFiringSink(owner.feed, coordinator, owner.context);
    try (WsProbe onOwner = owner.ws(); WsProbe onOther = other.ws()) {
      onOwner.subscribe("*");
      onOwner.next("subscribed");
      onOther.subscribe("*");
      onOther.next("subscribed");
      long ownerReads = owner.feed.reads;
      long otherReads = other.feed.reads;
      Set<String> fired = new HashSet<>();
      for (int round = 0; round < 5; round++) {
        List<Firing> batch = fire(Broadcast.NONE, 40, "t" + round);
        owner.call(() -> {
          for (Firing f : batch) {
            sink.recorded(Partitions.of(f.id(), P), f);
          }
          return io.vertx.core.Future.succeededFuture();
        });
        fired.addAll(keys(batch));
      }
      assertExactlyOnceInOrderPerPartition(onOwner.firings(fired.size()), fired);
      assertExactlyOnceInOrderPerPartition(onOther.firings(fired.size()), fired);
      assertThat(owner.feed.reads).as("the owner's log reads").isEqualTo(ownerReads);
      assertThat(owner.feed.pushed).as("the owner's own firings, taken from its broadcast").isZero();
      assertThat(other.feed.reads).as("the other node's log reads").isEqualTo(otherReads);
      assertThat(other.feed.pushed).isEqualTo(200);
    }
  }

  @Test
  void firingsThatDoNotFollowWhatWasPublishedAreReadFromTheLogInsteadMissingAndRepeatingNothing(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    try (WsProbe onA = a.ws()) {
      onA.subscribe("*");
      onA.next("subscribed");
      long reads = a.feed.reads;
      Set<String> fired = new HashSet<>(keys(fire(Broadcast.NONE, 40, "lost")));   // announced by nobody
      fired.addAll(keys(fire(Broadcast.FIRINGS, 40, "after")));
      assertExactlyOnceInOrderPerPartition(onA.firings(fired.size()), fired);
      assertThat(a.feed.reads).as("the gap is read from the log").isGreaterThan(reads);
    }
  }

  @Test
  void resumingWithACursorOnAnotherNodeMissesAndRepeatsNothing(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    ClusterPushNode b = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    Set<String> all = new HashSet<>(keys(fire(60, "a", "b")));
    List<JsonObject> first;
    try (WsProbe onA = a.ws()) {
      onA.subscribeFrom(FiringCursor.encode(new long[P]), "*");
      onA.next("subscribed");
      first = new ArrayList<>(onA.firings(50)); // replayed from the logs
      all.addAll(keys(fire(30, "a", "b")));
      first.addAll(onA.firings(20)); // some live
    }
    all.addAll(keys(fire(30, "a", "b")));
    String cursor = first.get(first.size() - 1).getString("cursor");
    try (WsProbe onB = b.ws()) {
      onB.subscribeFrom(cursor, "*");
      onB.next("subscribed");
      List<JsonObject> rest = onB.firings(all.size() - first.size());
      assertThat(onB.untilPong()).as("nothing more than what the first socket missed").isEmpty();

      Set<String> seen = new HashSet<>(keysOf(first));
      for (String k : keysOf(rest)) {
        assertThat(seen.add(k)).as("%s delivered twice", k).isTrue();
      }
      assertThat(seen).isEqualTo(all);
      assertInOrderPerPartition(rest);
    }
  }

  @Test
  void aNodeWithoutSubscribersReadsNoFiringAndALiveSubscriberThenGetsWhatFollowsOnly(Vertx vertx) throws Exception {
    ClusterPushNode idle = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    long before = idle.feed.reads;
    fire(50, "x");
    // the hints arrive; nobody listens here. A broadcast after them is handled after them, on the node's context
    PushServer.await(coordinator.broadcast("marker"));
    Awaitility.await("the hints handled").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> idle.broadcasts.contains("marker"));
    assertThat(idle.feed.reads).as("firing-log reads without a subscriber").isEqualTo(before);
    try (WsProbe probe = idle.ws()) {
      probe.subscribe("*");
      probe.next("subscribed");
      Set<String> later = new HashSet<>(keys(fire(20, "x")));
      List<JsonObject> got = probe.firings(later.size());
      assertExactlyOnceInOrderPerPartition(got, later);
      assertThat(probe.untilPong()).as("nothing from before the subscription").isEmpty();
      assertThat(idle.feed.reads).isGreaterThan(before);
    }
  }

  @Test
  void lostHintsAreCaughtUpByThePeriodicCatchUp(Vertx vertx) {
    ClusterPushNode deaf = ClusterPushNode.start(vertx, coordinator, P, false, 200, PushOptions.defaults());
    try (WsProbe probe = deaf.ws()) {
      probe.subscribe("*");
      probe.next("subscribed");
      long start = System.nanoTime();
      Set<String> fired = new HashSet<>(keys(fire(100, "x")));

      List<JsonObject> got = probe.firings(fired.size());
      long tookMs = (System.nanoTime() - start) / 1_000_000;

      assertExactlyOnceInOrderPerPartition(got, fired);
      assertThat(tookMs).as("within a few catch-up periods").isLessThan(5_000);
      assertThat(probe.untilPong()).isEmpty();
    }
  }

  @Test
  void aSweepReadsNoLogWhileNothingIsMissingAndOnlyTheLostPartitionAfterALoss(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, 50, PushOptions.defaults());
    try (WsProbe probe = a.ws()) {
      probe.subscribe("*");
      probe.next("subscribed");
      Set<String> fired = new HashSet<>(keys(fire(Broadcast.FIRINGS, 40, "x")));
      assertExactlyOnceInOrderPerPartition(probe.firings(fired.size()), fired);
      long reads = a.feed.reads;
      long sweeps = a.feed.sweeps;
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> a.feed.sweeps >= sweeps + 3);
      assertThat(a.feed.reads).as("log reads while every firing was published").isEqualTo(reads);

      Set<String> lost = new HashSet<>(keys(fire(Broadcast.NONE, 1, "x")));
      assertExactlyOnceInOrderPerPartition(probe.firings(1), lost);
      assertThat(a.feed.reads).as("one read, of the partition whose firing was not announced").isEqualTo(reads + 1);
      assertThat(probe.untilPong()).isEmpty();
    }
  }

  @Test
  void aCursorAheadOfThisNodesFeedWaitsForItAndRepeatsNothing(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    ClusterPushNode behind = ClusterPushNode.start(vertx, coordinator, P, false, NO_CATCH_UP, PushOptions.defaults());
    String cursor;
    try (WsProbe onA = a.ws()) {
      onA.subscribe("*");
      onA.next("subscribed");
      List<Firing> fired = fire(40, "a");
      cursor = onA.firings(fired.size()).get(fired.size() - 1).getString("cursor");
    }
    Set<String> later = new HashSet<>(keys(fire(5, "a")));
    try (WsProbe probe = behind.ws()) {
      probe.subscribeFrom(cursor, "*");
      probe.next("subscribed");
      List<JsonObject> got = probe.firings(later.size());
      assertExactlyOnceInOrderPerPartition(got, later);
      assertThat(probe.untilPong()).isEmpty();
    }
  }

  @Test
  void aCursorOlderThanAPartitionsRetentionGetsAGapNoticeNamingThePartition(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    List<Firing> fired = fire(80, "a");
    int p = Partitions.of(fired.get(0).id(), P);
    long last = PushServer.await(owned[p].lastSeq());
    PushServer.await(owned[p].trimFirings(new Retention(2, Long.MAX_VALUE / 2), System.currentTimeMillis()));
    try (WsProbe probe = a.ws()) {
      probe.subscribeFrom(FiringCursor.encode(new long[P]), "*");
      probe.next("subscribed");
      JsonObject gap = null;
      int firings = 0;
      while (firings < fired.size() - (last - 2)) {
        JsonObject m = probe.next();
        if ("error".equals(m.getString("type"))) {
          assertThat(gap).as("one gap notice").isNull();
          gap = m;
        } else {
          assertThat(m.getString("type")).isEqualTo("fired");
          firings++;
        }
      }
      assertThat(gap).isNotNull();
      assertThat(gap.getString("code")).isEqualTo("gap");
      assertThat(gap.getInteger("partition")).isEqualTo(p);
      assertThat(gap.getLong("from")).isEqualTo(1);
      assertThat(gap.getLong("to")).isEqualTo(last - 2);
      assertThat(probe.untilPong()).isEmpty();
    }
  }

  @Test
  void anIntegerFromIsRefusedInAClusterNamingTheField(Vertx vertx) {
    ClusterPushNode a = ClusterPushNode.start(vertx, coordinator, P, true, NO_CATCH_UP, PushOptions.defaults());
    try (SseProbe sse = SseProbe.open(vertx, a.port, new HttpClientOptions(), "/v1/events?from=3")) {
      assertThat(sse.status()).isEqualTo(400);
      JsonObject error = sse.bodyJson().getJsonObject("error");
      assertThat(error.getString("field")).isEqualTo("from");
      assertThat(error.getString("message")).contains("an integer seq names no position in a cluster's partitions");
    }
    fire(10, "a");
    try (SseProbe sse = SseProbe.open(vertx, a.port, new HttpClientOptions(), "/v1/events",
        "Last-Event-ID", FiringCursor.encode(new long[P]))) {
      Set<String> ids = new LinkedHashSet<>();
      for (int i = 0; i < 10; i++) {
        SseProbe.Event e = sse.next("fired");
        assertThat(e.id()).isEqualTo(e.json().getString("cursor"));
        ids.add(e.json().getInteger("partition") + ":" + e.json().getLong("seq"));
      }
      assertThat(ids).hasSize(10);
    }
  }

  // ---- helpers ----

  /**
   * Records {@code n} firings of timers with fresh ids, topics cycling through {@code topics}, each in the partition
   * its id hashes to, one recordFirings per partition, and broadcasts each partition's new end.
   */
  private List<Firing> fire(int n, String... topics) {
    return fire(Broadcast.HINT, n, topics);
  }

  /** How {@link #fire} announces each partition's batch: a hint, the firings themselves, or nothing (a lost one). */
  enum Broadcast { HINT, FIRINGS, NONE }

  private List<Firing> fire(Broadcast how, int n, String... topics) {
    long now = System.currentTimeMillis();
    Map<Integer, List<Timer>> timers = new HashMap<>();
    Map<Integer, List<FiringRequest>> requests = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String id = "t" + ids.incrementAndGet();
      int p = Partitions.of(id, P);
      timers.computeIfAbsent(p, k -> new ArrayList<>())
          .add(new Timer(id, topics[i % topics.length], Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, null, now, now, 0, 0));
      requests.computeIfAbsent(p, k -> new ArrayList<>()).add(new FiringRequest(id, 0, 0, true, now, now, null));
    }
    List<Firing> out = new ArrayList<>();
    for (Map.Entry<Integer, List<Timer>> e : timers.entrySet()) {
      int p = e.getKey();
      PushServer.await(owned[p].putAll(e.getValue()));
      List<FiringResult> results = PushServer.await(owned[p].recordFirings(requests.get(p)));
      long end = 0;
      List<Firing> batch = new ArrayList<>();
      for (FiringResult r : results) {
        out.add(r.firing());
        batch.add(r.firing());
        end = Math.max(end, r.firing().seq());
      }
      if (how == Broadcast.HINT) {
        PushServer.await(coordinator.broadcast(io.tickwheel.server.cluster.BroadcastCodec.encode(
            new io.tickwheel.server.cluster.Broadcast.FiringsRecorded(p, end))));
      } else if (how == Broadcast.FIRINGS) {
        PushServer.await(coordinator.broadcast(io.tickwheel.server.cluster.BroadcastCodec.encode(
            io.tickwheel.server.cluster.BroadcastCodec.firings(p, batch))));
      }
    }
    return out;
  }

  private static List<String> keys(List<Firing> firings) {
    List<String> out = new ArrayList<>();
    for (Firing f : firings) {
      out.add(Partitions.of(f.id(), P) + ":" + f.seq());
    }
    return out;
  }

  private static List<String> keysOf(List<JsonObject> messages) {
    List<String> out = new ArrayList<>();
    for (JsonObject m : messages) {
      out.add(m.getInteger("partition") + ":" + m.getLong("seq"));
    }
    return out;
  }

  private static void assertExactlyOnceInOrderPerPartition(List<JsonObject> got, Set<String> expected) {
    List<String> keys = keysOf(got);
    assertThat(new HashSet<>(keys)).hasSize(keys.size()).isEqualTo(expected);
    assertInOrderPerPartition(got);
  }

  private static void assertInOrderPerPartition(List<JsonObject> got) {
    Map<Integer, Long> last = new HashMap<>();
    for (JsonObject m : got) {
      int p = m.getInteger("partition");
      long seq = m.getLong("seq");
      assertThat(seq).as("partition %d in order", p).isGreaterThan(last.getOrDefault(p, 0L));
      last.put(p, seq);
    }
  }
}
