package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link HostLiteral} against the JDK's {@link InetAddress} for the forms the JDK reads the same way (decimal parts
 * without leading zeros, 1 to 4 of them; IPv6 full, compressed and with a dotted tail), and against plain arithmetic
 * for the forms the JDK does not read (hex and octal parts). Only literals are given to {@code InetAddress}, so it
 * never resolves anything.
 */
class HostLiteralProperties {

  @Property(tries = 2000)
  void decimalFormsReadAsTheJdkReadsThem(@ForAll int value, @ForAll @IntRange(min = 1, max = 4) int parts)
      throws Exception {
    String host = format(value, parts, Arrays.stream(new int[parts]).map(i -> 10).toArray());
    assertThat(HostLiteral.parse(host)).as(host).containsExactly(InetAddress.getByName(host).getAddress());
  }

  @Property(tries = 2000)
  void hexOctalAndDecimalPartsReadAsTheirValue(@ForAll int value, @ForAll @IntRange(min = 1, max = 4) int parts,
      @ForAll @Size(4) int[] radixChoice) throws Exception {
    int[] radix = IntStream.range(0, parts).map(i -> new int[] {8, 10, 16}[Math.floorMod(radixChoice[i], 3)])
        .toArray();
    String host = format(value, parts, radix);
    byte[] expected = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    assertThat(HostLiteral.parse(host)).as(host).containsExactly(expected);
    assertThat(HostLiteral.parse(host + ".")).as(host + ".").containsExactly(expected);
  }

  @Property(tries = 2000)
  void ipv6TextReadsAsTheJdkReadsIt(@ForAll("ipv6") byte[] address, @ForAll boolean compress,
      @ForAll boolean dottedTail) throws Exception {
    String text = ipv6Text(address, compress, dottedTail);
    byte[] jdk = InetAddress.getByName(text).getAddress();
    byte[] ours = HostLiteral.parse(text);
    if (jdk.length == 4) {                          // the JDK turns ::ffff:a.b.c.d into an IPv4 address
      assertThat(Arrays.copyOfRange(ours, 12, 16)).as(text).containsExactly(jdk);
      assertThat(Arrays.copyOfRange(ours, 0, 12)).as(text)
          .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff);
    } else {
      assertThat(ours).as(text).containsExactly(jdk);
    }
  }

  @Property(tries = 1000)
  void theJdksOwnIpv6TextReadsBack(@ForAll("ipv6") byte[] address) throws Exception {
    String text = Inet6Address.getByAddress(null, address, null).getHostAddress();
    assertThat(HostLiteral.parse(text)).as(text).containsExactly(address);
  }

  @Provide
  Arbitrary<byte[]> ipv6() {
    // many zero groups, so that compression and the special prefixes come up often
    Arbitrary<Integer> group = Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.just(0xffff),
        Arbitraries.integers().between(0, 0xffff));
    return group.array(Integer[].class).ofSize(8).map(g -> {
      byte[] b = new byte[16];
      for (int i = 0; i < 8; i++) {
        b[2 * i] = (byte) (g[i] >>> 8);
        b[2 * i + 1] = (byte) (int) g[i];
      }
      return b;
    });
  }

  /** {@code value} as {@code parts} inet_aton parts, part i in radix {@code radix[i]} (0x and 0 prefixes). */
  static String format(int value, int parts, int[] radix) {
    long v = value & 0xffffffffL;
    long[] n = new long[parts];
    int lastBytes = 5 - parts;
    n[parts - 1] = v & ((1L << (8 * lastBytes)) - 1);
    for (int i = 0; i < parts - 1; i++) {
      n[i] = (v >>> (8 * (3 - i))) & 0xff;
    }
    return IntStream.range(0, parts).mapToObj(i -> switch (radix[i]) {
      case 8 -> "0" + Long.toOctalString(n[i]);
      case 16 -> "0x" + Long.toHexString(n[i]);
      default -> Long.toString(n[i]);
    }).collect(Collectors.joining("."));
  }

  /** Eight hex groups, optionally with the longest zero run compressed and the last 32 bits as a dotted quad. */
  static String ipv6Text(byte[] a, boolean compress, boolean dottedTail) {
    int groups = dottedTail ? 6 : 8;
    String[] g = new String[groups];
    for (int i = 0; i < groups; i++) {
      g[i] = Integer.toHexString(((a[2 * i] & 0xff) << 8) | (a[2 * i + 1] & 0xff));
    }
    String tail = dottedTail ? (a[12] & 0xff) + "." + (a[13] & 0xff) + "." + (a[14] & 0xff) + "." + (a[15] & 0xff) : null;
    int bestStart = -1;
    int bestLen = 0;
    if (compress) {
      for (int i = 0; i < groups; ) {
        int j = i;
        while (j < groups && g[j].equals("0")) {
          j++;
        }
        if (j - i > bestLen) {
          bestStart = i;
          bestLen = j - i;
        }
        i = j == i ? i + 1 : j;
      }
    }
    StringBuilder sb = new StringBuilder();
    if (bestLen >= 1) {
      sb.append(String.join(":", Arrays.copyOfRange(g, 0, bestStart))).append("::")
          .append(String.join(":", Arrays.copyOfRange(g, bestStart + bestLen, groups)));
      if (tail != null) {
        sb.append(bestStart + bestLen == groups ? "" : ":").append(tail);
      }
    } else {
      sb.append(String.join(":", g));
      if (tail != null) {
        sb.append(':').append(tail);
      }
    }
    return sb.toString();
  }
}
