package io.tickwheel.core.coordination;

/**
 * A heartbeat was refused: another live process is the member with this node id (its record has not expired and is
 * of another {@link Holder instance}). At start the node refuses to run (exit code 2, as for other configuration
 * errors); a running node that gets it (it was paused past its membership and another process took the id) hands its
 * partitions over and serves none until the id is free again.
 */
public final class NodeIdInUseException extends ClusterConfigException {
  private static final long serialVersionUID = 1L;

  private final String nodeId;
  private final String address;
  private final long lastSeenAt;

  /**
   * @param address    the other process's advertised address
   * @param lastSeenAt the coordinator's time (epoch ms) of the other process's last heartbeat
   */
  public NodeIdInUseException(String nodeId, String address, long lastSeenAt) {
    super("node id '" + nodeId + "' is in use by another live process (address " + address + ", last heartbeat at "
        + lastSeenAt + " coordinator time): give each node its own --node-id (the default, HOSTNAME-PORT, repeats"
        + " on hosts or containers with the same name and port)");
    this.nodeId = nodeId;
    this.address = address;
    this.lastSeenAt = lastSeenAt;
  }

  public String nodeId() {
    return nodeId;
  }

  /** The other process's advertised address. */
  public String address() {
    return address;
  }

  /** The coordinator's time (epoch ms) of the other process's last heartbeat. */
  public long lastSeenAt() {
    return lastSeenAt;
  }
}
