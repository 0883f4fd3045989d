package io.tickwheel.core.callback;

import java.net.InetAddress;
import java.util.List;
import java.util.Locale;

/**
 * Which addresses a callback may reach (the SSRF guard's rule; {@code GuardedResolver} applies it to resolved
 * addresses, {@link io.tickwheel.core.model.TimerParser} to literal hosts at create).
 *
 * <p>Blocked, unless {@link #allowPrivate()} or an {@link #allowed()} block contains the address (or the IPv4
 * address it embeds):
 * <ul>
 *   <li>IPv4: "this network" 0.0.0.0/8, private 10/8, 172.16/12, 192.168/16, carrier-grade NAT 100.64/10, loopback
 *       127/8, link-local 169.254/16, multicast 224/4, reserved 240/4, broadcast 255.255.255.255;</li>
 *   <li>IPv6: unspecified {@code ::}, loopback {@code ::1}, unique local fc00::/7, link-local fe80::/10, site-local
 *       fec0::/10, multicast ff00::/8;</li>
 *   <li>IPv6 addresses that embed a blocked IPv4 address: IPv4-mapped ::ffff:0:0/96, IPv4-translated
 *       ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (RFC 6052 layout), 6to4
 *       2002::/16, Teredo 2001::/32 (its client address).</li>
 * </ul>
 * Host names {@code localhost} and {@code *.localhost} (RFC 6761: always loopback) are refused at create too, like a
 * literal loopback address. Any other name is checked when it is resolved.
 *
 * <p>Immutable, thread safe, no I/O.
 *
 * @param allowPrivate every address is allowed ({@code --webhook-allow-private})
 * @param allowed      blocks allowed even though blocked above ({@code --webhook-allow-cidr})
 */
public record AddressPolicy(boolean allowPrivate, List<Cidr> allowed) {

  /** Nothing private, no exceptions: the default. */
  public static final AddressPolicy STRICT = new AddressPolicy(false, List.of());

  public AddressPolicy {
    allowed = List.copyOf(allowed);
  }

  /**
   * Why {@code address} may not be reached, or {@code null} when it may.
   *
   * @param address 4 or 16 bytes
   * @return e.g. {@code "127.0.0.1 is a loopback address"}, {@code "::ffff:10.0.0.1 embeds 10.0.0.1, a private
   *     address"}
   */
  public String blocked(byte[] address) {
    if (allowPrivate) {
      return null;
    }
    byte[] v4 = address.length == 16 ? embeddedIpv4(address) : null;
    for (Cidr c : allowed) {
      if (c.contains(address) || (v4 != null && c.contains(v4))) {
        return null;
      }
    }
    String kind = kind(address);
    if (kind != null) {
      return Cidr.text(address) + " is " + kind;
    }
    if (v4 != null) {
      String inner = kind(v4);
      if (inner != null) {
        return Cidr.text(address) + " embeds " + Cidr.text(v4) + ", " + inner;
      }
    }
    return null;
  }

  /** {@link #blocked(byte[])} of {@code address}'s bytes. */
  public String blocked(InetAddress address) {
    return blocked(address.getAddress());
  }

  /**
   * Why a callback URL's host is refused at create, or {@code null}: a blocked address literal, or the name
   * {@code localhost} / {@code *.localhost}. Other names pass (they are checked when resolved).
   *
   * @param host as {@link CallbackUrl#host()} gives it
   * @throws IllegalArgumentException when the host is not a valid name or address (see {@link HostLiteral#parse})
   */
  public String refusedHost(String host) {
    byte[] literal = HostLiteral.parse(host);
    if (literal != null) {
      return blocked(literal);
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (!allowPrivate && (h.equals("localhost") || h.endsWith(".localhost"))) {
      return host + " is a loopback name";
    }
    return null;
  }

  /** The blocked kind of {@code a} itself ("a loopback address"), not looking at embedded IPv4; or null. */
  static String kind(byte[] a) {
    return a.length == 4 ? kind4(a) : kind6(a);
  }

  private static String kind4(byte[] a) {
    int b0 = a[0] & 0xff;
    int b1 = a[1] & 0xff;
    if (b0 == 0) {
      return "a \"this network\" address";
    }
    if (b0 == 10 || (b0 == 172 && (b1 & 0xf0) == 16) || (b0 == 192 && b1 == 168)) {
      return "a private address";
    }
    if (b0 == 100 && (b1 & 0xc0) == 64) {
      return "a carrier-grade NAT address";
    }
    if (b0 == 127) {
      return "a loopback address";
    }
    if (b0 == 169 && b1 == 254) {
      return "a link-local address";
    }
    if ((b0 & 0xf0) == 224) {
      return "a multicast address";
    }
    if (b0 == 255 && b1 == 255 && (a[2] & 0xff) == 255 && (a[3] & 0xff) == 255) {
      return "the broadcast address";
    }
    if ((b0 & 0xf0) == 240) {
      return "a reserved address";
    }
    return null;
  }

  private static String kind6(byte[] a) {
    boolean zero = true;
    for (int i = 0; i < 15; i++) {
      zero &= a[i] == 0;
    }
    if (zero && a[15] == 0) {
      return "the unspecified address";
    }
    if (zero && a[15] == 1) {
      return "a loopback address";
    }
    int b0 = a[0] & 0xff;
    int b1 = a[1] & 0xff;
    if (b0 == 0xff) {
      return "a multicast address";
    }
    if ((b0 & 0xfe) == 0xfc) {
      return "a unique local (private) address";
    }
    if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
      return "a link-local address";
    }
    if (b0 == 0xfe && (b1 & 0xc0) == 0xc0) {
      return "a site-local address";
    }
    return null;
  }

  /**
   * The IPv4 address an IPv6 address carries, or null: IPv4-mapped, IPv4-translated, IPv4-compatible (not
   * {@code ::} and {@code ::1}), NAT64 (both well-known prefixes), 6to4, Teredo.
   */
  static byte[] embeddedIpv4(byte[] a) {
    if (zeros(a, 0, 10) && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) {
      return slice(a, 12);                                                    // ::ffff:0:0/96
    }
    if (zeros(a, 0, 8) && (a[8] & 0xff) == 0xff && (a[9] & 0xff) == 0xff && zeros(a, 10, 12)) {
      return slice(a, 12);                                                    // ::ffff:0:0:0/96
    }
    if (zeros(a, 0, 12) && !(zeros(a, 12, 15) && (a[15] & 0xff) <= 1)) {
      return slice(a, 12);                                                    // ::/96
    }
    if (a[0] == 0 && a[1] == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b) {
      if (zeros(a, 4, 12)) {
        return slice(a, 12);                                                  // 64:ff9b::/96
      }
      if (a[4] == 0 && a[5] == 1) {
        return new byte[] {a[6], a[7], a[9], a[10]};                          // 64:ff9b:1::/48, RFC 6052 /48
      }
    }
    if (a[0] == 0x20 && a[1] == 0x02) {
      return new byte[] {a[2], a[3], a[4], a[5]};                             // 2002::/16
    }
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0 && a[3] == 0) {
      return new byte[] {(byte) ~a[12], (byte) ~a[13], (byte) ~a[14], (byte) ~a[15]}; // Teredo client
    }
    return null;
  }

  private static boolean zeros(byte[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static byte[] slice(byte[] a, int from) {
    return new byte[] {a[from], a[from + 1], a[from + 2], a[from + 3]};
  }
}
