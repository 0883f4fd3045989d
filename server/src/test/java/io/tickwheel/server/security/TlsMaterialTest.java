package io.tickwheel.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.testkit.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM files as {@code --tls-cert}/{@code --tls-key}/{@code --tls-ca} take them, made with openssl and keytool. */
class TlsMaterialTest {

  @TempDir
  static Path dir;
  static TestCertificates certs;
  static TestCertificates.Pair good;
  static TestCertificates.Pair other;

  @BeforeAll
  static void make() {
    certs = TestCertificates.create(dir);
    good = certs.issue("first");
    other = certs.issue("second");
  }

  @Test
  void aCertificateAndItsKeyLoad() throws Exception {
    TlsMaterial m = TlsMaterial.load(good.cert(), good.key(), Instant.now());
    assertThat(m.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=first");
    assertThat(m.describe()).contains("CN=first").doesNotContain("PRIVATE");
    assertThat(TlsMaterial.trust(certs.ca()).getCertValues()).hasSize(1);
  }

  @Test
  void theKeyOfAnotherCertificateIsRefusedNamingTheKeyFlag() {
    assertThatThrownBy(() -> TlsMaterial.load(good.cert(), other.key(), Instant.now()))
        .isInstanceOfSatisfying(TlsMaterial.Invalid.class, e -> assertThat(e.flag).isEqualTo("--tls-key"))
        .hasMessageContaining(other.key().toString()).hasMessageContaining("is not the key of the certificate")
        .hasMessageContaining("CN=first");
  }

  @Test
  void anExpiredCertificateIsRefusedSayingWhenItExpired() {
    TestCertificates.Pair expired = certs.expired();
    assertThatThrownBy(() -> TlsMaterial.load(expired.cert(), expired.key(), Instant.now()))
        .isInstanceOfSatisfying(TlsMaterial.Invalid.class, e -> assertThat(e.flag).isEqualTo("--tls-cert"))
        .hasMessageContaining("expired at");
    // and one not valid yet
    assertThatThrownBy(() -> TlsMaterial.load(good.cert(), good.key(), Instant.now().minusSeconds(3 * 86400)))
        .hasMessageContaining("not valid before");
  }

  @Test
  void missingUnreadableAndNonPemFilesAreRefusedNamingTheFlagAndFile() throws Exception {
    Path missing = dir.resolve("nope.key");
    assertThatThrownBy(() -> TlsMaterial.load(good.cert(), missing, Instant.now()))
        .hasMessage("--tls-key " + missing + " does not exist");
    Path text = Files.writeString(dir.resolve("text.pem"), "hello\n");
    assertThatThrownBy(() -> TlsMaterial.load(text, good.key(), Instant.now()))
        .hasMessageContaining("--tls-cert " + text).hasMessageContaining("holds no PEM certificate");
    assertThatThrownBy(() -> TlsMaterial.load(good.cert(), text, Instant.now()))
        .hasMessageContaining("--tls-key " + text).hasMessageContaining("is not a PEM private key");
    Path broken = Files.writeString(dir.resolve("broken.crt"),
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    assertThatThrownBy(() -> TlsMaterial.load(broken, good.key(), Instant.now()))
        .hasMessageContaining("--tls-cert " + broken).hasMessageContaining("not a readable PEM certificate");
    assertThatThrownBy(() -> TlsMaterial.trust(text)).hasMessageContaining("--tls-ca " + text);
  }
}
