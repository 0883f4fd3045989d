package io.tickwheel.server.cluster;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.ManualSchedulers;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.SchedulerOptions;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease keeper of several in-process nodes over one {@link MemoryCoordinator}, on one manual clock (the nodes' and
 * the coordinator's): every round, deadline check and firing is turned by the test, so times are exact.
 */
class LeaseKeeperTest {

  static final long T0 = 1_700_000_000_000L;
  static final long LEASE = 6000;
  static final int P = 16;

  static Vertx vertx;
  AtomicLong clock;
  MemoryCoordinator coord;
  final Map<String, Node> nodes = new HashMap<>();

  /** One node: its context, keeper, schedulers (manual) and what they fired. */
  final class Node {
    final String id;
    final Context ctx = vertx.getOrCreateContext();
    final ClusterMetrics metrics = new ClusterMetrics(new SimpleMeterRegistry());
    final List<Firing> fired = Collections.synchronizedList(new ArrayList<>());
    /** The partitions whose stopping waited for {@link PartitionFactory#settle}, in order. */
    final List<Integer> settling = Collections.synchronizedList(new ArrayList<>());
    /** What {@link PartitionFactory#settle} answers: at once while {@code null}. */
    volatile Promise<Void> settleGate;
    final LeaseKeeper keeper;

    Node(String id) {
      this(id, clock::get, clock::get);
    }

    /** A node whose wall clock (its schedulers') and monotonic clock (its lease keeper's) are {@code wall}, {@code mono}. */
    Node(String id, LongSupplier wall, MonotonicClock mono) {
      this(id, wall, mono, coord);
    }

    /** A node whose lease keeper talks to {@code c} (the shared coordinator, or a wrapper around it). */
    Node(String id, LongSupplier wall, MonotonicClock mono, ClusterCoordinator c) {
      this.id = id;
      Metrics m = new Metrics();
      PartitionFactory factory = new PartitionFactory() {
        @Override
        public Scheduler open(int p, io.tickwheel.core.store.TimerStore store) {
          Scheduler s = ManualSchedulers.manual(vertx, ctx, store, wall, SchedulerOptions.defaults(10), m);
          s.onFiring(fired::add);
          return s;
        }

        @Override
        public Future<?> settle(int p, Scheduler s) {
          settling.add(p);
          Promise<Void> gate = settleGate;
          return gate == null ? Future.succeededFuture() : gate.future();
        }
      };
      keeper = new LeaseKeeper(vertx, c, id, "http://" + id, P, LEASE, mono, factory, metrics);
      on(ctx, () -> coord.join(id, "http://" + id, P));
      on(ctx, () -> {
        keeper.startManual();
        return Future.succeededFuture();
      });
    }

    void round() {
      on(ctx, keeper::round);
    }

    void checkDeadlines() {
      on(ctx, () -> {
        keeper.checkDeadlines();
        return Future.succeededFuture();
      });
    }

    int owned() {
      return on(ctx, () -> Future.succeededFuture(keeper.owned()));
    }

    Scheduler local(int p) {
      return on(ctx, () -> Future.succeededFuture(keeper.local(p)));
    }

    long deadline(int p) {
      return on(ctx, () -> Future.succeededFuture(keeper.deadline(p)));
    }

    void drainAll() {
      on(ctx, () -> {
        List<Future<Integer>> all = new ArrayList<>();
        keeper.schedulers().forEach(s -> all.add(s.drain()));
        return Future.all(all).mapEmpty();
      });
    }

    void shutdown() {
      on(ctx, keeper::shutdown);
    }
  }

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void setUp() {
    clock = new AtomicLong(T0);
    coord = new MemoryCoordinator(clock::get, P);
  }

  Node node(String id) {
    Node n = new Node(id);
    nodes.put(id, n);
    return n;
  }

  /** Advances the clock by {@code ms} and runs a round on each of {@code live}. */
  void step(long ms, Node... live) {
    clock.addAndGet(ms);
    for (Node n : live) {
      n.round();
    }
  }

  /** Rounds until every node counts every other and each owns its rendezvous share. */
  void settle(Node... live) {
    long period = live[0].keeper.periodMs();
    for (int i = 0; i < 3; i++) {
      step(period, live);
    }
    String[] ids = new String[live.length];
    for (int i = 0; i < live.length; i++) {
      ids[i] = live[i].id;
    }
    for (Node n : live) {
      assertThat(n.owned()).as(n.id).isEqualTo(share(n.id, ids));
    }
  }

  Lease lease(int p) {
    return TestVertx.await(coord.leases()).get(p);
  }

  String[] assignment(String... ids) {
    return Rendezvous.assign(List.of(ids), P);
  }

  int share(String node, String... ids) {
    int n = 0;
    for (String o : assignment(ids)) {
      if (o.equals(node)) {
        n++;
      }
    }
    return n;
  }

  /** At most one node serves each partition within its deadline, and that node holds the lease past its deadline. */
  void assertOneOwnerEach() {
    long now = clock.get();
    for (int p = 0; p < P; p++) {
      List<String> serving = new ArrayList<>();
      for (Node n : nodes.values()) {
        long d = n.deadline(p);
        if (n.local(p) != null && d > now) {
          serving.add(n.id);
          Lease l = lease(p);
          assertThat(l.nodeId()).as("partition %d served by %s", p, n.id).isEqualTo(n.id);
          assertThat(l.expiresAt()).as("partition %d: lease ends after %s's deadline", p, n.id).isGreaterThan(d);
        }
      }
      assertThat(serving).as("partition %d", p).hasSizeLessThanOrEqualTo(1);
    }
  }

  @Test
  void aLoneNodeTakesEveryPartitionInItsFirstRound() {
    Node a = node("a");
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    for (int p = 0; p < P; p++) {
      assertThat(lease(p).nodeId()).isEqualTo("a");
      assertThat(a.deadline(p)).isEqualTo(T0 + LEASE - a.keeper.marginMs());
    }
  }

  @Test
  void aJoiningNodeIsCountedAfterOneHeartbeatPeriodAndThenGetsExactlyItsRendezvousShare() {
    Node a = node("a");
    a.round();
    Node b = node("b");
    b.round();                                   // b counts a (there before it), but a still holds everything
    assertThat(b.owned()).isZero();
    long period = a.keeper.periodMs();
    step(1, a);                                  // a sees b for the first time
    step(period - 1, a);                         // a has seen b for less than a period: nothing moves
    assertThat(a.owned()).isEqualTo(P);
    step(1, a, b);                               // a counts b: hands b's share over; b acquires it
    step(0, b);
    assertThat(a.owned()).isEqualTo(share("a", "a", "b"));
    assertThat(b.owned()).isEqualTo(share("b", "a", "b"));
    assertThat(a.owned() + b.owned()).isEqualTo(P);
    assertThat(a.metrics.handOvers()).isEqualTo(share("b", "a", "b"));
    assertOneOwnerEach();
  }

  /** Nodes a and b, each with its rendezvous share after four periods of rounds (a's round of each before b's). */
  Node[] twoSettledNodes() {
    Node a = node("a");
    Node b = node("b");
    a.round();
    b.round();
    for (int i = 0; i < 4; i++) {
      step(a.keeper.periodMs(), a, b);
    }
    return new Node[] {a, b};
  }

  @Test
  void aSettledNodeReadsTheLeasesOnceALeaseOrWhenToldAndStillRoutesToTheLiveOwnerBetweenReads() {
    Node[] ab = twoSettledNodes();
    Node a = ab[0];
    Node b = ab[1];
    long period = a.keeper.periodMs();
    int ofB = -1;
    for (int p = 0; p < P && ofB < 0; p++) {
      ofB = b.local(p) != null ? p : -1;
    }
    int p = ofB;
    long before = leaseReads(a);
    for (int i = 0; i < 8; i++) {                 // two leases of rounds, nothing moving
      step(period, a, b);
      assertThat(on(a.ctx, () -> Future.succeededFuture(a.keeper.liveLease(p)))).as("round %d", i)
          .extracting(Lease::nodeId).isEqualTo("b");
    }
    assertThat(leaseReads(a) - before).as("one read a lease, not one a round").isEqualTo(2);
    on(a.ctx, () -> {
      a.keeper.nudge();
      return Future.succeededFuture();
    });
    before = leaseReads(a);
    step(1, a);
    assertThat(leaseReads(a) - before).as("a hint: the next round reads").isEqualTo(1);
    step(1, a);
    assertThat(leaseReads(a) - before).as("and the one after does not").isEqualTo(1);
    assertThat(staleView(a)).as("a refused call asks for a round").isTrue();
    assertThat(staleView(a)).as("another one at once does not").isFalse();
    step(1, a);
    assertThat(leaseReads(a) - before).as("but the next round reads").isEqualTo(2);
    step(LeaseKeeper.STALE_VIEW_GAP_MS, a);
    assertThat(staleView(a)).as("a gap later").isTrue();
    assertOneOwnerEach();
  }

  boolean staleView(Node n) {
    return on(n.ctx, () -> Future.succeededFuture(n.keeper.staleView()));
  }

  long leaseReads(Node n) {
    return on(n.ctx, () -> Future.succeededFuture(n.keeper.leaseReads()));
  }

  @Test
  void aDeadNodesPartitionsAreTakenByTheOthersOnlyOnceItsLeaseHasEnded() {
    Node[] ab = twoSettledNodes();
    Node a = ab[0];
    Node b = ab[1];
    long period = a.keeper.periodMs();
    assertThat(b.owned()).isEqualTo(share("b", "a", "b")).isPositive();
    long bLastRenew = clock.get();
    // b dies (no more rounds): a keeps going
    step(period, a);
    step(period, a);
    step(period, a);
    step(LEASE - 3 * period - 1, a);              // 1 ms before b's lease ends: nothing taken
    assertThat(a.owned()).isEqualTo(share("a", "a", "b"));
    clock.set(bLastRenew + LEASE);                // b's membership and leases have ended
    a.round();
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    assertOneOwnerEach();
  }

  @Test
  void theRoundAfterADeadNodesLastHeartbeatComesAtItsEndAndTakesItsPartitions() {
    Node a = twoSettledNodes()[0];
    long period = a.keeper.periodMs();
    // a's round came before b's: a saw b's heartbeat of a period ago
    assertThat(untilNextEnd(a)).as("b's heartbeat ends a lease ahead, beyond a's next periodic round")
        .isEqualTo(LEASE - period + LeaseKeeper.END_SLACK_MS).isGreaterThan(period);
    long bLast = clock.get();
    // b dies (no more rounds): a's next round is due where b's heartbeat and leases end, not up to a period after
    step(period, a);
    step(period, a);
    long wait = untilNextEnd(a);
    assertThat(wait).isEqualTo(bLast + LEASE + LeaseKeeper.END_SLACK_MS - clock.get()).isLessThan(period * 3);
    assertThat(a.owned()).isEqualTo(share("a", "a", "b"));
    step(wait, a);
    assertThat(a.owned()).isEqualTo(P);
    assertThat(untilNextEnd(a)).as("nothing left to wait for").isEqualTo(Long.MAX_VALUE);
    assertOneOwnerEach();
  }

  long untilNextEnd(Node n) {
    return on(n.ctx, () -> Future.succeededFuture(n.keeper.untilNextEnd()));
  }

  @Test
  void leasesAreRenewedWhileARoundWaitsOnItsHeartbeat() {
    // a coordinator whose heartbeats wait for the gate while it is set: a round slowed by a busy link or event loop
    AtomicReference<Promise<Void>> gate = new AtomicReference<>();
    ClusterCoordinator slow = (ClusterCoordinator) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ClusterCoordinator.class}, (proxy, m, args) -> {
          Promise<Void> g = gate.get();
          if (g != null && m.getName().equals("heartbeat")) {
            return g.future().compose(v -> (Future<?>) invoke(m, args));
          }
          return invoke(m, args);
        });
    Node a = new Node("a", clock::get, clock::get, slow);
    nodes.put("a", a);
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    long margin = a.keeper.marginMs();
    gate.set(Promise.promise());
    clock.addAndGet(a.keeper.periodMs());
    long roundRenewSent = clock.get();
    on(a.ctx, () -> {
      a.keeper.round();                           // waits on its heartbeat; its renewal goes out beside it
      return Future.succeededFuture();
    });
    assertThat(a.deadline(0)).isEqualTo(roundRenewSent + LEASE - margin);
    clock.addAndGet(a.keeper.periodMs());
    on(a.ctx, a.keeper::renewIfDue);             // the round is still in flight: the renewal timer's turn
    long timerRenewSent = clock.get();
    for (int p = 0; p < P; p++) {
      assertThat(a.deadline(p)).isEqualTo(timerRenewSent + LEASE - margin);
    }
    clock.addAndGet(1);
    on(a.ctx, a.keeper::renewIfDue);             // one was sent less than lease/4 ago: not again yet
    assertThat(a.deadline(0)).isEqualTo(timerRenewSent + LEASE - margin);
    clock.set(roundRenewSent + LEASE - margin);   // the deadline the round's renewal alone gave
    a.checkDeadlines();
    assertThat(a.owned()).isEqualTo(P);
    assertThat(a.metrics.lostCount()).isZero();
    Promise<Void> open = gate.getAndSet(null);
    on(a.ctx, () -> {
      open.complete();                            // the round goes on where it waited
      return Future.succeededFuture();
    });
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    assertOneOwnerEach();
  }

  /** Calls {@code m} on the shared coordinator. */
  private Object invoke(java.lang.reflect.Method m, Object[] args) {
    try {
      return m.invoke(coord, args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPausedNodeStopsServingAtItsLocalDeadlineBeforeItsLeaseEnds() {
    Node a = node("a");
    a.round();
    long lastRenewSent = clock.get();
    clock.set(lastRenewSent + LEASE - a.keeper.marginMs() - 1);
    a.checkDeadlines();
    assertThat(a.owned()).isEqualTo(P);
    clock.incrementAndGet();                      // the deadline: lease - margin after the last renew was sent
    a.checkDeadlines();
    assertThat(a.owned()).isZero();
    assertThat(a.local(0)).isNull();
    for (int p = 0; p < P; p++) {
      // released after stopping, never past the lease: the next node need not wait for the expiry
      assertThat(lease(p).expiresAt()).isLessThanOrEqualTo(clock.get());
    }
    assertThat(a.metrics.lostCount()).isEqualTo(P);
  }

  @Test
  void aWallClockSetBackDoesNotKeepAPartitionServedPastItsMonotonicDeadline() {
    // the coordinator's clock (Redis TIME) and the node's monotonic clock run on; the node's wall clock is set back
    AtomicLong mono = new AtomicLong(42);
    AtomicLong wall = new AtomicLong(T0);
    Node a = new Node("a", wall::get, mono::get);
    nodes.put("a", a);
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    long deadline = 42 + LEASE - a.keeper.marginMs();
    assertThat(a.deadline(0)).isEqualTo(deadline);
    // a is cut off from the coordinator (no more rounds); an NTP step sets its wall clock back an hour
    wall.addAndGet(-3_600_000);
    long elapsed = LEASE - a.keeper.marginMs() - 1;
    clock.addAndGet(elapsed);
    mono.addAndGet(elapsed);
    wall.addAndGet(elapsed);
    a.checkDeadlines();
    assertThat(a.owned()).isEqualTo(P);
    clock.incrementAndGet();
    mono.incrementAndGet();
    wall.incrementAndGet();
    a.checkDeadlines();                           // its monotonic deadline: stops, before the lease ends
    assertThat(a.owned()).isZero();
    assertThat(a.metrics.lostCount()).isEqualTo(P);
    // so b, taking over once the lease has ended, is the only one to serve (and fire) the partitions
    clock.addAndGet(a.keeper.marginMs());
    Node b = node("b");
    b.round();
    b.round();
    assertThat(b.owned()).isEqualTo(P);
    assertOneOwnerEach();
  }

  @Test
  void aSecondProcessWithTheSameNodeIdNeverSharesAnEpochAndTheRefusedOneServesNothingSoNothingFiresTwice() {
    Node a1 = new Node("a");
    nodes.put("a1", a1);
    a1.round();
    assertThat(a1.owned()).isEqualTo(P);
    TimerParser parser = new TimerParser(Limits.defaults(10), true);
    int n = 100;
    for (int i = 0; i < n; i++) {
      String id = "t-" + i;
      Scheduler s = a1.local(io.tickwheel.core.coordination.Partitions.of(id, P));
      TimerSpec spec = parser.parse(new JsonObject().put("id", id).put("delayMs", LEASE * 2 + i), clock.get());
      assertThat(on(a1.ctx, () -> s.create(spec))).isInstanceOf(WriteOutcome.Created.class);
    }
    // a1 is paused past its lease; a second process started with the same id takes the id and the partitions
    clock.addAndGet(LEASE);
    Node a2 = new Node("a");
    nodes.put("a2", a2);
    a2.round();
    a2.round();
    assertThat(a2.owned()).isEqualTo(P);
    // a1 resumes: its heartbeat is refused (a2 is the live member), it serves nothing and takes nothing
    a1.round();
    assertThat(a1.keeper.idInUse()).isTrue();
    assertThat(a1.owned()).isZero();
    assertOneOwnerEach();
    for (int i = 0; i < 4; i++) {
      step(a1.keeper.periodMs(), a1, a2);
      a1.drainAll();
      a2.drainAll();
      assertThat(a1.owned()).isZero();
      assertThat(a2.owned()).isEqualTo(P);
      assertOneOwnerEach();
    }
    for (int i = 0; i < 8; i++) {
      step(a1.keeper.periodMs(), a1, a2);
      a1.drainAll();
      a2.drainAll();
    }
    Map<String, Integer> times = new HashMap<>();
    a1.fired.forEach(f -> times.merge(f.id(), 1, Integer::sum));
    a2.fired.forEach(f -> times.merge(f.id(), 1, Integer::sum));
    assertThat(times).hasSize(n);
    assertThat(times.values()).containsOnly(1);
    assertThat(a1.fired).isEmpty();
    // a2 leaves (SIGTERM): a1's heartbeat is accepted again and it takes the partitions
    a2.shutdown();
    a1.round();
    a1.round();
    assertThat(a1.keeper.idInUse()).isFalse();
    assertThat(a1.owned()).isEqualTo(P);
  }

  @Test
  void claimRefusesANodeIdWhoseOtherProcessHeartbeatsAndWaitsOutTheRecordOfOneThatIsGone() {
    Node a1 = new Node("a");
    nodes.put("a1", a1);
    a1.round();
    // a second process with the id: its first heartbeat is refused (answered at once by the memory coordinator)
    Node a2 = new Node("a");
    Future<Void> refused = on(a2.ctx, () -> Future.succeededFuture(a2.keeper.claim()));
    clock.addAndGet(a1.keeper.periodMs());
    a1.round();                                   // a1 is alive: its heartbeat moves on before a2 tries again
    assertThatThrownBy(() -> TestVertx.await(refused)).isInstanceOfSatisfying(NodeIdInUseException.class,
        e -> assertThat(e.address()).isEqualTo("http://a"));
    assertThat(a1.owned()).isEqualTo(P);
    // a1 is killed (no leave): a third process with the id waits until a1's membership has expired, then starts
    Node a3 = new Node("a");
    Future<Void> claimed = on(a3.ctx, () -> Future.succeededFuture(a3.keeper.claim()));
    assertThat(claimed.isComplete()).as("waiting for the old record to end").isFalse();
    clock.addAndGet(LEASE);
    TestVertx.await(claimed);
    assertThat(TestVertx.await(coord.members())).extracting(m -> m.nodeId()).containsExactly("a");
    nodes.put("a3", a3);
    a3.round();
    a3.round();
    assertThat(a3.owned()).isEqualTo(P);
  }

  @Test
  void aRenewalAnsweredAfterTheLocalDeadlineIsNotTrusted() {
    Node a = node("a");
    a.round();
    // the next round starts after the deadline (the node was paused before it could check): it stops the partitions
    clock.addAndGet(LEASE - a.keeper.marginMs());
    a.round();
    assertThat(a.metrics.lostCount()).isEqualTo(P);
    // and takes them again with new epochs in the same round, once stopped and released
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    assertOneOwnerEach();
  }

  @Test
  void aWriteRefusedAsFencedStopsThePartitionAtOnceAndAnswersARefusal() {
    Node a = node("a");
    a.round();
    int p = 3;
    Scheduler s = a.local(p);
    // a is paused past its lease without noticing; b takes the partition
    clock.addAndGet(LEASE);
    Node b = node("b");
    b.round();
    b.round();
    assertThat(lease(p).nodeId()).isEqualTo("b");
    TimerParser parser = new TimerParser(Limits.defaults(10), true);
    TimerSpec spec = parser.parse(new JsonObject().put("id", "x").put("delayMs", 1000), clock.get());
    WriteOutcome o = on(a.ctx, () -> s.create(spec));
    assertThat(o).isInstanceOf(Refusal.class);
    assertThat(a.local(p)).isNull();
    assertThat(a.metrics.fencedWrites()).isEqualTo(1);
  }

  @Test
  void timersFireExactlyOnceAcrossTheDeathOfTheirOwnerAndNeverEarly() {
    Node a = node("a");
    Node b = node("b");
    a.round();
    b.round();
    long period = a.keeper.periodMs();
    settle(a, b);
    TimerParser parser = new TimerParser(Limits.defaults(10), true);
    int n = 200;
    for (int i = 0; i < n; i++) {
      String id = "t-" + i;
      int p = io.tickwheel.core.coordination.Partitions.of(id, P);
      Node owner = a.local(p) != null ? a : b;
      TimerSpec spec = parser.parse(new JsonObject().put("id", id).put("delayMs", 1000 + i * 20), clock.get());
      Scheduler s = owner.local(p);
      assertThat(s).as("partition %d is served", p).isNotNull();
      assertThat(on(owner.ctx, () -> s.create(spec))).isInstanceOf(WriteOutcome.Created.class);
    }
    long created = clock.get();
    step(2000, a, b);
    a.drainAll();
    b.drainAll();
    // b dies; a takes its partitions after the lease and fires what was due meanwhile
    for (long t = 0; t < LEASE + 2 * period; t += period) {
      step(period, a);
      a.drainAll();
    }
    assertThat(a.owned()).isEqualTo(P);
    step(5000, a);
    a.drainAll();
    Map<String, Integer> times = new HashMap<>();
    List<Firing> all = new ArrayList<>(a.fired);
    all.addAll(b.fired);
    for (Firing f : all) {
      times.merge(f.id(), 1, Integer::sum);
      assertThat(f.firedAt()).isGreaterThanOrEqualTo(f.dueAt());
      assertThat(f.dueAt()).isGreaterThanOrEqualTo(created + 1000);
    }
    assertThat(times).hasSize(n);
    assertThat(times.values()).containsOnly(1);
  }

  @Test
  void noPartitionIsEverServedByTwoNodesUnderRandomJoinsDeathsPausesAndLeaves() {
    Random rnd = new Random(42);
    String[] ids = {"a", "b", "c", "d"};
    Map<String, Boolean> alive = new HashMap<>();
    for (String id : ids) {
      node(id);
      alive.put(id, true);
    }
    for (int stepNo = 0; stepNo < 400; stepNo++) {
      clock.addAndGet(rnd.nextInt(2000));
      Node n = nodes.get(ids[rnd.nextInt(ids.length)]);
      int action = rnd.nextInt(10);
      if (action < 6 && alive.get(n.id)) {
        n.round();                               // alive and on time
      } else if (action < 8) {
        n.checkDeadlines();                      // a paused node's watchdog wakes first
      } else if (action == 8 && alive.get(n.id)) {
        alive.put(n.id, false);                  // paused / dead: no rounds for a while
      } else {
        alive.put(n.id, true);
      }
      assertOneOwnerEach();
    }
  }

  @Test
  void shutdownHandsEveryPartitionOverAndLeavesSoTheOthersTakeThemAtOnce() {
    Node a = node("a");
    Node b = node("b");
    a.round();
    b.round();
    long period = a.keeper.periodMs();
    settle(a, b);
    assertThat(b.owned()).isPositive();
    // each broadcast with the members as it was sent: the others' rounds count b until it has left
    List<String> heard = Collections.synchronizedList(new ArrayList<>());
    coord.onBroadcast(msg -> heard.add(msg + " " + TestVertx.await(coord.members()).stream()
        .map(m -> m.nodeId()).sorted().toList()));
    b.shutdown();
    assertThat(b.owned()).isZero();
    assertThat(TestVertx.await(coord.members())).extracting(m -> m.nodeId()).containsExactly("a");
    assertThat(heard).as("a hint per partition handed over, then one once b has left").hasSizeGreaterThan(1)
        .last().isEqualTo("m [a]");
    a.round();
    a.round();
    assertThat(a.owned()).isEqualTo(P);                // no wait for a lease to end
    assertOneOwnerEach();
  }

  @Test
  void aHandOverReleasesAPartitionOnlyOnceItsWiringSettledSoTheNewOwnerReadsWhatWasInFlight() {
    Node a = node("a");
    Node b = node("b");
    a.round();
    b.round();
    settle(a, b);
    int ofB = b.owned();
    assertThat(ofB).isPositive();
    Promise<Void> gate = Promise.promise();
    b.settleGate = gate;
    Future<Void> left = on(b.ctx, () -> Future.succeededFuture(b.keeper.shutdown()));
    // b stopped serving its share and waits for it to settle: the leases are still b's, a takes none of them
    assertThat(b.owned()).isZero();
    org.awaitility.Awaitility.await("b's partitions settling").atMost(java.time.Duration.ofSeconds(10))
        .until(() -> b.settling.size() == ofB);
    a.round();
    a.round();
    assertThat(left.isComplete()).isFalse();
    assertThat(a.owned()).isEqualTo(P - ofB);
    for (int p : List.copyOf(b.settling)) {
      assertThat(lease(p).nodeId()).as("partition %d", p).isEqualTo("b");
    }
    on(b.ctx, () -> {
      gate.complete();
      return left;
    });
    a.round();
    a.round();
    assertThat(a.owned()).isEqualTo(P);
    assertOneOwnerEach();
  }
}
