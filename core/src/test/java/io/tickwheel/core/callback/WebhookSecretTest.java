package io.tickwheel.core.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookSecretTest {

  private static String whsec(int bytes) {
    return "whsec_" + Base64.getEncoder().encodeToString(new byte[bytes]);
  }

  @Test
  void readsTheTextFormOf24To64Bytes() {
    assertThat(WebhookSecret.parse(whsec(24)).key()).hasSize(24);
    assertThat(WebhookSecret.parse(whsec(64)).key()).hasSize(64);
    assertThat(WebhookSecret.parse(whsec(32)).text()).isEqualTo(whsec(32));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw | must start with whsec_",
      "whsec_ | decodes to 0 bytes, must be 24..64",
      "whsec_not base64! | standard base64",
      "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_ | standard base64",
  })
  void refusesWhatIsNotASecretWithoutShowingIt(String text, String why) {
    assertThatThrownBy(() -> WebhookSecret.parse(text)).hasMessageContaining(why)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(text.length() > 6 ? text.substring(6) : "\u0000"));
  }

  @Test
  void refusesKeysShorterThan24OrLongerThan64Bytes() {
    assertThatThrownBy(() -> WebhookSecret.parse(whsec(23))).hasMessageContaining("decodes to 23 bytes");
    assertThatThrownBy(() -> WebhookSecret.parse(whsec(65))).hasMessageContaining("decodes to 65 bytes");
  }

  @Test
  void generatesA32ByteKeyInTheTextFormThatReadsBack() {
    WebhookSecret s = WebhookSecret.generate(new SecureRandom());
    assertThat(s.key()).hasSize(32);
    assertThat(s.text()).startsWith("whsec_");
    assertThat(WebhookSecret.parse(s.text())).isEqualTo(s);
    assertThat(WebhookSecret.generate(new SecureRandom())).isNotEqualTo(s);
    assertThat(s.toString()).doesNotContain(s.text().substring(6)).contains("32 bytes");
  }
}
