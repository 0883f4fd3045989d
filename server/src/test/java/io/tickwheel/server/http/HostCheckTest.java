package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which {@code Host} headers a server without a token answers (bound to {@code my-box}, advertised as tw.internal). */
class HostCheckTest {

  static final HostCheck CHECK = new HostCheck("my-box", "http://tw.internal:8080");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "localhost | true", "localhost:8080 | true", "LOCALHOST. | true", "console.localhost:9 | true",
      "127.0.0.1 | true", "127.0.0.1:1 | true", "127.5.6.7:8080 | true", "[::1]:8080 | true", "[::1] | true",
      "[::ffff:127.0.0.1]:80 | true", "0.0.0.0:8080 | true", "[::]:8080 | true",
      "my-box:8080 | true", "MY-BOX | true", "tw.internal:8080 | true", "tw.internal:9999 | true",
      "attacker.example:8080 | false", "127.0.0.1.nip.io | false", "localhost.attacker.example | false",
      "my-box.attacker.example | false", "10.0.0.1:8080 | false", "[::2]:8080 | false", "192.168.1.1 | false",
      "128.0.0.1 | false", "'' | false", ":8080 | false", "[::1 | false"})
  void answersOnlyNamesOfThisServer(String host, boolean allowed) {
    assertThat(CHECK.allows(host)).isEqualTo(allowed);
  }

  @ParameterizedTest
  @CsvSource({"127.0.0.2, 127.0.0.2:8080, true", "::1, [::1]:80, true", "localhost, 127.0.0.1, true",
      "127.0.0.1, other, false"})
  void theBoundHostIsANameOfThisServer(String bound, String host, boolean allowed) {
    assertThat(new HostCheck(bound, null).allows(host)).isEqualTo(allowed);
  }
}
