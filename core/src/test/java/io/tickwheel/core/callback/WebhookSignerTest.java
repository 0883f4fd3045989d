package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

  /** The specification's published test vector (the reference libraries' sign test). */
  private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  private static final long SPEC_TIMESTAMP = 1614265330;
  private static final String SPEC_BODY = "{\"test\": 2432232314}";
  private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

  @Test
  void signsTheSpecificationsTestVector() {
    WebhookSigner signer = new WebhookSigner(WebhookSecret.parse(SPEC_SECRET));
    assertThat(signer.sign(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)).isEqualTo(SPEC_SIGNATURE);
    assertThat(signer.sign(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(SPEC_SIGNATURE);
  }

  @Test
  void theOfficialJavaVerifierAcceptsOurSignaturesOfAGeneratedSecret() throws Exception {
    WebhookSecret secret = WebhookSecret.generate(new SecureRandom());
    String body = "{\"type\":\"fired\",\"seq\":7,\"id\":\"a:b\",\"payload\":{\"msg\":\"h\u00e9llo \u2603\"}}";
    String id = "tw_1700000000000_a:b_7";
    long now = Instant.now().getEpochSecond();  // the verifier checks the timestamp against its own clock (±5 min)
    String sig = new WebhookSigner(secret).sign(id, now, body);
    Webhook verifier = new Webhook(secret.text());
    assertThatNoException().isThrownBy(() -> verifier.verify(body, headers(id, now, sig)));
    assertThatThrownBy(() -> verifier.verify(body + " ", headers(id, now, sig)))
        .as("another body").isInstanceOf(WebhookVerificationException.class);
    assertThatThrownBy(() -> verifier.verify(body, headers(id + "x", now, sig)))
        .as("another id").isInstanceOf(WebhookVerificationException.class);
    assertThatThrownBy(() -> new Webhook(WebhookSecret.generate(new SecureRandom()).text())
        .verify(body, headers(id, now, sig))).as("another secret").isInstanceOf(WebhookVerificationException.class);
  }

  @Test
  void theOfficialJavaSignerAgreesWithOursOnAConfiguredSecret() throws Exception {
    WebhookSecret secret = WebhookSecret.parse("whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[64]));
    String body = "[1,2,3]";
    assertThat(new WebhookSigner(secret).sign("m1", 1_800_000_000L, body))
        .isEqualTo(new Webhook(secret.text()).sign("m1", 1_800_000_000L, body));
  }

  private static Map<String, List<String>> headers(String id, long ts, String sig) {
    return Map.of(WebhookSigner.ID, List.of(id), WebhookSigner.TIMESTAMP, List.of(Long.toString(ts)),
        WebhookSigner.SIGNATURE, List.of(sig));
  }
}
