package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.ClusterCoordinator;
import io.tickwheel.core.coordination.Holder;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.store.redis.coordination.impl.BroadcastSubscriber;
import io.tickwheel.store.redis.impl.RedisKeys;
import io.tickwheel.store.redis.impl.RedisLink;
import io.tickwheel.store.redis.impl.Script;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The {@link ClusterCoordinator} on Redis (standalone or Redis Cluster): membership, partition leases with fencing
 * epochs, the fenced partition stores, topic pauses and broadcasts, all through one shared pipelined connection
 * ({@link RedisLink}; 256 partition stores do not open 256 connections) plus one subscriber connection for
 * broadcasts.
 *
 * <h2>Keys</h2> (PREFIX = {@link RedisStoreOptions#getKeyPrefix()}, default {@code tw})
 * <ul>
 *   <li>{@code {PREFIX}:cluster} — hash: {@code mode} = cluster, {@code partitions}, {@code format} (data format,
 *       {@link RedisTimerStore#DATA_FORMAT}). A single node's {@code RedisTimerStore.open} refuses a prefix that has
 *       it; {@link #join} refuses a prefix with single-node data ({@code {PREFIX}:meta} or {@code {PREFIX}:timers}).</li>
 *   <li>{@code {PREFIX}:members} — hash: node id → {@code "expiresAt lastSeenAt address"} (Redis time, ms).</li>
 *   <li>{@code {PREFIX}:member-instances} — hash: node id → the instance nonce ({@link Holder}) of the process that
 *       is the member: a heartbeat of another instance is refused while the member is live.</li>
 *   <li>{@code {PREFIX}:paused-topics} — set of the cluster's paused topics.</li>
 *   <li>{@code {PREFIX}:bus} — the pub/sub channel of {@link #broadcast}.</li>
 *   <li>Partition P: its store's keys ({@code timers}, {@code due}, {@code seq}, {@code log}, see
 *       {@link RedisTimerStore}) and its lease hash {@code lease} (node = the holder {@code nodeId/instance},
 *       epoch, exp) under the hash tag
 *       {@code {PREFIX:p:P}}: one slot, so a Lua script checks the lease and writes atomically on a Cluster too, and
 *       the partitions spread over the Cluster's masters.</li>
 * </ul>
 *
 * <h2>Time and epochs</h2>
 * Every time is Redis {@code TIME} in ms, read inside the scripts. A new epoch is
 * {@code max(stored epoch + 1, TIME ms)}, so it is never issued twice, even after a failover lost the lease hash,
 * as long as the new master's clock is not behind the old one's by more than the failover took (NTP-synced hosts).
 * Leases, membership and fences expire by that same clock, so node clocks do not matter.
 *
 * <h2>Calls</h2>
 * {@link #renew} is one script call for all the leases on a standalone Redis (half the redis-server CPU of one
 * {@code lease_renew.lua} call per lease: {@code bench/redis/coordinator_cost.py}); on a Cluster (the partitions'
 * keys are in different slots, so one script could not cover them) it sends one call per partition, pipelined on the
 * one connection: one round trip for all. {@link #leases} sends one {@code HMGET} per partition, pipelined, everywhere:
 * the same reads inside one script cost Redis twice as much.
 * Failures as {@link RedisTimerStore}'s: {@code StoreUnavailableException} while Redis is unreachable (the link
 * reconnects by itself), {@code StoreFaultException} for other errors, {@link ClusterConfigException} from
 * {@link #join} and {@link #heartbeat} ({@link NodeIdInUseException}).
 *
 * <p>Thread safe; every call returns at once and completes on the caller's context.
 */
public final class RedisClusterCoordinator implements ClusterCoordinator {

  private final RedisLink link;
  private final String prefix;
  private final String metaKey;
  private final String membersKey;
  private final String instancesKey;
  private final String pausedTopicsKey;
  private final String channel;
  private final String webhookSecretKey;
  private final BroadcastSubscriber subscriber;
  private final CopyOnWriteArrayList<Handler> handlers = new CopyOnWriteArrayList<>();
  private volatile int partitions;
  /** Whether the link is to a Redis Cluster (the partitions' keys then live in different slots). */
  private final boolean redisCluster;

  private record Handler(Context context, Consumer<String> consumer) {}

  private RedisClusterCoordinator(Vertx vertx, RedisLink link, RedisStoreOptions opts) {
    this.link = link;
    this.prefix = opts.getKeyPrefix();
    String tag = "{" + prefix + "}:";
    this.metaKey = RedisTimerStore.clusterMetaKey(prefix);
    this.membersKey = tag + "members";
    this.instancesKey = tag + "member-instances";
    this.pausedTopicsKey = tag + "paused-topics";
    this.channel = tag + "bus";
    this.webhookSecretKey = tag + "webhook-secret";
    this.subscriber = new BroadcastSubscriber(vertx, opts, channel, this::deliver);
    this.redisCluster = opts.isCluster();
  }

  /**
   * Connects to Redis as {@code options} say (a copy is taken; {@link RedisStoreOptions#isCluster()} for a Redis
   * Cluster) and subscribes to the cluster's channel. Then call {@link #join}.
   *
   * @return the coordinator; failed with {@code StoreUnavailableException} when Redis cannot be reached
   * @throws IllegalArgumentException when {@link RedisStoreOptions#validate()} refuses the options
   */
  public static Future<RedisClusterCoordinator> open(Vertx vertx, RedisStoreOptions options) {
    Objects.requireNonNull(vertx, "vertx");
    RedisStoreOptions opts = new RedisStoreOptions(Objects.requireNonNull(options, "options"));
    return RedisLink.open(vertx, opts, l -> Future.succeededFuture()).compose(link -> {
      RedisClusterCoordinator c = new RedisClusterCoordinator(vertx, link, opts);
      return c.subscriber.start().map(c).recover(e -> link.close().transform(x -> Future.failedFuture(e)));
    });
  }

  /** The hash tag of partition {@code p}'s keys, e.g. {@code {tw:p:17}}. */
  public String partitionTag(int p) {
    return RedisTimerStore.partitionTag(prefix, p);
  }

  private String leaseKey(int p) {
    return partitionTag(p) + ":lease";
  }

  @Override
  public Future<Integer> join(String nodeId, String address, int partitions) {
    Objects.requireNonNull(nodeId, "nodeId");
    if (partitions < 1 || partitions > Partitions.MAX) {
      return Future.failedFuture(new IllegalArgumentException(
          "partitions must be in 1.." + Partitions.MAX + ", was " + partitions));
    }
    List<String> keys = List.of(metaKey, "{" + prefix + "}:meta", "{" + prefix + "}:timers");
    return link.eval(Script.JOIN, keys, List.of(Integer.toString(partitions), RedisTimerStore.DATA_FORMAT),
        r -> List.of(r.get(0).toString(), r.get(1).toString())).compose(r -> {
          String outcome = r.get(0);
          String value = r.get(1);
          return switch (outcome) {
            case "ok" -> {
              this.partitions = partitions;
              yield Future.succeededFuture(partitions);
            }
            case "single" -> Future.failedFuture(new ClusterConfigException(link.where() + " holds the data of a"
                + " single tickwheel node under {" + prefix + "} (started without --cluster): a cluster cannot use"
                + " it; stop that node and give the cluster another Redis or key prefix, or start this node without"
                + " --cluster"));
            case "partitions" -> Future.failedFuture(new ClusterConfigException("this cluster has " + value
                + " partitions; the node was started with --partitions " + partitions + " (start it with --partitions "
                + value + ")"));
            case "format" -> Future.failedFuture(new ClusterConfigException("the cluster on " + link.where()
                + " has data format " + value + "; this version writes format " + RedisTimerStore.DATA_FORMAT));
            default -> Future.failedFuture(new StoreFaultException("join answered " + outcome, null, false));
          };
        });
  }

  @Override
  public Future<List<Member>> heartbeat(String holder, String address, long ttlMs) {
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(address, "address");
    if (ttlMs < 1) {
      return Future.failedFuture(new IllegalArgumentException("ttlMs must be >= 1, was " + ttlMs));
    }
    String nodeId = Holder.nodeId(holder);
    if (nodeId.isEmpty() || holder.indexOf(' ') >= 0) {
      return Future.failedFuture(new IllegalArgumentException("nodeId must be non-empty without spaces, was '"
          + holder + "'"));
    }
    return link.eval(Script.HEARTBEAT, List.of(membersKey, instancesKey),
        List.of(nodeId, address, Long.toString(ttlMs), Holder.instance(holder)),
        r -> r.size() == 3 && "in-use".equals(r.get(0).toString())
            ? Future.<List<Member>>failedFuture(
                new NodeIdInUseException(nodeId, r.get(1).toString(), r.get(2).toLong()))
            : Future.succeededFuture(members(r)))
        .compose(f -> f);
  }

  @Override
  public Future<List<Member>> members() {
    return link.eval(Script.MEMBERS, List.of(membersKey, instancesKey), List.of(), RedisClusterCoordinator::members);
  }

  private static List<Member> members(Response r) {
    List<Member> out = new ArrayList<>();
    for (int i = 1; i + 2 < r.size(); i += 3) {
      out.add(new Member(r.get(i).toString(), r.get(i + 2).toString(), r.get(i + 1).toLong()));
    }
    out.sort((a, b) -> a.nodeId().compareTo(b.nodeId()));
    return out;
  }

  @Override
  public Future<Void> leave(String holder) {
    return link.eval(Script.LEAVE, List.of(membersKey, instancesKey),
        List.of(Holder.nodeId(holder), Holder.instance(holder)), r -> null);
  }

  @Override
  public Future<Long> now() {
    return link.read(Request.cmd(Command.TIME), r -> r.get(0).toLong() * 1000 + r.get(1).toLong() / 1000);
  }

  @Override
  public Future<List<Lease>> leases() {
    int n = partitions;
    List<Future<Lease>> all = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      int part = p;
      all.add(link.read(Request.cmd(Command.HMGET).arg(leaseKey(p)).arg("node").arg("epoch").arg("exp"),
          r -> new Lease(part, r.get(0) == null ? null : Holder.nodeId(r.get(0).toString()),
              r.get(1) == null ? 0 : r.get(1).toLong(), r.get(2) == null ? 0 : r.get(2).toLong())));
    }
    return Future.all(all).map(cf -> {
      List<Lease> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(cf.resultAt(i));
      }
      return out;
    });
  }

  @Override
  public Future<Lease> acquire(int p, String holder, long leaseMs) {
    checkPartition(p);
    checkLeaseMs(leaseMs);
    String nodeId = Holder.nodeId(holder);
    return link.eval(Script.LEASE_ACQUIRE, List.of(leaseKey(p)), List.of(holder, Long.toString(leaseMs)),
        r -> r.get(0).toInteger() == 1 ? new Lease(p, nodeId, r.get(1).toLong(), r.get(2).toLong()) : null);
  }

  @Override
  public Future<List<Lease>> renew(String holder, int[] ps, long[] epochs, long leaseMs) {
    if (ps.length != epochs.length) {
      return Future.failedFuture(new IllegalArgumentException("partitions and epochs differ in length: "
          + ps.length + " vs " + epochs.length));
    }
    checkLeaseMs(leaseMs);
    String nodeId = Holder.nodeId(holder);
    if (!redisCluster && ps.length > 0) {
      List<String> keys = new ArrayList<>(ps.length);
      List<String> args = new ArrayList<>(ps.length + 2);
      args.add(holder);
      args.add(Long.toString(leaseMs));
      for (int i = 0; i < ps.length; i++) {
        checkPartition(ps[i]);
        keys.add(leaseKey(ps[i]));
        args.add(Long.toString(epochs[i]));
      }
      return link.eval(Script.LEASE_RENEW_ALL, keys, args, r -> {
        List<Lease> out = new ArrayList<>(ps.length);
        for (int i = 0; i < ps.length; i++) {
          Response e = r.get(i);
          out.add(e == null ? null : new Lease(ps[i], nodeId, epochs[i], e.toLong()));
        }
        return out;
      });
    }
    List<Future<Lease>> all = new ArrayList<>(ps.length);
    for (int i = 0; i < ps.length; i++) {
      int p = ps[i];
      long epoch = epochs[i];
      checkPartition(p);
      all.add(link.eval(Script.LEASE_RENEW, List.of(leaseKey(p)),
          List.of(holder, Long.toString(epoch), Long.toString(leaseMs)),
          r -> r == null ? null : new Lease(p, nodeId, epoch, r.toLong())));
    }
    return Future.all(all).map(cf -> {
      List<Lease> out = new ArrayList<>(ps.length);
      for (int i = 0; i < ps.length; i++) {
        out.add(cf.resultAt(i));
      }
      return out;
    });
  }

  @Override
  public Future<Void> release(int p, String holder, long epoch) {
    checkPartition(p);
    return link.eval(Script.LEASE_RELEASE, List.of(leaseKey(p)), List.of(holder, Long.toString(epoch)), r -> null);
  }

  @Override
  public TimerStore partitionStore(int p, long epoch) {
    checkPartition(p);
    return RedisTimerStore.partition(link, prefix, p, epoch, false);
  }

  @Override
  public TimerStore partitionReader(int p) {
    checkPartition(p);
    return RedisTimerStore.partition(link, prefix, p, -1, true);
  }

  /**
   * {@inheritDoc}
   *
   * <p>One {@code MGET} of every partition's seq key on a standalone Redis; on a Redis Cluster one {@code GET} per
   * partition (each in its own slot), pipelined like {@link #leases}.
   */
  @Override
  public Future<long[]> lastSeqs() {
    int n = partitions;
    if (n < 1) {
      return Future.failedFuture(new IllegalStateException("lastSeqs before join"));
    }
    if (!redisCluster) {
      Request mget = Request.cmd(Command.MGET);
      for (int p = 0; p < n; p++) {
        mget.arg(seqKey(p));
      }
      return link.read(mget, r -> {
        long[] out = new long[n];
        for (int p = 0; p < n; p++) {
          Response v = r.get(p);
          out[p] = v == null ? 0 : v.toLong();
        }
        return out;
      });
    }
    List<Future<Long>> all = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      all.add(link.read(Request.cmd(Command.GET).arg(seqKey(p)), r -> r == null ? 0L : r.toLong()));
    }
    return Future.all(all).map(cf -> {
      long[] out = new long[n];
      for (int p = 0; p < n; p++) {
        out[p] = cf.<Long>resultAt(p);
      }
      return out;
    });
  }

  private String seqKey(int p) {
    return RedisKeys.seqKey(partitionTag(p) + ":");
  }

  @Override
  public Future<Void> broadcast(String message) {
    Objects.requireNonNull(message, "message");
    return link.publishMessage(Request.cmd(Command.PUBLISH).arg(channel).arg(message), r -> null);
  }

  @Override
  public void onBroadcast(Consumer<String> handler) {
    handlers.add(new Handler(Vertx.currentContext(), Objects.requireNonNull(handler, "handler")));
  }

  private void deliver(String message) {
    for (Handler h : handlers) {
      if (h.context() != null) {
        h.context().runOnContext(v -> h.consumer().accept(message));
      } else {
        h.consumer().accept(message);
      }
    }
  }

  /** Whether the broadcast subscription is up right now (false while it reconnects). */
  public boolean subscribed() {
    return subscriber.subscribed();
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    Objects.requireNonNull(topic, "topic");
    return link.write(Request.cmd(paused ? Command.SADD : Command.SREM).arg(pausedTopicsKey).arg(topic), r -> null);
  }

  /** The same key as a single-node store's and every partition store's ({@code {tw}:webhook-secret}). */
  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    Objects.requireNonNull(generatedIfAbsent, "generatedIfAbsent");
    return link.transaction(List.of(
            Request.cmd(Command.SET).arg(webhookSecretKey).arg(generatedIfAbsent).arg("NX"),
            Request.cmd(Command.GET).arg(webhookSecretKey)),
        "webhookSecret", r -> r.get(1).toString());
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return link.read(Request.cmd(Command.SMEMBERS).arg(pausedTopicsKey), r -> {
      Set<String> out = new HashSet<>();
      if (r != null) {
        for (Response m : r) {
          out.add(m.toString());
        }
      }
      return out;
    });
  }

  @Override
  public Future<Void> close() {
    return subscriber.close().eventually(link::close);
  }

  private void checkPartition(int p) {
    int n = partitions;
    if (n == 0) {
      throw new IllegalStateException("join first");
    }
    if (p < 0 || p >= n) {
      throw new IllegalArgumentException("partition must be in 0.." + (n - 1) + ", was " + p);
    }
  }

  private static void checkLeaseMs(long leaseMs) {
    if (leaseMs < 1) {
      throw new IllegalArgumentException("leaseMs must be >= 1, was " + leaseMs);
    }
  }
}
