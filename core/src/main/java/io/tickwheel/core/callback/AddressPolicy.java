package io.tickwheel.core.callback;

import java.net.InetAddress;
import java.util.List;
import java.util.Locale;

/**
 * Which addresses a callback may reach (the SSRF guard's rule; {@code GuardedResolver} applies it to resolved
 * addresses, {@link io.tickwheel.core.model.TimerParser} to literal hosts at create).
 *
 * <p>Blocked, unless {@link #allowPrivate()} or an {@link #allowed()} block contains the address (or the IPv4
 * address it embeds): every block the IANA IPv4 and IPv6 Special-Purpose Address Registries mark not globally
 * reachable, and multicast ({@link #BLOCKS} lists them):
 * <ul>
 *   <li>IPv4: "this network" 0.0.0.0/8, private 10/8, 172.16/12, 192.168/16, carrier-grade NAT 100.64/10, loopback
 *       127/8, link-local 169.254/16, IETF protocol assignments 192.0.0.0/24 (but the anycast 192.0.0.9 and
 *       192.0.0.10), documentation 192.0.2/24, 198.51.100/24, 203.0.113/24, the deprecated 6to4 relay anycast
 *       192.88.99/24, benchmarking 198.18/15, multicast 224/4, reserved 240/4, broadcast 255.255.255.255;</li>
 *   <li>IPv6: unspecified {@code ::}, loopback {@code ::1}, local-use translation 64:ff9b:1::/48, discard-only
 *       100::/64, dummy 100:0:0:1::/64, IETF protocol assignments 2001::/23 (but the globally reachable blocks
 *       inside it; Teredo is judged by its client address), documentation 2001:db8::/32 and 3fff::/20, SRv6 SIDs
 *       5f00::/16, unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8;</li>
 *   <li>IPv6 addresses that embed a blocked IPv4 address: IPv4-mapped ::ffff:0:0/96, IPv4-translated
 *       ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 (RFC 6052 layout), 6to4 2002::/16, Teredo
 *       2001::/32 (its client address).</li>
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
    if (v4 != null) {
      String inner = kind(v4);
      if (inner != null) {
        return Cidr.text(address) + " embeds " + Cidr.text(v4) + ", " + inner;
      }
    }
    String kind = kind(address);
    return kind == null ? null : Cidr.text(address) + " is " + kind;
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
    for (Cidr c : GLOBAL) {
      if (c.contains(a)) {
        return null;
      }
    }
    for (Block b : BLOCKS) {
      if (b.cidr().contains(a)) {
        return b.kind();
      }
    }
    return null;
  }

  /** A block of addresses a callback may not reach, and what to call its addresses in a refusal. */
  record Block(Cidr cidr, String kind) {}

  private static Block block(String cidr, String kind) {
    return new Block(Cidr.parse(cidr), kind);
  }

  /**
   * The blocked ranges, in the order they are checked: every block of the IANA IPv4 and IPv6 Special-Purpose Address
   * Registries whose "Globally Reachable" is false, plus multicast, the reserved 240/4 and the deprecated ones
   * (IPv6 site-local, ORCHID, the 6to4 relay anycast block). Package-private for the table-driven test.
   */
  static final List<Block> BLOCKS = List.of(
      block("0.0.0.0/8", "a \"this network\" address"),
      block("10.0.0.0/8", "a private address"),
      block("100.64.0.0/10", "a carrier-grade NAT address"),
      block("127.0.0.0/8", "a loopback address"),
      block("169.254.0.0/16", "a link-local address"),
      block("172.16.0.0/12", "a private address"),
      block("192.0.0.0/24", "an IETF protocol assignment (192.0.0.0/24), not globally reachable"),
      block("192.0.2.0/24", "a documentation address (TEST-NET-1)"),
      block("192.88.99.0/24", "a deprecated 6to4 relay anycast address"),
      block("192.168.0.0/16", "a private address"),
      block("198.18.0.0/15", "a benchmarking address"),
      block("198.51.100.0/24", "a documentation address (TEST-NET-2)"),
      block("203.0.113.0/24", "a documentation address (TEST-NET-3)"),
      block("224.0.0.0/4", "a multicast address"),
      block("255.255.255.255/32", "the broadcast address"),
      block("240.0.0.0/4", "a reserved address"),
      block("::/128", "the unspecified address"),
      block("::1/128", "a loopback address"),
      block("64:ff9b:1::/48", "a local-use IPv4/IPv6 translation address"),
      block("100::/64", "a discard-only address"),
      block("100:0:0:1::/64", "a dummy IPv6 prefix address"),
      block("2001:2::/48", "a benchmarking address"),
      block("2001:10::/28", "a deprecated ORCHID address"),
      block("2001::/23", "an IETF protocol assignment (2001::/23), not globally reachable"),
      block("2001:db8::/32", "a documentation address"),
      block("3fff::/20", "a documentation address"),
      block("5f00::/16", "a segment routing (SRv6 SID) address"),
      block("fc00::/7", "a unique local (private) address"),
      block("fe80::/10", "a link-local address"),
      block("fec0::/10", "a site-local address"),
      block("ff00::/8", "a multicast address"));

  /**
   * Blocks inside a blocked one that the registries mark globally reachable (anycast services, AS112, AMT, ORCHIDv2,
   * DRIP), and Teredo 2001::/32, whose addresses are judged by the client address they embed.
   */
  static final List<Cidr> GLOBAL = List.of(
      Cidr.parse("192.0.0.9/32"), Cidr.parse("192.0.0.10/32"),
      Cidr.parse("2001::/32"), Cidr.parse("2001:1::1/128"), Cidr.parse("2001:1::2/128"), Cidr.parse("2001:1::3/128"),
      Cidr.parse("2001:3::/32"), Cidr.parse("2001:4:112::/48"), Cidr.parse("2001:20::/28"),
      Cidr.parse("2001:30::/28"));

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
