package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.server.ConfigException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * The cluster flags ({@code --cluster}, {@code --node-id}, {@code --advertise}, {@code --partitions},
 * {@code --lease-ms}). Immutable; the constructor checks every value and throws a {@link ConfigException} whose
 * field is the component's name ({@code ServerCli} turns it into the flag's name).
 *
 * @param enabled    whether this node joins a cluster ({@code --cluster}); needs {@code --store redis}
 * @param nodeId     this node's id, 1..64 of {@code [A-Za-z0-9._-]}, or {@code null}: then {@link #nodeIdFor} derives a
 *                   stable one from the host name and the port ({@code HOSTNAME-PORT}), the same on every restart of
 *                   the same node on the same machine and port
 * @param advertise  the base URL the other nodes route calls to ({@code http(s)://host:port}), or {@code null}: then
 *                   the server's own URL, which needs a concrete (not wildcard) {@code --host}
 * @param partitions the cluster's partition count, 1..{@value Partitions#MAX}; fixed by the first node
 * @param leaseMs    a partition lease, ms, {@value #MIN_LEASE_MS}..{@value #MAX_LEASE_MS}; renewed about every
 *                   lease/4, so the floor keeps a renew period (250 ms) well above a Redis round trip and a GC pause
 */
public record ClusterOptions(boolean enabled, String nodeId, String advertise, int partitions, long leaseMs) {

  /** Default {@code leaseMs}. */
  public static final long DEFAULT_LEASE_MS = 6000;
  /** Shortest lease: renewals every 250 ms, a safety margin of 250 ms. */
  public static final long MIN_LEASE_MS = 1000;
  /** Longest lease: failover takes about the lease, so a longer one is a misconfiguration. */
  public static final long MAX_LEASE_MS = 300_000;

  private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern URL = Pattern.compile("https?://[^/\\s?#]+(:[0-9]{1,5})?/?");

  public ClusterOptions {
    if (nodeId != null && !NODE_ID.matcher(nodeId).matches()) {
      throw ConfigException.field("nodeId", "must be 1..64 letters, digits, '.', '_' or '-', was '" + nodeId + "'");
    }
    if (advertise != null) {
      if (!URL.matcher(advertise).matches()) {
        throw ConfigException.field("advertise", "must be a base URL like http://10.0.0.5:8080, was '" + advertise + "'");
      }
      if (advertise.endsWith("/")) {
        advertise = advertise.substring(0, advertise.length() - 1);
      }
    }
    if (partitions < 1 || partitions > Partitions.MAX) {
      throw ConfigException.field("partitions", "must be between 1 and " + Partitions.MAX + ", was " + partitions);
    }
    if (leaseMs < MIN_LEASE_MS || leaseMs > MAX_LEASE_MS) {
      throw ConfigException.field("leaseMs", "must be between " + MIN_LEASE_MS + " and " + MAX_LEASE_MS
          + " (renewed every lease/4), was " + leaseMs);
    }
  }

  /** No cluster: the defaults, disabled. */
  public static ClusterOptions none() {
    return new ClusterOptions(false, null, null, Partitions.DEFAULT, DEFAULT_LEASE_MS);
  }

  /** These options with {@code --cluster} on or off. */
  public ClusterOptions withEnabled(boolean on) {
    return new ClusterOptions(on, nodeId, advertise, partitions, leaseMs);
  }

  /** These options with another node id. */
  public ClusterOptions withNodeId(String id) {
    return new ClusterOptions(enabled, id, advertise, partitions, leaseMs);
  }

  /** These options with another partition count. */
  public ClusterOptions withPartitions(int p) {
    return new ClusterOptions(enabled, nodeId, advertise, p, leaseMs);
  }

  /** These options with another lease. */
  public ClusterOptions withLeaseMs(long ms) {
    return new ClusterOptions(enabled, nodeId, advertise, partitions, ms);
  }

  /** This node's id: {@link #nodeId()}, or {@code HOSTNAME-PORT} (the local host name, else {@code node}). */
  public String nodeIdFor(int port) {
    if (nodeId != null) {
      return nodeId;
    }
    String h;
    try {
      h = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      h = "node";
    }
    String clean = h.replaceAll("[^A-Za-z0-9._-]", "-");
    if (clean.length() > 57) {
      clean = clean.substring(0, 57);
    }
    return clean + "-" + port;
  }

  /** Whether {@code host} is a wildcard address ({@code 0.0.0.0}, {@code ::}), which others cannot route to. */
  public static boolean isWildcard(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return h.equals("0.0.0.0") || h.equals("::") || h.equals("0:0:0:0:0:0:0:0");
  }
}
