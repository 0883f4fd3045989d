package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The policy's verdict on an IPv4 address does not depend on how the address is written: in any inet_aton form, or
 * embedded in an IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64 64:ff9b::/96 or 6to4 IPv6 address (the local-use
 * NAT64 prefix 64:ff9b:1::/48 is refused whatever it embeds). And an
 * allowed block lets exactly its addresses through.
 */
class AddressPolicyProperties {

  /** Addresses spread over the whole space, with the blocked ranges' edges drawn often. */
  @Provide
  Arbitrary<Integer> ipv4() {
    List<Integer> edges = List.of(0x00000000, 0x00ffffff, 0x01000000, 0x09ffffff, 0x0a000000, 0x0affffff, 0x0b000000,
        0x633fffff, 0x64400000, 0x647fffff, 0x64800000, 0x7effffff, 0x7f000000, 0x7fffffff, 0x80000000, 0xa9fdffff,
        0xa9fe0000, 0xa9feffff, 0xa9ff0000, 0xac0fffff, 0xac100000, 0xac1fffff, 0xac200000, 0xc0a7ffff, 0xc0a80000,
        0xc0a8ffff, 0xc0a90000, 0xdfffffff, 0xe0000000, 0xefffffff, 0xf0000000, 0xfffffffe, 0xffffffff);
    return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.of(edges));
  }

  private static byte[] bytes(int v) {
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }

  private static String dotted(int v) {
    return (v >>> 24) + "." + ((v >>> 16) & 0xff) + "." + ((v >>> 8) & 0xff) + "." + (v & 0xff);
  }

  @Property(tries = 3000)
  void everyWayOfWritingAnIpv4AddressGetsTheSameVerdict(@ForAll("ipv4") int v,
      @ForAll @IntRange(min = 1, max = 4) int parts, @ForAll @IntRange(min = 0, max = 80) int radixSeed) {
    AddressPolicy p = AddressPolicy.STRICT;
    boolean blocked = p.blocked(bytes(v)) != null;
    int[] radix = new int[parts];
    for (int i = 0; i < parts; i++) {
      radix[i] = new int[] {8, 10, 16}[(radixSeed / (i == 0 ? 1 : 3 * i)) % 3];
    }
    String written = HostLiteralProperties.format(v, parts, radix);
    String hex = Integer.toHexString((v >>> 16) & 0xffff) + ":" + Integer.toHexString(v & 0xffff);
    int v4a = (v >>> 24) & 0xff;
    int v4b = (v >>> 16) & 0xff;
    for (String host : List.of(written, "::ffff:" + dotted(v), "::ffff:" + hex, "::ffff:0:" + dotted(v),
        "::" + dotted(v), "64:ff9b::" + dotted(v), "2002:" + hex + "::1")) {
      assertThat(p.refusedHost(host) != null).as("%s written as %s", dotted(v), host).isEqualTo(blocked);
    }
    // 64:ff9b:1::/48 (RFC 6052 /48: v4 bytes 0-1 in group 3, byte 8 zero, bytes 2-3 in bytes 9-10) is local-use,
    // never globally reachable: refused whatever it embeds, naming the embedded address when that is blocked too
    String localUse = String.format("64:ff9b:1:%x:%x:%x00::", (v4a << 8) | v4b, (v >>> 8) & 0xff, v & 0xff);
    assertThat(p.refusedHost(localUse)).as(localUse)
        .contains(blocked ? "embeds " + dotted(v) : "local-use IPv4/IPv6 translation");
  }

  @Property(tries = 2000)
  void anAllowedBlockLetsThroughExactlyItsAddresses(@ForAll("ipv4") int network,
      @ForAll @IntRange(min = 0, max = 32) int bits, @ForAll("ipv4") int probe) {
    int mask = bits == 0 ? 0 : -1 << (32 - bits);
    Cidr block = Cidr.parse(dotted(network & mask) + "/" + bits);
    boolean inside = (probe & mask) == (network & mask);
    assertThat(block.contains(bytes(probe))).isEqualTo(inside);
    AddressPolicy p = new AddressPolicy(false, List.of(block));
    if (inside) {
      assertThat(p.blocked(bytes(probe))).isNull();
      assertThat(p.refusedHost("::ffff:" + dotted(probe))).isNull();
    } else {
      assertThat(p.blocked(bytes(probe))).isEqualTo(AddressPolicy.STRICT.blocked(bytes(probe)));
    }
  }
}
