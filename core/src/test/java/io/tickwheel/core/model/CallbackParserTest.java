package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.Cidr;
import java.util.List;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code callback} field of a timer definition, as {@link TimerParser} validates it. */
class CallbackParserTest {

  private static final long NOW = 1_800_000_000_000L;
  private final TimerParser parser = new TimerParser(Limits.defaults(10), true);

  private TimerSpec parse(String callbackJson) {
    return parser.parse(new JsonObject("{\"delayMs\":1000,\"callback\":" + callbackJson + "}"), NOW);
  }

  private void rejects(String callbackJson, String field, String messagePart) {
    assertThatThrownBy(() -> parse(callbackJson))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo(field);
          assertThat(e.getMessage()).contains(messagePart);
          assertThat(e.tooLarge()).isFalse();
        });
  }

  @Test
  void aUrlAloneGetsTheDefaults() {
    Callback c = parse("{\"url\":\"https://hooks.example.com/t\"}").callback();
    assertThat(c).isEqualTo(new Callback("https://hooks.example.com/t", 10_000, 8, 0, 0));
    assertThat(c.hasBackoff()).isFalse();
  }

  @Test
  void everyFieldIsTaken() {
    Callback c = parse("{\"url\":\"http://hooks.example.com:8080/t?a=b\",\"timeoutMs\":1000,\"maxAttempts\":20,"
        + "\"minBackoffMs\":100,\"maxBackoffMs\":86400000}").callback();
    assertThat(c).isEqualTo(new Callback("http://hooks.example.com:8080/t?a=b", 1000, 20, 100, 86_400_000));
  }

  @Test
  void aTimerWithoutCallbackHasNone() {
    assertThat(parser.parse(new JsonObject("{\"delayMs\":1}"), NOW).callback()).isNull();
  }

  @Test
  void theCallbackReachesTheAcceptedTimer() {
    TimerSpec spec = parse("{\"url\":\"https://hooks.example.com/t\",\"maxAttempts\":3}").withId("a");
    Timer t = Schedule.accept(spec, NOW, 1);
    assertThat(t.callback()).isEqualTo(new Callback("https://hooks.example.com/t", 10_000, 3, 0, 0));
    assertThat(t.touched(NOW + 5).callback()).isEqualTo(t.callback());
    assertThat(t.withPaused(true).callback()).isEqualTo(t.callback());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"https://x\" | callback | callback must be an object, was \"https://x\"",
      "{} | callback.url | callback.url is required",
      "{\"url\":5} | callback.url | callback.url must be a string, was 5",
      "{\"url\":\"ftp://x.example/\"} | callback.url | callback.url must use http or https, not ftp, was \"ftp://x.example/\"",
      "{\"url\":\"http://u:p@x.example/\"} | callback.url | must not carry user info",
      "{\"url\":\"http://x.example:70000/\"} | callback.url | was \"http://x.example:70000/\"",
      "{\"url\":\"http://a_b.example.com/hook\"} | callback.url | callback.url has a host 'a_b.example.com' that is not a valid host name (it has the character '_'",
      "{\"url\":\"http://x.example/\",\"timeoutMs\":999} | callback.timeoutMs | callback.timeoutMs must be between 1000 and 30000, was 999",
      "{\"url\":\"http://x.example/\",\"timeoutMs\":30001} | callback.timeoutMs | was 30001",
      "{\"url\":\"http://x.example/\",\"timeoutMs\":\"5s\"} | callback.timeoutMs | callback.timeoutMs must be an integer, was \"5s\"",
      "{\"url\":\"http://x.example/\",\"maxAttempts\":0} | callback.maxAttempts | callback.maxAttempts must be between 1 and 20, was 0",
      "{\"url\":\"http://x.example/\",\"maxAttempts\":21} | callback.maxAttempts | was 21",
      "{\"url\":\"http://x.example/\",\"minBackoffMs\":1000} | callback.maxBackoffMs | send both or neither",
      "{\"url\":\"http://x.example/\",\"maxBackoffMs\":1000} | callback.minBackoffMs | send both or neither",
      "{\"url\":\"http://x.example/\",\"minBackoffMs\":99,\"maxBackoffMs\":1000} | callback.minBackoffMs | callback.minBackoffMs must be between 100 and 86400000, was 99",
      "{\"url\":\"http://x.example/\",\"minBackoffMs\":2000,\"maxBackoffMs\":1000} | callback.maxBackoffMs | callback.maxBackoffMs must be between callback.minBackoffMs (2000) and 86400000, was 1000",
      "{\"url\":\"http://x.example/\",\"minBackoffMs\":1000,\"maxBackoffMs\":86400001} | callback.maxBackoffMs | was 86400001",
      "{\"url\":\"http://x.example/\",\"headers\":{}} | callback.headers | unknown field 'callback.headers'",
  })
  void badCallbacksAreRefusedNamingTheFieldAndTheValue(String json, String field, String message) {
    rejects(json, field, message);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "http://127.0.0.1:8080/ | 127.0.0.1 is a loopback address",
      "http://2130706433/ | 127.0.0.1 is a loopback address",
      "http://0x7f.1/ | 127.0.0.1 is a loopback address",
      "http://[::ffff:169.254.169.254]/ | embeds 169.254.169.254, a link-local address",
      "http://[fe80::1%25eth0]/ | a link-local address",
      "http://localhost:9000/ | localhost is a loopback name",
      "https://10.1.2.3/ | 10.1.2.3 is a private address",
  })
  void aLiteralPrivateHostIsRefusedNamingCallbackUrl(String url, String why) {
    assertThatThrownBy(() -> parse("{\"url\":\"" + url + "\"}"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo("callback.url");
          assertThat(e.getMessage()).contains(why).contains("--webhook-allow-private").contains(url);
        });
  }

  @Test
  void anInvalidNumericHostIsRefused() {
    rejects("{\"url\":\"http://1.2.3.456/\"}", "callback.url", "ends in a number but is not a valid IPv4 address");
  }

  @Test
  void thePolicyDecidesWhichLiteralHostsPass() {
    TimerParser open = new TimerParser(Limits.defaults(10), true, new AddressPolicy(true, List.of()));
    assertThat(open.parse(new JsonObject("{\"delayMs\":1,\"callback\":{\"url\":\"http://127.0.0.1:9/\"}}"), NOW).callback().url())
        .isEqualTo("http://127.0.0.1:9/");
    TimerParser cidr = new TimerParser(Limits.defaults(10), true,
        new AddressPolicy(false, List.of(Cidr.parse("10.1.0.0/16"))));
    assertThat(cidr.parse(new JsonObject("{\"delayMs\":1,\"callback\":{\"url\":\"http://10.1.0.9/\"}}"), NOW).callback())
        .isNotNull();
    assertThatThrownBy(() -> cidr.parse(new JsonObject("{\"delayMs\":1,\"callback\":{\"url\":\"http://10.2.0.9/\"}}"), NOW))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void theParserWithoutCalendarFieldsDoesNotKnowCallbacks() {
    TimerParser plain = new TimerParser(Limits.defaults(10));
    assertThatThrownBy(() -> plain.parse(new JsonObject("{\"delayMs\":1,\"callback\":{\"url\":\"http://x.example/\"}}"), NOW))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.field()).isEqualTo("callback"));
  }
}
