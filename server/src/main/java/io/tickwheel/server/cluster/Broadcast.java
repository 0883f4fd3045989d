package io.tickwheel.server.cluster;

/**
 * A message one node broadcasts to every node of the cluster, through the coordinator's pub/sub
 * ({@code ClusterCoordinator.broadcast} / {@code onBroadcast}; Redis pub/sub in production). Broadcasts may be lost:
 * each is a hint that saves a wait or a read, never the only way a node learns something. Written and read by
 * {@link BroadcastCodec}. Immutable.
 */
public sealed interface Broadcast {

  /** A partition changed hands: every node runs its lease round shortly (rather than on its next period). */
  record OwnershipChanged() implements Broadcast {}

  /** The cluster's paused topics changed: every node re-reads the set. */
  record PausedTopicsChanged() implements Broadcast {}

  /** Partition {@code partition}'s owner recorded firings up to {@code lastSeq}: read its log past what you have. */
  record FiringsRecorded(int partition, long lastSeq) implements Broadcast {}

  /**
   * Partition {@code partition}'s owner recorded the firings {@code firstSeq..lastSeq} (consecutive): they are carried
   * as the codec wrote them ({@code encodedFirings}; read them with {@link BroadcastCodec#firings(Firings)}), so a
   * receiver that does not publish firings never decodes them.
   */
  record Firings(int partition, long firstSeq, long lastSeq, String encodedFirings) implements Broadcast {}

  /**
   * Node {@code nodeId}, reachable at {@code address}, wants the firings of {@code topics} pushed to it (its
   * subscribers' topics; {@code all}: every topic; neither: none, it wants only the positions). {@code version}
   * grows with every change of the set, so an owner tags what it pushes with the version it filtered by. Sent on
   * every change and periodically (it may be lost, and a node that starts learns the others' from it).
   */
  record Interest(String nodeId, String address, long version, boolean all, java.util.List<String> topics)
      implements Broadcast {
    public Interest {
      topics = java.util.List.copyOf(topics);
    }
  }
}
