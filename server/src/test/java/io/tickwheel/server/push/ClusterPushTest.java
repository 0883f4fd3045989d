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
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The owner's push of its firings to the nodes whose subscribers want them, in process: a {@link MemoryCoordinator}
 * (its broadcasts carry the nodes' interest), an owner node recording through its {@link ClusterFiringSink} and
 * {@link FiringPusher}, and other nodes taking the pushes on their internal route over real HTTP, with real
 * WebSocket subscribers.
 */
@ExtendWith(VertxExtension.class)
class ClusterPushTest {

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
  void anotherNodesSubscriberGetsTheOwnersFiringsPushedOnceInOrderWithoutAnyReadOfTheLog(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe onOther = other.ws(); WsProbe onOwner = owner.ws()) {
      onOther.subscribe("*");
      onOther.next("subscribed");
      subscribeOnR(onOwner, owner, "*", "anything");
      long reads = other.feed.reads;
      Set<String> fired = new HashSet<>();
      for (int round = 0; round < 5; round++) {
        fired.addAll(keys(record(owner, 40, "t" + round)));
      }
      assertExactlyOnceInOrderPerPartition(firings(onOther, fired.size(), owner, other), fired);
      assertExactlyOnceInOrderPerPartition(onOwner.firings(fired.size()), fired);
      assertThat(other.feed.reads).as("log reads on the other node").isEqualTo(reads);
      assertThat(other.feed.pushed).isEqualTo(200);
      assertThat(onOther.untilPong()).isEmpty();
      assertThat(owner.pusher.sent - owner.pusher.posted).as("pushes over the WebSocket").isPositive();
      assertThat(owner.pusher.posted).as("pushes POSTed").isZero();
      assertThat(other.pushSockets.get()).as("push sockets the other node accepted").isEqualTo(1);
    }
  }

  @Test
  void aPushRefusedBecauseItsTokenIsNoLongerAdminIsReadFromTheLogOnceTheNextIsTaken(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe onOther = other.ws()) {
      subscribeOnR(onOther, owner, "*", "x");
      Set<String> fired = new HashSet<>(keys(record(owner, 20, "x")));
      assertExactlyOnceInOrderPerPartition(firings(onOther, fired.size(), owner, other), fired);
      long reads = other.feed.reads;
      // the socket's token loses the admin role: the next push closes it, not taken
      other.pushTokenDemoted = true;
      Set<String> refused = new HashSet<>(keys(record(owner, 1, "x")));
      Awaitility.await("the push refused").atMost(Duration.ofSeconds(10)).until(() -> other.pushesRefused.get() == 1);
      assertThat(onOther.untilPong()).as("nothing of the refused push reached the subscriber").isEmpty();
      // a token that is admin again (the owner's pusher opens another socket): the next push into the refused
      // firing's partition shows the gap, read from the log (160 firings over 8 partitions: every one gets some)
      other.pushTokenDemoted = false;
      Set<String> after = new HashSet<>(refused);
      after.addAll(keys(record(owner, 160, "x")));
      assertExactlyOnceInOrderPerPartition(firings(onOther, after.size(), owner, other), after);
      assertThat(other.pushSockets.get()).as("push sockets accepted: the first, then another").isEqualTo(2);
      assertThat(other.feed.reads).as("the refused firing read from the log").isGreaterThan(reads);
    }
  }

  @Test
  void aPushTooLargeForOneSocketMessageIsPostedInItsPlaceInTheStream(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe onOther = other.ws()) {
      subscribeOnR(onOther, owner, "*", "anything");
      long reads = other.feed.reads;
      String large = "\"" + "x".repeat(FiringPusher.MAX_SOCKET_PUSH_BYTES + 100) + "\"";
      Set<String> fired = new HashSet<>(keys(record(owner, 20, "a")));
      List<JsonObject> came = new ArrayList<>(firings(onOther, fired.size(), owner, other));
      // the large firing alone in its partition's pending stretch: POSTed, and nothing of that stretch is left to push
      fired.addAll(keys(recordWith(owner, 1, large, "a")));
      came.addAll(firings(onOther, 1, owner, other));
      Awaitility.await("the POST answered").atMost(Duration.ofSeconds(10))
          .until(() -> owner.call(() -> Future.succeededFuture(owner.pusher.settled("r"))));
      fired.addAll(keys(record(owner, 20, "a")));
      came.addAll(firings(onOther, 20, owner, other));
      assertExactlyOnceInOrderPerPartition(came, fired);
      assertThat(other.feed.reads).as("log reads on the other node").isEqualTo(reads);
      assertThat(owner.pusher.posted).as("pushes POSTed: the large firing's").isEqualTo(1);
      assertThat(owner.pusher.sent - owner.pusher.posted).as("pushes over the WebSocket").isPositive();
      assertThat(owner.pusher.failed).as("pushes failed (last close: %s)", owner.pusher.lastClose).isZero();
      assertThat(other.pushSockets.get()).as("push sockets the other node accepted").isEqualTo(1);
    }
  }

  @Test
  void aNodeOfAnEarlierVersionWithoutThePushSocketIsPushedByPost(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP, false);
    try (WsProbe onOther = other.ws()) {
      subscribeOnR(onOther, owner, "*", "anything");
      long reads = other.feed.reads;
      Set<String> fired = new HashSet<>();
      for (int round = 0; round < 3; round++) {
        fired.addAll(keys(record(owner, 40, "t" + round)));
      }
      assertExactlyOnceInOrderPerPartition(firings(onOther, fired.size(), owner, other), fired);
      assertThat(other.feed.reads).as("log reads on the other node").isEqualTo(reads);
      assertThat(owner.pusher.posted).as("pushes POSTed").isPositive();
      assertThat(owner.pusher.sent - owner.pusher.posted).as("pushes over a WebSocket").isZero();
    }
  }

  @Test
  void aNodeIsPushedOnlyTheFiringsOfItsSubscribersTopicsAndATopicAddedLaterFromThenOn(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe probe = other.ws()) {
      subscribeOnR(probe, owner, "a", "a");
      assertThat(owner.pusher.wants("r", "b")).isFalse();
      long reads = other.feed.reads;
      List<Firing> first = record(owner, 100, "a", "b");
      Set<String> as = keys(of(first, "a"));
      assertExactlyOnceInOrderPerPartition(firings(probe, as.size(), owner, other), as);
      assertThat(probe.untilPong()).as("no firing of b").isEmpty();
      assertThat(owner.pusher.queued).as("firings queued for the other node: a's only").isEqualTo(as.size());
      assertThat(other.feed.reads).as("log reads").isEqualTo(reads);

      subscribeOnR(probe, owner, "b", "b");
      Set<String> later = keys(record(owner, 40, "a", "b"));
      assertExactlyOnceInOrderPerPartition(firings(probe, later.size(), owner, other), later);
      assertThat(probe.untilPong()).isEmpty();
      assertThat(other.feed.reads).as("log reads").isEqualTo(reads);
    }
  }

  @Test
  void aTopicSubscribedBeforeTheOwnerHeardOfItMissesNoFiringRecordedAfterTheSubscription(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe probe = other.ws()) {
      subscribeOnR(probe, owner, "a", "a");
      long reads = other.feed.reads;
      owner.deaf = true; // it pushes by what it knows: "a" only
      for (int round = 0; round < 3; round++) {
        String topic = "new" + round;
        probe.subscribe(topic);
        probe.next("subscribed");
        Set<String> expected = keys(of(record(owner, 40, "a", topic, "other"), "a", topic));
        assertExactlyOnceInOrderPerPartition(firings(probe, expected.size(), owner, other), expected);
        assertThat(probe.untilPong()).isEmpty();
        assertThat(owner.pusher.wants("r", topic)).isFalse();
      }
      assertThat(other.feed.reads).as("what the pushes may lack is read from the log").isGreaterThan(reads);
      owner.deaf = false;
    }
  }

  @Test
  void aNodeWithoutSubscribersIsPushedPositionsOnlyAndReadsNothing(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode idle = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    Awaitility.await("the owner knows the idle node").atMost(Duration.ofSeconds(10))
        .until(() -> owner.call(() -> Future.succeededFuture(owner.pusher.peers())) == 1);
    long reads = idle.feed.reads;
    List<Firing> before = record(owner, 50, "x");
    Map<Integer, Long> ends = new HashMap<>();
    for (Firing f : before) {
      ends.merge(Partitions.of(f.id(), P), f.seq(), Math::max);
    }
    Awaitility.await("the idle node's positions").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> idle.call(() -> {
          for (Map.Entry<Integer, Long> e : ends.entrySet()) {
            if (idle.feed.known(e.getKey()) != e.getValue()) {
              return Future.succeededFuture(false);
            }
          }
          return Future.succeededFuture(true);
        }));
    assertThat(idle.feed.reads).as("log reads without a subscriber").isEqualTo(reads);
    assertThat(owner.pusher.queued).as("firings queued for a node that wants none").isZero();
    try (WsProbe probe = idle.ws()) {
      probe.subscribe("*");
      probe.next("subscribed");
      Set<String> later = keys(record(owner, 20, "x"));
      assertExactlyOnceInOrderPerPartition(probe.firings(later.size()), later);
      assertThat(probe.untilPong()).as("nothing from before the subscription").isEmpty();
    }
  }

  @Test
  void firingsNoPushAnnouncedAreReadFromTheLogMissingAndRepeatingNothing(Vertx vertx) {
    ClusterPushNode owner = ClusterPushNode.startPushing(vertx, coordinator, P, "o", NO_CATCH_UP);
    ClusterPushNode other = ClusterPushNode.startPushing(vertx, coordinator, P, "r", NO_CATCH_UP);
    try (WsProbe probe = other.ws()) {
      subscribeOnR(probe, owner, "*", "x");
      long reads = other.feed.reads;
      Set<String> fired = new HashSet<>(keys(recordUnannounced(40, "x")));
      fired.addAll(keys(record(owner, 40, "x")));
      assertExactlyOnceInOrderPerPartition(firings(probe, fired.size(), owner, other), fired);
      assertThat(probe.untilPong()).isEmpty();
      assertThat(other.feed.reads).as("the gap is read from the log").isGreaterThan(reads);
    }
  }

  // ---- helpers ----

  /** The next {@code n} firings on {@code probe}; when they do not come, the failure says what the pushes did. */
  private static List<JsonObject> firings(WsProbe probe, int n, ClusterPushNode owner, ClusterPushNode other) {
    List<JsonObject> got = new ArrayList<>(n);
    try {
      for (int i = 0; i < n; i++) {
        got.add(probe.next("fired"));
      }
      return got;
    } catch (AssertionError e) {
      StringBuilder seqs = new StringBuilder();
      for (JsonObject m : got) {
        seqs.append(' ').append(m.getInteger("partition")).append(':').append(m.getLong("seq"));
      }
      String pusher = owner.call(() -> Future.succeededFuture(owner.pusher.state("r")));
      String known = other.call(() -> {
        StringBuilder k = new StringBuilder();
        for (int p = 0; p < P; p++) {
          k.append(' ').append(p).append(':').append(other.feed.known(p));
        }
        return Future.succeededFuture(k.toString());
      });
      throw new AssertionError(e.getMessage() + "; " + got.size() + " of " + n + " firings came:" + seqs
          + "; owner's pushes: sent " + owner.pusher.sent + ", posted " + owner.pusher.posted + ", failed "
          + owner.pusher.failed + " (last: " + owner.pusher.lastFailure + "), dropped " + owner.pusher.dropped
          + ", to r: " + pusher + "; the other node's log reads " + other.feed.reads + ", pushed "
          + other.feed.pushed + ", published up to" + known, e);
    }
  }

  /** Subscribes {@code probe} (on node r) to {@code topic}; waits until the owner knows r wants {@code wanted}. */
  private static void subscribeOnR(WsProbe probe, ClusterPushNode owner, String topic, String wanted) {
    probe.subscribe(topic);
    probe.next("subscribed");
    awaitWants(owner, "r", wanted);
  }

  private static void awaitWants(ClusterPushNode owner, String node, String topic) {
    Awaitility.await("the owner knows " + node + " wants " + topic).atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> owner.call(() -> Future.succeededFuture(owner.pusher.wants(node, topic))));
  }

  /** Records {@code n} firings in the owner's partitions' logs and hands them to its sink, one task per partition. */
  private List<Firing> record(ClusterPushNode owner, int n, String... topics) {
    return recordWith(owner, n, null, topics);
  }

  /** As {@link #record(ClusterPushNode, int, String...)}, each timer with {@code payload} (JSON text, or null). */
  private List<Firing> recordWith(ClusterPushNode owner, int n, String payload, String... topics) {
    Map<Integer, List<Firing>> byPartition = recordInLog(n, payload, topics);
    List<Firing> out = new ArrayList<>();
    for (Map.Entry<Integer, List<Firing>> e : byPartition.entrySet()) {
      owner.call(() -> {
        for (Firing f : e.getValue()) {
          owner.sink.recorded(e.getKey(), f);
        }
        return Future.succeededFuture();
      });
      out.addAll(e.getValue());
    }
    return out;
  }

  /** Records {@code n} firings in the logs that no sink hears of. */
  private List<Firing> recordUnannounced(int n, String... topics) {
    List<Firing> out = new ArrayList<>();
    recordInLog(n, null, topics).values().forEach(out::addAll);
    return out;
  }

  private Map<Integer, List<Firing>> recordInLog(int n, String payload, String... topics) {
    long now = System.currentTimeMillis();
    Map<Integer, List<Timer>> timers = new HashMap<>();
    Map<Integer, List<FiringRequest>> requests = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String id = "t" + ids.incrementAndGet();
      int p = Partitions.of(id, P);
      timers.computeIfAbsent(p, k -> new ArrayList<>())
          .add(new Timer(id, topics[i % topics.length], Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, payload, now, now, 0,
              0));
      requests.computeIfAbsent(p, k -> new ArrayList<>()).add(new FiringRequest(id, 0, 0, true, now, now, null));
    }
    Map<Integer, List<Firing>> out = new HashMap<>();
    for (Map.Entry<Integer, List<Timer>> e : timers.entrySet()) {
      int p = e.getKey();
      PushServer.await(owned[p].putAll(e.getValue()));
      List<FiringResult> results = PushServer.await(owned[p].recordFirings(requests.get(p)));
      List<Firing> batch = new ArrayList<>();
      for (FiringResult r : results) {
        batch.add(r.firing());
      }
      out.put(p, batch);
    }
    return out;
  }

  private static List<Firing> of(List<Firing> firings, String... topics) {
    Set<String> ts = Set.of(topics);
    List<Firing> out = new ArrayList<>();
    for (Firing f : firings) {
      if (ts.contains(f.topic())) {
        out.add(f);
      }
    }
    return out;
  }

  private static Set<String> keys(List<Firing> firings) {
    Set<String> out = new HashSet<>();
    for (Firing f : firings) {
      out.add(Partitions.of(f.id(), P) + ":" + f.seq());
    }
    return out;
  }

  private static void assertExactlyOnceInOrderPerPartition(List<JsonObject> got, Set<String> expected) {
    List<String> keys = new ArrayList<>();
    Map<Integer, Long> last = new HashMap<>();
    for (JsonObject m : got) {
      int p = m.getInteger("partition");
      long seq = m.getLong("seq");
      keys.add(p + ":" + seq);
      assertThat(seq).as("partition %d in order", p).isGreaterThan(last.getOrDefault(p, 0L));
      last.put(p, seq);
    }
    assertThat(new HashSet<>(keys)).hasSize(keys.size()).isEqualTo(expected);
  }
}
