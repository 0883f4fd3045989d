package io.tickwheel.server.cluster;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A single node's {@link Ownership}: one partition (0), the whole store, held for good (no lease, no fence, epoch 0),
 * served by one scheduler the {@link PartitionFactory} opens at construction and recovers at {@link #start()}. Every
 * call is local: nothing is ever forwarded. Owner context only.
 */
public final class SoleOwner implements Ownership {

  /** The single node's node id in {@code /v1/cluster}. */
  public static final String NODE_ID = "local";

  private final PartitionFactory factory;
  private final Supplier<String> address;
  private final LongSupplier clock;
  private final Scheduler scheduler;
  private boolean started;

  /**
   * @param store   the node's store (the one partition's): {@code factory} opens its scheduler now
   * @param address the node's URL, known once it listens
   * @param clock   epoch ms
   */
  public SoleOwner(TimerStore store, PartitionFactory factory, Supplier<String> address, LongSupplier clock) {
    this.factory = factory;
    this.address = address;
    this.clock = clock;
    this.scheduler = factory.open(0, store);
  }

  /** Recovers the one partition; completes once it serves. Call once. */
  @Override
  public Future<Void> start() {
    if (started) {
      throw new IllegalStateException("already started");
    }
    started = true;
    return factory.recover(0, scheduler).map(n -> {
      factory.recovered(0, scheduler);
      return null;
    });
  }

  /** The one scheduler. */
  public Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public boolean ready() {
    return scheduler.ready();
  }

  @Override
  public List<Scheduler> schedulers() {
    return List.of(scheduler);
  }

  @Override
  public int owned() {
    return 1;
  }

  @Override
  public int partitions() {
    return 1;
  }

  @Override
  public int partitionOf(String id) {
    return 0;
  }

  @Override
  public String localNodeId() {
    return NODE_ID;
  }

  @Override
  public Scheduler local(int p) {
    return p == 0 ? scheduler : null;
  }

  @Override
  public String ownerAddress(int p) {
    return p == 0 ? address.get() : null;
  }

  /** Itself, owning partition 0 (epoch 0), seen now. */
  @Override
  public JsonObject describe() {
    JsonObject node = new JsonObject().put("id", NODE_ID).put("address", address.get()).put("partitions", 1)
        .put("lastSeenAt", clock.getAsLong());
    return new JsonObject().put("nodeId", NODE_ID).put("partitions", 1)
        .put("nodes", new JsonArray().add(node))
        .put("owners", new JsonArray().add(new JsonObject().put("partition", 0).put("node", NODE_ID).put("epoch", 0)));
  }

  /** Stops the scheduler (waiting for a firing batch in flight); the store stays open (the node closes it). */
  @Override
  public Future<Void> shutdown() {
    return scheduler.stop().onComplete(v -> factory.closed(0, scheduler));
  }
}
