package io.tickwheel.core.coordination;

/**
 * A node may not join: the shared store belongs to a cluster with another partition count, or to a single node
 * (started without {@code --cluster}), or the reverse, or another live process runs with its node id
 * ({@link NodeIdInUseException}). The message says which and what to change.
 */
public class ClusterConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ClusterConfigException(String message) {
    super(message);
  }
}
