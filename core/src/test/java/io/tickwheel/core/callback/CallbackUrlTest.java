package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallbackUrlTest {

  @ParameterizedTest
  @CsvSource({
      "https://hooks.example.com/x?y=1, https, hooks.example.com, 443",
      "HTTP://Hooks.Example.COM:8080, http, hooks.example.com, 8080",
      "http://[2001:DB8::1]:81/p, http, 2001:db8::1, 81",
      "http://[fe80::1%25eth0]/, http, fe80::1%eth0, 80",
      "http://2130706433/, http, 2130706433, 80",
      "http://0x7f.1:9/, http, 0x7f.1, 9",
      "http://under_score.example/, http, under_score.example, 80",
  })
  void takesAnHttpUrlApart(String url, String scheme, String host, int port) {
    CallbackUrl u = CallbackUrl.parse(url);
    assertThat(u.scheme()).isEqualTo(scheme);
    assertThat(u.host()).isEqualTo(host);
    assertThat(u.port()).isEqualTo(port);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "ftp://x.example/ | must use http or https, not ftp",
      "/relative | must be an absolute http or https URL",
      "http:///nohost | must name a host",
      "http://user:pw@x.example/ | must not carry user info",
      "http://x.example:0/ | port",
      "http://x.example:65536/ | port",
      "http://x.example:8o/ | port",
      "http://exa mple/ | is not a valid URL",
      "http://ünï.example/ | xn--",
      "http://[::1/ | not a valid URL",
      "http://[v1.x]/ | is not a valid URL",
  })
  void refusesWhatIsNotAnHttpUrlWithAHost(String url, String reason) {
    assertThatThrownBy(() -> CallbackUrl.parse(url)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(reason);
  }

  @Test
  void refusesAnOverlongUrl() {
    assertThatThrownBy(() -> CallbackUrl.parse("https://x.example/" + "a".repeat(2048)))
        .hasMessageContaining("2048");
  }
}
