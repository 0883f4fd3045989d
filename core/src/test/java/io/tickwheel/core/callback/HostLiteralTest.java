package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HostLiteralTest {

  private static String text(byte[] b) throws Exception {
    return InetAddress.getByAddress(b).getHostAddress();
  }

  @ParameterizedTest
  @CsvSource({
      "127.0.0.1, 127.0.0.1",
      "2130706433, 127.0.0.1",
      "0x7f000001, 127.0.0.1",
      "0X7F000001, 127.0.0.1",
      "0177.0.0.1, 127.0.0.1",
      "0177.0000.0000.0001, 127.0.0.1",
      "127.1, 127.0.0.1",
      "127.0.1, 127.0.0.1",
      "0x7f.1, 127.0.0.1",
      "0x7f.0.0.0x1, 127.0.0.1",
      "017700000001, 127.0.0.1",
      "127.0.0.1., 127.0.0.1",
      "0, 0.0.0.0",
      "0x, 0.0.0.0",
      "10.0x10.0377.1, 10.16.255.1",
      "4294967295, 255.255.255.255",
      "1.2.65535, 1.2.255.255",
      "1.16777215, 1.255.255.255",
  })
  void readsEveryIpv4FormBrowsersAndCurlRead(String host, String expected) throws Exception {
    assertThat(text(HostLiteral.parse(host))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "::1 | 0:0:0:0:0:0:0:1",
      ":: | 0:0:0:0:0:0:0:0",
      "fe80::1%eth0 | fe80:0:0:0:0:0:0:1",
      "fe80::1%25 | fe80:0:0:0:0:0:0:1",
      "1:2:3:4:5:6:7:8 | 1:2:3:4:5:6:7:8",
      "1::8 | 1:0:0:0:0:0:0:8",
      "1:2:3:4:5:6:7:: | 1:2:3:4:5:6:7:0",
      "::2:3:4:5:6:7:8 | 0:2:3:4:5:6:7:8",
      "64:ff9b::7f00:1 | 64:ff9b:0:0:0:0:7f00:1",
      "64:ff9b::127.0.0.1 | 64:ff9b:0:0:0:0:7f00:1",
      "::127.0.0.1 | 0:0:0:0:0:0:7f00:1",
      "2002:7f00:1:: | 2002:7f00:1:0:0:0:0:0",
  })
  void readsIpv6WithCompressionEmbeddedIpv4AndZones(String host, String expected) throws Exception {
    byte[] b = HostLiteral.parse(host);
    assertThat(b).hasSize(16);
    assertThat(java.net.Inet6Address.getByAddress(null, b, null).getHostAddress()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.2.3.4..", "00x1", "1.2.3.-1", "localhost", "example.com", "a.b.c.d.e", "1.2.3.4.example", "0x7g.example", "xn--nxasmq6b",
      "1a", "0xg", "under_score", "example.com."})
  void aHostThatDoesNotEndInANumberIsAName(String host) {
    assertThat(HostLiteral.parse(host)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.2.3.4.5", "256.0.0.1", "1.2.3.256", "4294967296", "0x100000000", "1.2.3.08", "09",
      "1..2", ".1", "1.16777216", "example.0x1g.1", "0x1g.0x1"})
  void aHostThatEndsInANumberButIsNoAddressIsInvalid(String host) {
    assertThatThrownBy(() -> HostLiteral.parse(host)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IPv4");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1:2:3:4:5:6:7:8:9", "1::2::3", ":1", "1:", "12345::", "::1.2.3", "::1.2.3.4.5",
      "::01.2.3.4", "::256.1.1.1", "g::", "1:2:3:4:5:6:7:1.2.3.4", "fe80::1%", "fe80::1%a b"})
  void aBadIpv6LiteralIsInvalid(String host) {
    assertThatThrownBy(() -> HostLiteral.parse(host)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("IPv6");
  }
}
