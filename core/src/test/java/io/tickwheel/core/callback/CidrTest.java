package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CidrTest {

  @Test
  void containsExactlyTheAddressesOfItsBlock() {
    Cidr c = Cidr.parse("172.16.0.0/12");
    assertThat(c.contains(HostLiteral.parse("172.16.0.0"))).isTrue();
    assertThat(c.contains(HostLiteral.parse("172.31.255.255"))).isTrue();
    assertThat(c.contains(HostLiteral.parse("172.32.0.0"))).isFalse();
    assertThat(c.contains(HostLiteral.parse("172.15.255.255"))).isFalse();
    assertThat(c.contains(HostLiteral.parse("::ffff:172.16.0.1"))).as("other family").isFalse();
    Cidr v6 = Cidr.parse("fd00:1::/33");
    assertThat(v6.contains(HostLiteral.parse("fd00:1:7fff::1"))).isTrue();
    assertThat(v6.contains(HostLiteral.parse("fd00:1:8000::1"))).isFalse();
    assertThat(Cidr.parse("0.0.0.0/0").contains(HostLiteral.parse("8.8.8.8"))).isTrue();
    assertThat(Cidr.parse("192.0.2.7").contains(HostLiteral.parse("192.0.2.7"))).isTrue();
    assertThat(Cidr.parse("192.0.2.7").contains(HostLiteral.parse("192.0.2.8"))).isFalse();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "10.0.0.1/8 | host bits set; did you mean 10.0.0.0/8?",
      "10.0.0.0/33 | prefix length",
      "10.0.0.0/ | prefix length",
      "fd00::/129 | prefix length",
      "10.1/16 | not an address block",
      "0x0a.0.0.0/8 | not an address block",
      "010.0.0.0/8 | not an address block",
      "example.com/8 | not an address block",
      "fd00::1/8 | did you mean fd00:0:0:0:0:0:0:0/8?",
  })
  void refusesWhatIsNotAnAddressBlockSayingWhy(String text, String why) {
    assertThatThrownBy(() -> Cidr.parse(text)).hasMessageContaining(why);
  }

  @Test
  void equalBlocksAreEqual() {
    assertThat(Cidr.parse("10.0.0.0/8")).isEqualTo(Cidr.parse(" 10.0.0.0/8 ")).hasSameHashCodeAs(Cidr.parse("10.0.0.0/8"));
    assertThat(Cidr.parse("10.0.0.0/8").toString()).isEqualTo("10.0.0.0/8");
  }
}
