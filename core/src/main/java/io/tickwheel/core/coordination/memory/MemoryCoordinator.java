package io.tickwheel.core.coordination.memory;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.coordination.Holder;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A {@link ClusterCoordinator} in memory: the shared state of several nodes running in one JVM (tests, the in-process
 * multi-node suite), with the same semantics as the Redis coordinator, on an injected clock (the "coordinator's clock",
 * so lease expiry is exact under a manual clock). Each partition's data is a {@link MemoryTimerStore}; the fence is
 * checked under this object's lock in the same critical section as the write, so it is atomic like the Redis script.
 *
 * <p>Thread safe (one lock). Broadcasts are delivered to every handler on the context that registered it (or at once
 * on the calling thread for a handler registered outside a context).
 */
public final class MemoryCoordinator implements ClusterCoordinator {

  private final LongSupplier clock;
  private final int partitionsHint;
  private Integer partitions;
  private final TreeMap<String, Member> members = new TreeMap<>();
  private final TreeMap<String, Long> memberExpiry = new TreeMap<>();
  /** Node id → the instance ({@link Holder}) of its member. */
  private final TreeMap<String, String> memberInstance = new TreeMap<>();
  /** By partition: the lease, its {@code nodeId} the whole holder ({@code nodeId/instance}). */
  private Lease[] leases;
  private long[] lastEpoch;
  private MemoryTimerStore[] stores;
  private final TreeSet<String> pausedTopics = new TreeSet<>();
  private final CopyOnWriteArrayList<Handler> handlers = new CopyOnWriteArrayList<>();
  private boolean closed;
  private String webhookSecret;

  private record Handler(Context context, Consumer<String> consumer) {}

  /**
   * @param clock the coordinator's clock, epoch ms
   * @param partitions the partition count the first {@link #join} must ask for (the cluster's), or 0 to take the
   *                   first join's
   */
  public MemoryCoordinator(LongSupplier clock, int partitions) {
    this.clock = clock;
    this.partitionsHint = partitions;
  }

  @Override
  public synchronized Future<Integer> join(String nodeId, String address, int p) {
    if (closed) {
      return closedFailure();
    }
    if (partitions == null) {
      if (partitionsHint != 0 && partitionsHint != p) {
        return Future.failedFuture(new ClusterConfigException(mismatch(partitionsHint, p)));
      }
      partitions = p;
      leases = new Lease[p];
      lastEpoch = new long[p];
      stores = new MemoryTimerStore[p];
      for (int i = 0; i < p; i++) {
        leases[i] = new Lease(i, null, 0, 0);
        stores[i] = new MemoryTimerStore();
      }
    } else if (partitions != p) {
      return Future.failedFuture(new ClusterConfigException(mismatch(partitions, p)));
    }
    return Future.succeededFuture(partitions);
  }

  private static String mismatch(int cluster, int asked) {
    return "this cluster has " + cluster + " partitions; the node was started with --partitions " + asked
        + " (start it with --partitions " + cluster + ")";
  }

  @Override
  public synchronized Future<List<Member>> heartbeat(String holder, String address, long ttlMs) {
    if (closed) {
      return closedFailure();
    }
    long now = clock.getAsLong();
    String nodeId = Holder.nodeId(holder);
    String instance = Holder.instance(holder);
    Member current = members.get(nodeId);
    if (current != null && memberExpiry.get(nodeId) > now
        && Holder.conflicts(memberInstance.get(nodeId), instance)) {
      return Future.failedFuture(new NodeIdInUseException(nodeId, current.address(), current.lastSeenAt()));
    }
    members.put(nodeId, new Member(nodeId, address, now));
    memberExpiry.put(nodeId, now + ttlMs);
    memberInstance.put(nodeId, instance);
    return Future.succeededFuture(live(now));
  }

  @Override
  public synchronized Future<List<Member>> members() {
    if (closed) {
      return closedFailure();
    }
    return Future.succeededFuture(live(clock.getAsLong()));
  }

  private List<Member> live(long now) {
    List<Member> out = new ArrayList<>();
    for (Member m : members.values()) {
      if (memberExpiry.get(m.nodeId()) > now) {
        out.add(m);
      }
    }
    return out;
  }

  @Override
  public synchronized Future<Void> leave(String holder) {
    String nodeId = Holder.nodeId(holder);
    if (!Holder.conflicts(memberInstance.get(nodeId), Holder.instance(holder))) {
      members.remove(nodeId);
      memberExpiry.remove(nodeId);
      memberInstance.remove(nodeId);
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Long> now() {
    return Future.succeededFuture(clock.getAsLong());
  }

  @Override
  public synchronized Future<List<Lease>> leases() {
    if (closed) {
      return closedFailure();
    }
    if (leases == null) {
      return Future.succeededFuture(List.of());
    }
    List<Lease> out = new ArrayList<>(leases.length);
    for (Lease l : leases) {
      out.add(shown(l));
    }
    return Future.succeededFuture(out);
  }

  /** {@code l} as callers see it: its node id without the holder's instance. */
  private static Lease shown(Lease l) {
    return l == null || l.nodeId() == null ? l : new Lease(l.partition(), Holder.nodeId(l.nodeId()), l.epoch(),
        l.expiresAt());
  }

  @Override
  public synchronized Future<Lease> acquire(int p, String holder, long leaseMs) {
    if (closed) {
      return closedFailure();
    }
    checkPartition(p);
    long now = clock.getAsLong();
    Lease l = leases[p];
    boolean mine = holder.equals(l.nodeId()) && l.expiresAt() > now;
    if (!mine && l.nodeId() != null && l.expiresAt() > now) {
      return Future.succeededFuture(null);
    }
    long epoch = mine ? l.epoch() : Math.max(lastEpoch[p] + 1, now);
    lastEpoch[p] = epoch;
    leases[p] = new Lease(p, holder, epoch, now + leaseMs);
    return Future.succeededFuture(shown(leases[p]));
  }

  @Override
  public synchronized Future<List<Lease>> renew(String holder, int[] ps, long[] epochs, long leaseMs) {
    if (closed) {
      return closedFailure();
    }
    long now = clock.getAsLong();
    List<Lease> out = new ArrayList<>(ps.length);
    for (int i = 0; i < ps.length; i++) {
      checkPartition(ps[i]);
      Lease l = leases[ps[i]];
      if (holder.equals(l.nodeId()) && l.epoch() == epochs[i] && l.expiresAt() > now) {
        leases[ps[i]] = new Lease(ps[i], holder, l.epoch(), now + leaseMs);
        out.add(shown(leases[ps[i]]));
      } else {
        out.add(null);
      }
    }
    return Future.succeededFuture(out);
  }

  @Override
  public synchronized Future<Void> release(int p, String holder, long epoch) {
    checkPartition(p);
    Lease l = leases[p];
    if (holder.equals(l.nodeId()) && l.epoch() == epoch) {
      leases[p] = new Lease(p, holder, epoch, 0);
    }
    return Future.succeededFuture();
  }

  /** Whether a write of partition {@code p} with {@code epoch} may apply now; called under this object's lock. */
  synchronized boolean fenceHolds(int p, long epoch) {
    Lease l = leases[p];
    return l.epoch() == epoch && l.expiresAt() > clock.getAsLong();
  }

  private void checkPartition(int p) {
    if (partitions == null) {
      throw new IllegalStateException("join first");
    }
    if (p < 0 || p >= partitions) {
      throw new IllegalArgumentException("partition must be in 0.." + (partitions - 1) + ", was " + p);
    }
  }

  @Override
  public synchronized TimerStore partitionStore(int p, long epoch) {
    checkPartition(p);
    return new FencedMemoryStore(this, stores[p], p, epoch, false);
  }

  @Override
  public synchronized TimerStore partitionReader(int p) {
    checkPartition(p);
    return new FencedMemoryStore(this, stores[p], p, -1, true);
  }

  @Override
  public synchronized Future<long[]> lastSeqs() {
    if (closed) {
      return closedFailure();
    }
    if (stores == null) {
      return Future.failedFuture(new IllegalStateException("lastSeqs before join"));
    }
    long[] out = new long[stores.length];
    for (int p = 0; p < stores.length; p++) {
      Future<Long> seq = stores[p].lastSeq();
      if (seq.failed()) {
        return Future.failedFuture(seq.cause());
      }
      out[p] = seq.result();
    }
    return Future.succeededFuture(out);
  }

  @Override
  public Future<Void> broadcast(String message) {
    for (Handler h : handlers) {
      if (h.context() != null) {
        h.context().runOnContext(v -> h.consumer().accept(message));
      } else {
        h.consumer().accept(message);
      }
    }
    return Future.succeededFuture();
  }

  @Override
  public void onBroadcast(Consumer<String> handler) {
    handlers.add(new Handler(Vertx.currentContext(), handler));
  }

  @Override
  public synchronized Future<Void> setTopicPaused(String topic, boolean paused) {
    if (paused) {
      pausedTopics.add(topic);
    } else {
      pausedTopics.remove(topic);
    }
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Set<String>> pausedTopics() {
    return Future.succeededFuture(Set.copyOf(pausedTopics));
  }

  @Override
  public synchronized Future<String> webhookSecret(String generatedIfAbsent) {
    if (closed) {
      return closedFailure();
    }
    if (webhookSecret == null) {
      webhookSecret = generatedIfAbsent;
    }
    return Future.succeededFuture(webhookSecret);
  }

  @Override
  public synchronized Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }

  private static <T> Future<T> closedFailure() {
    return Future.failedFuture(new StoreClosedException("memory coordinator closed"));
  }
}
