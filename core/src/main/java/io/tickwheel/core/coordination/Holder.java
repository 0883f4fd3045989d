package io.tickwheel.core.coordination;

import java.util.UUID;

/**
 * Who holds a lease or a membership: a node id and the nonce of the process running it, {@code nodeId/instance}.
 * Two processes started with the same node id (a copied configuration, the default {@code HOSTNAME-PORT} on two
 * containers) are two holders: a coordinator never hands one the other's lease or epoch, so the fence tells them
 * apart, and the membership refuses the second while the first is alive ({@link NodeIdInUseException}). A holder
 * without {@code /} is a node id with no instance (an older node, or a tool): it is checked against nothing.
 *
 * <p>Node ids never contain {@code /} ({@code [A-Za-z0-9._-]{1,64}}). Stateless, thread safe.
 */
public final class Holder {

  private Holder() {}

  /** {@code nodeId/instance}. */
  public static String of(String nodeId, String instance) {
    if (nodeId.indexOf('/') >= 0) {
      throw new IllegalArgumentException("a node id cannot contain '/', was '" + nodeId + "'");
    }
    return nodeId + "/" + instance;
  }

  /** A new random instance nonce (122 random bits), one per process (per node started). */
  public static String newInstance() {
    return UUID.randomUUID().toString();
  }

  /** The node id of {@code holder}: what is before its {@code /}, or all of it. */
  public static String nodeId(String holder) {
    int i = holder.indexOf('/');
    return i < 0 ? holder : holder.substring(0, i);
  }

  /** The instance of {@code holder}: what is after its {@code /}, or {@code ""} when it has none. */
  public static String instance(String holder) {
    int i = holder.indexOf('/');
    return i < 0 ? "" : holder.substring(i + 1);
  }

  /**
   * Whether a record of instance {@code stored} is another process than {@code instance}: both known and different.
   * An unknown instance ({@code null} or empty) conflicts with nothing.
   */
  public static boolean conflicts(String stored, String instance) {
    return stored != null && !stored.isEmpty() && !instance.isEmpty() && !stored.equals(instance);
  }
}
