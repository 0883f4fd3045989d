package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF block list against the IANA IPv4 and IPv6 Special-Purpose Address Registries: each block whose "Globally
 * Reachable" is false (and multicast, reserved, the deprecated ones) with an address inside, refused, and the nearest
 * address outside it that no other block covers, allowed. The globally reachable blocks inside a blocked one are
 * allowed.
 */
class SpecialPurposeBlocksTest {

  /**
   * block, an address inside, the nearest allowed address outside (or in a globally reachable block inside it), a
   * word of the refusal.
   */
  static Stream<Arguments> blocks() {
    return Stream.of(
        row("0.0.0.0/8", "0.255.255.255", "1.0.0.0", "this network"),
        row("10.0.0.0/8", "10.255.255.255", "11.0.0.0", "private"),
        row("100.64.0.0/10", "100.64.0.0", "100.63.255.255", "carrier-grade NAT"),
        row("100.64.0.0/10", "100.127.255.255", "100.128.0.0", "carrier-grade NAT"),
        row("127.0.0.0/8", "127.255.255.255", "128.0.0.0", "loopback"),
        row("169.254.0.0/16", "169.254.255.255", "169.255.0.0", "link-local"),
        row("172.16.0.0/12", "172.31.255.255", "172.32.0.0", "private"),
        row("192.0.0.0/24", "192.0.0.192", "192.0.1.0", "IETF protocol assignment"),
        row("192.0.0.0/24", "192.0.0.0", "191.255.255.255", "IETF protocol assignment"),
        row("192.0.0.0/24", "192.0.0.8", "192.0.0.9", "IETF protocol assignment"),
        row("192.0.0.0/24", "192.0.0.11", "192.0.0.10", "IETF protocol assignment"),
        row("192.0.0.0/24", "192.0.0.170", "192.0.0.10", "IETF protocol assignment"),
        row("192.0.2.0/24", "192.0.2.255", "192.0.3.0", "TEST-NET-1"),
        row("192.88.99.0/24", "192.88.99.1", "192.88.100.0", "6to4 relay anycast"),
        row("192.168.0.0/16", "192.168.0.0", "192.167.255.255", "private"),
        row("198.18.0.0/15", "198.18.0.0", "198.17.255.255", "benchmarking"),
        row("198.18.0.0/15", "198.19.255.255", "198.20.0.0", "benchmarking"),
        row("198.51.100.0/24", "198.51.100.0", "198.51.99.255", "TEST-NET-2"),
        row("203.0.113.0/24", "203.0.113.255", "203.0.114.0", "TEST-NET-3"),
        row("224.0.0.0/4", "224.0.0.0", "223.255.255.255", "multicast"),
        row("240.0.0.0/4", "255.255.255.254", "223.255.255.255", "reserved"),
        row("255.255.255.255/32", "255.255.255.255", "223.255.255.255", "broadcast"),
        row("::/128", "::", "::100:0", "unspecified"),
        row("::1/128", "::1", "::100:0", "loopback"),
        // inside: RFC 6052 /48 forms of 8.8.8.8 and 1.1.1.1, public addresses: the prefix itself is refused
        row("64:ff9b:1::/48", "64:ff9b:1:808:8:800::", "64:ff9b:2::", "local-use IPv4/IPv6 translation"),
        row("64:ff9b:1::/48", "64:ff9b:1:101:1:100::", "64:ff9b:0:ffff::", "local-use IPv4/IPv6 translation"),
        row("100::/64", "100::", "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "discard-only"),
        row("100::/64", "100::ffff:ffff:ffff:ffff", "100:0:0:2::", "discard-only"),
        row("100:0:0:1::/64", "100:0:0:1:ffff:ffff:ffff:ffff", "100:0:0:2::", "dummy IPv6 prefix"),
        row("2001:2::/48", "2001:2:0:ffff:ffff:ffff:ffff:ffff", "2001:3::", "benchmarking"),
        row("2001:10::/28", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", "2001:20::", "ORCHID"),
        row("2001::/23", "2001:1::4", "2001:1::3", "IETF protocol assignment"),
        row("2001::/23", "2001:1::", "2001:1::1", "IETF protocol assignment"),
        row("2001::/23", "2001:4:113::", "2001:4:112::1", "IETF protocol assignment"),
        row("2001::/23", "2001:40::", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff", "IETF protocol assignment"),
        row("2001::/23", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::", "IETF protocol assignment"),
        row("2001:db8::/32", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::", "documentation"),
        row("3fff::/20", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::", "documentation"),
        row("5f00::/16", "5f00::1", "5f01::", "segment routing"),
        row("fc00::/7", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "unique local"),
        row("fe80::/10", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "link-local"),
        row("fec0::/10", "fec0::", "fe00::", "site-local"),
        row("ff00::/8", "ff02::1", "fe00::", "multicast"));
  }

  private static Arguments row(String block, String inside, String outside, String why) {
    return Arguments.of(block, inside, outside, why);
  }

  @ParameterizedTest(name = "{0}: {1} refused, {2} allowed")
  @MethodSource("blocks")
  void eachBlockRefusesAnAddressInsideAndAllowsTheNearestOutside(String block, String inside, String outside,
      String why) {
    Cidr c = Cidr.parse(block);
    assertThat(c.contains(HostLiteral.parse(inside))).as("%s in %s", inside, block).isTrue();
    byte[] out = HostLiteral.parse(outside);
    assertThat(!c.contains(out) || AddressPolicy.GLOBAL.stream().anyMatch(g -> g.contains(out)))
        .as("%s outside %s, or in a globally reachable block inside it", outside, block).isTrue();
    assertThat(AddressPolicy.STRICT.refusedHost(inside)).as(inside).isNotNull().contains(why);
    assertThat(AddressPolicy.STRICT.refusedHost(outside)).as(outside).isNull();
  }

  @Test
  void theTableCoversEveryBlockOfTheList() {
    Set<Cidr> tested = new HashSet<>();
    blocks().forEach(a -> tested.add(Cidr.parse((String) a.get()[0])));
    assertThat(tested).containsAll(AddressPolicy.BLOCKS.stream().map(AddressPolicy.Block::cidr).toList());
  }

  /** Blocks the registries mark globally reachable although a blocked block contains them, and neighbours. */
  @ParameterizedTest
  @ValueSource(strings = {"192.0.0.9", "192.0.0.10", "192.31.196.1", "192.52.193.1", "192.175.48.1", "2001:1::1",
      "2001:1::2", "2001:1::3", "2001:3::1", "2001:4:112::1", "2001:20::1", "2001:2f:ffff::1", "2001:30::1",
      "2620:4f:8000::1", "2001:200::1", "64:ff9b::8.8.8.8"})
  void globallyReachableSpecialPurposeBlocksAreAllowed(String host) {
    assertThat(AddressPolicy.STRICT.refusedHost(host)).as(host).isNull();
  }

  /** IPv6 forms that carry an IPv4 address are refused when that address is. */
  @ParameterizedTest(name = "{0}: {1} refused, {2} allowed")
  @MethodSource("embedded")
  void anEmbeddedBlockedIpv4AddressIsRefusedInEveryIpv6Form(String form, String inside, String outside, String why) {
    assertThat(AddressPolicy.STRICT.refusedHost(inside)).as(inside).isNotNull().contains(why);
    assertThat(AddressPolicy.STRICT.refusedHost(outside)).as(outside).isNull();
  }

  static Stream<Arguments> embedded() {
    return Stream.of(
        row("IPv4-mapped ::ffff:0:0/96", "::ffff:192.0.0.192", "::ffff:192.0.1.0", "embeds 192.0.0.192"),
        row("IPv4-mapped ::ffff:0:0/96", "::ffff:c612:1", "::ffff:c614:1", "embeds 198.18.0.1, a benchmarking"),
        row("IPv4-translated ::ffff:0:0:0/96", "::ffff:0:203.0.113.9", "::ffff:0:203.0.114.9", "embeds 203.0.113.9"),
        row("IPv4-compatible ::/96", "::240.0.0.1", "::8.8.8.8", "embeds 240.0.0.1"),
        row("NAT64 64:ff9b::/96", "64:ff9b::192.0.2.1", "64:ff9b::192.0.3.1", "embeds 192.0.2.1"),
        row("NAT64 64:ff9b::/96", "64:ff9b::198.51.100.7", "64:ff9b::198.51.101.7", "TEST-NET-2"),
        row("6to4 2002::/16", "2002:c000:201::1", "2002:808:808::1", "embeds 192.0.2.1"),
        row("6to4 2002::/16", "2002:c612:1::", "2002:c614:1::", "benchmarking"),
        // Teredo: the client address is the last 32 bits inverted
        row("Teredo 2001::/32", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
            "embeds 192.0.2.45"));
  }
}
