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
      "http://hooks.example.com./, http, hooks.example.com., 80",
      "http://xn--n3h.example/, http, xn--n3h.example, 80",
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
      "http://a_b.example.com/hook | host 'a_b.example.com' that is not a valid host name (it has the character '_'",
      "http://_dmarc.example/ | host '_dmarc.example'",
      "http://a..b.example/ | empty label",
      "http://-a.example/ | starts or ends with '-'",
      "http://a-.example/ | starts or ends with '-'",
      "http://a.example../ | empty label",
  })
  void refusesWhatIsNotAnHttpUrlWithAHost(String url, String reason) {
    assertThatThrownBy(() -> CallbackUrl.parse(url)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(reason);
  }

  @Test
  void refusesOverlongLabelsAndNames() {
    String label = "a".repeat(63);
    assertThat(CallbackUrl.parse("http://" + label + ".example/").host()).startsWith(label);
    assertThatThrownBy(() -> CallbackUrl.parse("http://" + label + "a.example/"))
        .hasMessageContaining("a label of 64 characters");
    String name = (label + ".").repeat(3) + "a".repeat(61);
    assertThat(CallbackUrl.parse("http://" + name + "/").host()).hasSize(253);
    assertThatThrownBy(() -> CallbackUrl.parse("http://" + name + "b/")).hasMessageContaining("254 characters");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "https://Hooks.Example.com/x/y?q=1&r=%20#frag | https://hooks.example.com:443 | /x/y?q=1&r=%20",
      "https://hooks.example.com:443 | https://hooks.example.com:443 | /",
      "http://[2001:DB8::1]:81?x | http://[2001:db8::1]:81 | /?x",
      "http://10.1.2.3:8080/h%2Fk | http://10.1.2.3:8080 | /h%2Fk",
  })
  void givesTheHostKeyAndTheRequestTarget(String url, String key, String target) {
    CallbackUrl u = CallbackUrl.parse(url);
    assertThat(u.hostKey()).isEqualTo(key);
    assertThat(u.target()).isEqualTo(target);
  }

  @Test
  void refusesAnOverlongUrl() {
    assertThatThrownBy(() -> CallbackUrl.parse("https://x.example/" + "a".repeat(2048)))
        .hasMessageContaining("2048");
  }
}
