package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

  private static final AddressPolicy STRICT = AddressPolicy.STRICT;

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "127.0.0.1 | loopback",
      "127.255.255.254 | loopback",
      "2130706433 | loopback",
      "0x7f000001 | loopback",
      "0177.0.0.1 | loopback",
      "127.1 | loopback",
      "0 | this network",
      "0.1.2.3 | this network",
      "10.0.0.1 | private",
      "172.16.0.1 | private",
      "172.31.255.255 | private",
      "192.168.1.1 | private",
      "100.64.0.1 | carrier-grade NAT",
      "100.127.255.255 | carrier-grade NAT",
      "169.254.169.254 | link-local",
      "224.0.0.1 | multicast",
      "239.255.255.250 | multicast",
      "255.255.255.255 | broadcast",
      "240.0.0.1 | reserved",
      ":: | unspecified",
      "::1 | loopback",
      "fc00::1 | unique local",
      "fd12:3456::1 | unique local",
      "fe80::1%eth0 | link-local",
      "febf::1 | link-local",
      "fec0::1 | site-local",
      "ff02::1 | multicast",
      "::ffff:127.0.0.1 | embeds 127.0.0.1, a loopback address",
      "::ffff:7f00:1 | embeds 127.0.0.1",
      "::ffff:a9fe:a9fe | embeds 169.254.169.254, a link-local address",
      "::ffff:0:10.0.0.1 | embeds 10.0.0.1, a private",
      "::10.0.0.1 | embeds 10.0.0.1",
      "64:ff9b::127.0.0.1 | embeds 127.0.0.1",
      "64:ff9b::a00:1 | embeds 10.0.0.1",
      "64:ff9b:1:7f00:0:100:: | embeds 127.0.0.1",
      "2002:7f00:1::1 | embeds 127.0.0.1",
      "2002:c0a8:101:: | embeds 192.168.1.1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe | embeds 127.0.0.1",
  })
  void blocksLocalAndPrivateAddressesInEveryForm(String host, String why) {
    assertThat(STRICT.refusedHost(host)).as(host).isNotNull().contains(why);
  }

  @ParameterizedTest
  @ValueSource(strings = {"93.184.215.14", "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1",
      "100.63.255.255", "169.255.0.1", "223.255.255.255", "11.0.0.1", "2606:4700::1111", "::ffff:8.8.8.8",
      "64:ff9b::8.8.8.8", "2002:808:808::1", "2001:4860:4860::8888", "example.com", "hooks.example.com."})
  void allowsPublicAddressesAndLeavesNamesToTheResolver(String host) {
    assertThat(STRICT.refusedHost(host)).as(host).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "LOCALHOST", "api.localhost", "localhost."})
  void localhostNamesAreRefusedLikeLoopbackLiterals(String host) {
    assertThat(STRICT.refusedHost(host)).contains("loopback name");
  }

  @Test
  void allowPrivateAllowsEverything() {
    AddressPolicy open = new AddressPolicy(true, List.of());
    for (String h : List.of("127.0.0.1", "::1", "10.0.0.1", "169.254.169.254", "localhost", "::ffff:127.0.0.1")) {
      assertThat(open.refusedHost(h)).as(h).isNull();
    }
  }

  @Test
  void anAllowedBlockLetsItsAddressesAndTheirEmbeddedFormsThroughButNoOthers() {
    AddressPolicy p = new AddressPolicy(false, List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("fd00::/8")));
    assertThat(p.refusedHost("10.1.2.3")).isNull();
    assertThat(p.refusedHost("::ffff:10.1.2.3")).isNull();
    assertThat(p.refusedHost("fd00::5")).isNull();
    assertThat(p.refusedHost("10.2.0.1")).contains("private");
    assertThat(p.refusedHost("127.0.0.1")).contains("loopback");
    assertThat(p.refusedHost("fc00::1")).contains("unique local");
    assertThat(p.refusedHost("localhost")).as("a CIDR does not cover a name").contains("loopback name");
  }

  @Test
  void aHostThatIsNoValidAddressIsAnError() {
    assertThatThrownBy(() -> STRICT.refusedHost("1.2.3.999")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void blockedNamesTheAddressItChecked() {
    assertThat(STRICT.blocked(new byte[] {10, 0, 0, 7})).isEqualTo("10.0.0.7 is a private address");
    assertThat(STRICT.blocked(new byte[] {8, 8, 4, 4})).isNull();
  }
}
