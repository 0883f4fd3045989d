package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.Future;
import java.util.List;

/**
 * The firing log(s) a {@link FiringHub} serves: one per partition, each with strictly increasing seqs. The hub reads
 * them to replay a resuming subscriber; live firings come in through {@link FiringHub#publish(int, Firing)}: this
 * node's own through its {@link FiringSink} right after recording, on a single node straight from the sink, in a
 * cluster through the feed, which also publishes what the other nodes broadcast (see {@link ClusterFiringFeed}).
 *
 * <p>Every method is called on the hub's owner context, and every future completes there.
 */
public interface FiringFeed {

  /** How many partitions (logs): 1 on a single node. */
  int partitions();

  /**
   * Whether this is a cluster's feed: its firings carry {@code partition}, its cursors are cluster cursors, and
   * {@code from} takes no integer seq ({@link FiringCursor}).
   */
  boolean clustered();

  /** The last seq of every partition's log now (index = partition); a partition never written to is 0. */
  Future<long[]> ends();

  /** Up to {@code limit} firings of {@code partition} with a seq above {@code afterSeq}, in seq order. */
  Future<List<Firing>> read(int partition, long afterSeq, int limit);

  /** Called once by the hub it serves, on the hub's owner context, once it is ready. */
  default void attach(FiringHub hub) {}

  /**
   * A subscriber resumed from a position the hub has not published yet (a cursor from another node whose feed is
   * ahead): read the logs again soon rather than at the next periodic catch-up. A hint; may do nothing.
   */
  default void catchUp() {}

  /**
   * The topics the hub's subscribers want changed ({@link FiringHub#wantsAllTopics}, {@link FiringHub#wantedTopics}):
   * a cluster feed tells the other nodes. Owner context; may do nothing.
   */
  default void interestChanged() {}

  /** Stops whatever the feed runs (timers, reads). Owner context. */
  default void close() {}
}
