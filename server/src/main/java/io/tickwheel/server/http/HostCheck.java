package io.tickwheel.server.http;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which {@code Host} values a server without a token answers: those that name this server, so that a page whose
 * own name was re-pointed at the loopback address (DNS rebinding) is refused. They are {@code localhost} (and names
 * under {@code .localhost}, which browsers resolve to loopback themselves), loopback literals ({@code 127.0.0.0/8},
 * {@code [::1]}), the unspecified ones ({@code 0.0.0.0}, {@code [::]}, which reach the local host and are nobody's
 * name), and the names of {@code --host} and {@code --advertise}. The port is not compared: a rebinding
 * page reaches the server under its own name whatever the port, while tunnels and port mappings legitimately change
 * it. A request without {@code Host} (HTTP/1.0) is not from a browser and passes.
 *
 * <p>Nothing is resolved: names are compared as text, literals parsed. Immutable, thread safe.
 */
final class HostCheck {

  private final Set<String> names;

  /**
   * @param host      the bound interface ({@code --host}): a name or literal
   * @param advertise the advertised base URL ({@code --advertise}), or {@code null}
   */
  public HostCheck(String host, String advertise) {
    Set<String> n = new HashSet<>();
    n.add(norm(host));
    if (advertise != null) {
      try {
        String h = URI.create(advertise).getHost();
        if (h != null) {
          n.add(norm(h));
        }
      } catch (IllegalArgumentException e) {
        // not a URL: ServerConfig's checks speak of it; nothing to add
      }
    }
    this.names = Set.copyOf(n);
  }

  /** Whether a request with this {@code Host} header ({@code null}: none) names this server. */
  public boolean allows(String hostHeader) {
    if (hostHeader == null) {
      return true;
    }
    String h = norm(hostOf(hostHeader.trim()));
    if (h.isEmpty()) {
      return false;
    }
    return h.equals("localhost") || h.endsWith(".localhost") || names.contains(h) || isLocalLiteral(h);
  }

  /** The host part of a {@code Host} header: without the port, IPv6 literals without brackets. */
  static String hostOf(String header) {
    if (header.startsWith("[")) {
      int end = header.indexOf(']');
      return end < 0 ? "" : header.substring(1, end);
    }
    int colon = header.indexOf(':');
    return colon < 0 ? header : header.substring(0, colon);
  }

  private static boolean isLocalLiteral(String h) {
    if (!NetUtil.isValidIpV4Address(h) && !NetUtil.isValidIpV6Address(h)) {
      return false;
    }
    try {
      InetAddress a = InetAddress.getByAddress(NetUtil.createByteArrayFromIpAddressString(h));
      return a.isLoopbackAddress() || a.isAnyLocalAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String norm(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }
}
