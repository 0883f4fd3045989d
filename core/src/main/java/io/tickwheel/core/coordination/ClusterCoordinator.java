package io.tickwheel.core.coordination;

import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The shared state of a cluster (membership, partition leases, the fenced per-partition stores), kept in the shared
 * store (Redis). Nodes find each other only through it. It decides nothing: each node computes who <em>should</em>
 * own a partition from {@link #members()}; the lease decides who <em>can</em> write it.
 *
 * <h2>Time</h2>
 * Every time here (lastSeenAt, expiresAt, {@link #now()}) is the coordinator's own clock (Redis {@code TIME}), never
 * a node's, so nodes with skewed clocks agree on who is alive and whose lease ended.
 *
 * <h2>Holders</h2>
 * Memberships and leases belong to a {@link Holder}: {@code nodeId/instance}, the node id and its process's nonce
 * (a plain node id is a holder with no instance). A lease is renewed, released or re-acquired with its epoch only by
 * the same holder, so two processes with one node id never share an epoch. A heartbeat of a holder whose node id is
 * the live member of another instance is refused ({@link NodeIdInUseException}). {@link Member#nodeId()} and
 * {@link Lease#nodeId()} are node ids, without the instance.
 *
 * <h2>Thread model</h2>
 * Thread safe; every call returns at once and completes later (on the caller's context when called on one).
 * Failures are {@link io.tickwheel.core.store.StoreException}s ({@code StoreUnavailableException} when the shared
 * store cannot be reached: the node must then assume it lost its leases when they end).
 */
public interface ClusterCoordinator {

  /**
   * Registers this node and checks the cluster's configuration. The first node of a cluster fixes the partition
   * count; a later node with another count, a node on a store a single (non-cluster) node uses, fails with
   * {@link ClusterConfigException}. Also makes the single-node server refuse this store from then on.
   *
   * @return the cluster's partition count (equal to {@code partitions})
   */
  Future<Integer> join(String nodeId, String address, int partitions);

  /**
   * Refreshes this node's membership, which ends {@code ttlMs} after this call unless refreshed again. Fails with
   * {@link NodeIdInUseException}, changing nothing, when another instance is the live member of the node id.
   *
   * @param holder {@code nodeId/instance} ({@link Holder})
   * @return the live members (heartbeat not older than their ttl), this node included, sorted by id
   */
  Future<List<Member>> heartbeat(String holder, String address, long ttlMs);

  /** The live members, sorted by id. */
  Future<List<Member>> members();

  /**
   * Removes this node's membership at once (SIGTERM), so the others reassign its partitions without waiting; not
   * when another instance ({@link Holder}) of the node id is the member.
   */
  Future<Void> leave(String holder);

  /** The coordinator's clock, epoch ms. */
  Future<Long> now();

  /** Every partition's current lease (expired ones included; {@code nodeId} null if never leased), by partition. */
  Future<List<Lease>> leases();

  /**
   * Takes partition {@code p} for {@code holder} for {@code leaseMs}, if it is free: never leased, released, or
   * expired. If {@code holder} (the same node id and instance) already holds it, this renews it (same epoch).
   * Otherwise issues a new epoch.
   *
   * @return the lease now held by {@code holder}, or {@code null} if another holder (another node, or another
   *     process with the same node id) holds a live lease
   */
  Future<Lease> acquire(int p, String holder, long leaseMs);

  /**
   * Renews the given leases of {@code holder} (one round trip for all). A lease is renewed only if its stored holder
   * and epoch are still the given ones and it has not expired.
   *
   * @return per partition, in argument order, the renewed lease, or {@code null} where it was lost
   */
  Future<List<Lease>> renew(String holder, int[] partitions, long[] epochs, long leaseMs);

  /** Ends the lease of {@code p} now if {@code holder} holds it with {@code epoch} (hand-over); otherwise nothing. */
  Future<Void> release(int p, String holder, long epoch);

  /**
   * The store of partition {@code p} for its lease holder: every write (put, update, remove, record firings, trim)
   * is checked atomically, in the store, against the partition's lease: it applies only while {@code epoch} is the
   * current epoch and the lease has not expired, and otherwise fails with {@link StoreFencedException} having
   * changed nothing. Reads are not fenced. The firing log and its seq are per partition. Closing it does not close
   * the coordinator's connection.
   */
  TimerStore partitionStore(int p, long epoch);

  /** Partition {@code p}'s store for reading only (any node, owner or not): every write fails. */
  TimerStore partitionReader(int p);

  /**
   * Every partition's last firing seq (as {@link io.tickwheel.core.store.FiringLog#lastSeq} of its
   * {@link #partitionReader}: 0 for a log never written), indexed by partition, read together: one round trip on a
   * standalone Redis, so a node that tails every log can find the partitions it is behind in without reading each.
   * Each value is at least what its log held when the call was made (not one snapshot across partitions). Unfenced.
   * Fails with {@link IllegalStateException} before {@link #join}.
   */
  Future<long[]> lastSeqs();

  /**
   * Sends {@code message} to every node's {@link #onBroadcast} handler, this node's included (Redis pub/sub). A hint
   * only: it may be lost (a node disconnected at that moment gets nothing), so what it announces must also be
   * readable from the store (e.g. {@code "f <partition> <seq>"}: partition's firing log grew; the log is the truth).
   */
  Future<Void> broadcast(String message);

  /** Sets the handler of broadcasts from every node; called on the context that set it. */
  void onBroadcast(Consumer<String> handler);

  /** Pauses or resumes {@code topic} for the whole cluster (durable; every partition store sees the same set). */
  Future<Void> setTopicPaused(String topic, boolean paused);

  /** The cluster's paused topics. */
  Future<Set<String>> pausedTopics();

  /**
   * The cluster's webhook secret: stores {@code generatedIfAbsent} if the cluster has none yet and returns the stored
   * one, so every node signs with the same secret (a partition store's {@code webhookSecret} is this one).
   */
  Future<String> webhookSecret(String generatedIfAbsent);

  /** Closes the connection(s) to the shared store. */
  Future<Void> close();
}
