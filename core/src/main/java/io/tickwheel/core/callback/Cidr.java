package io.tickwheel.core.callback;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An address block: {@code 10.0.0.0/8}, {@code fd00::/8}, or one address ({@code 192.0.2.7}, {@code ::1}: the full
 * prefix length). Immutable, thread safe.
 *
 * @param network the block's first address, 4 or 16 bytes (host bits zero)
 * @param bits    the prefix length, 0..32 or 0..128
 */
public record Cidr(byte[] network, int bits) {

  public Cidr {
    network = network.clone();
    if (network.length != 4 && network.length != 16) {
      throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + network.length);
    }
    if (bits < 0 || bits > network.length * 8) {
      throw new IllegalArgumentException("prefix length must be between 0 and " + network.length * 8 + ", was " + bits);
    }
  }

  /**
   * Parses {@code ADDRESS[/BITS]}: the address in dotted-quad IPv4 or IPv6 text (no other IPv4 forms, no zone).
   *
   * @throws IllegalArgumentException saying what is wrong, e.g. host bits set ("did you mean 10.0.0.0/8?")
   */
  public static Cidr parse(String text) {
    String s = text.trim();
    int slash = s.indexOf('/');
    String addr = slash < 0 ? s : s.substring(0, slash);
    byte[] b;
    if (addr.indexOf(':') >= 0) {
      b = HostLiteral.ipv6(addr);
    } else {
      String[] parts = addr.split("\\.", -1);
      b = parts.length == 4 && Arrays.stream(parts).allMatch(p -> p.matches("0|[1-9][0-9]{0,2}"))
          ? HostLiteral.ipv4(addr) : null;
    }
    if (b == null) {
      throw new IllegalArgumentException("'" + text + "' is not an address block like 10.0.0.0/8 or fd00::/8");
    }
    int bits = b.length * 8;
    if (slash >= 0) {
      String n = s.substring(slash + 1);
      if (!n.matches("[0-9]{1,3}") || Integer.parseInt(n) > b.length * 8) {
        throw new IllegalArgumentException("'" + text + "' has a prefix length that is not 0.." + b.length * 8);
      }
      bits = Integer.parseInt(n);
    }
    byte[] masked = mask(b, bits);
    if (!Arrays.equals(masked, b)) {
      throw new IllegalArgumentException("'" + text + "' has host bits set; did you mean "
          + new Cidr(masked, bits) + "?");
    }
    return new Cidr(b, bits);
  }

  @Override
  public byte[] network() {
    return network.clone();
  }

  /** Whether {@code address} (4 or 16 bytes) lies in this block; an address of the other family never does. */
  public boolean contains(byte[] address) {
    if (address.length != network.length) {
      return false;
    }
    return Arrays.equals(mask(address, bits), network);
  }

  private static byte[] mask(byte[] a, int bits) {
    byte[] m = a.clone();
    for (int i = 0; i < m.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - 8 * i));
      m[i] = (byte) (m[i] & (0xff00 >>> keep));
    }
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cidr c && c.bits == bits && Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(network) * 31 + bits;
  }

  /** {@code 10.0.0.0/8}, {@code fd00:0:0:0:0:0:0:0/8}. */
  @Override
  public String toString() {
    return text(network) + "/" + bits;
  }

  /** The usual text of an address: dotted quad, or the JDK's IPv6 text. */
  static String text(byte[] a) {
    try {
      return a.length == 4 ? InetAddress.getByAddress(a).getHostAddress()
          : java.net.Inet6Address.getByAddress(null, a, null).getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
