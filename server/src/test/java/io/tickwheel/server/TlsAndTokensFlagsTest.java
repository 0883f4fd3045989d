package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.testkit.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --tls-cert}, {@code --tls-key}, {@code --tls-ca} and {@code --tokens-file} as the command line checks them. */
class TlsAndTokensFlagsTest {

  @TempDir
  static Path dir;
  static TestCertificates certs;
  static TestCertificates.Pair pair;
  static TestCertificates.Pair other;

  @BeforeAll
  static void make() {
    certs = TestCertificates.create(dir);
    pair = certs.issue("flags");
    other = certs.issue("other");
  }

  static ServerConfig parse(String... args) {
    return ServerCli.config(args, Map.of());
  }

  @Test
  void bothTlsFilesMakeAnHttpsServer() {
    ServerConfig c = parse("--tls-cert", pair.cert().toString(), "--tls-key", pair.key().toString(),
        "--tls-ca", certs.ca().toString());
    assertThat(c.tls().enabled()).isTrue();
    assertThat(c.tls().ca()).isEqualTo(certs.ca());
    assertThat(c.url(8443)).isEqualTo("https://127.0.0.1:8443");
    assertThat(ServerConfig.defaults().url(80)).isEqualTo("http://127.0.0.1:80");
  }

  @Test
  void oneWithoutTheOtherNamesTheMissingOne() {
    assertThatThrownBy(() -> parse("--tls-cert", pair.cert().toString())).isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("--tls-key is missing: flag --tls-cert '" + pair.cert() + "' needs its private key");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_TLS_KEY", pair.key().toString())))
        .hasMessageStartingWith("--tls-cert is missing: environment variable TICKWHEEL_TLS_KEY '" + pair.key() + "'");
  }

  @Test
  void filesThatDoNotHoldWhatTheFlagNeedsNameTheFlagAndTheFile() throws Exception {
    Path missing = dir.resolve("missing.key");
    assertThatThrownBy(() -> parse("--tls-cert", pair.cert().toString(), "--tls-key", missing.toString()))
        .hasMessage("flag --tls-key '" + missing + "' does not exist");
    assertThatThrownBy(() -> parse("--tls-cert", pair.cert().toString(), "--tls-key", other.key().toString()))
        .hasMessageStartingWith("flag --tls-key '" + other.key() + "' is not the key of the certificate");
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not pem");
    assertThatThrownBy(() -> parse("--tls-cert", junk.toString(), "--tls-key", pair.key().toString()))
        .hasMessageStartingWith("flag --tls-cert '" + junk + "' holds no PEM certificate");
    assertThatThrownBy(() -> parse("--tls-ca", junk.toString()))
        .hasMessageStartingWith("flag --tls-ca '" + junk + "' holds no PEM certificate");
    TestCertificates.Pair expired = certs.expired();
    assertThatThrownBy(() -> parse("--tls-cert", expired.cert().toString(), "--tls-key", expired.key().toString()))
        .hasMessageStartingWith("flag --tls-cert '" + expired.cert() + "' holds a certificate that expired at");
  }

  @Test
  void aTokensFileIsCheckedLineByLineAndCountsAsATokenForNonLoopbackHosts() throws Exception {
    Path good = Files.writeString(dir.resolve("tokens"), "read r1\nadmin a1\n");
    ServerConfig c = parse("--tokens-file", good.toString(), "--host", "0.0.0.0");
    assertThat(c.tokensFile()).isEqualTo(good);
    assertThat(c.tokensRequired()).isTrue();
    assertThat(c.toString()).doesNotContain("r1").doesNotContain("a1\n");
    Path bad = Files.writeString(dir.resolve("bad-tokens"), "read r1\nsuper s3cret\n");
    assertThatThrownBy(() -> parse("--tokens-file", bad.toString()))
        .hasMessage("flag --tokens-file '" + bad + "' line 2: unknown role 'super': must be read, write or admin");
    Path none = dir.resolve("no-such-tokens");
    assertThatThrownBy(() -> parse("--tokens-file", none.toString()))
        .hasMessageStartingWith("flag --tokens-file '" + none + "' cannot be read");
    assertThatThrownBy(() -> parse("--host", "0.0.0.0")).hasMessageContaining("--tokens-file");
    // a cluster's nodes call each other with an admin token
    Path readOnly = Files.writeString(dir.resolve("read-only-tokens"), "read r1\nwrite w1\n");
    assertThatThrownBy(() -> parse("--store", "redis", "--cluster", "--tokens-file", readOnly.toString()))
        .hasMessageStartingWith("flag --tokens-file '" + readOnly + "' has no admin token");
    assertThat(parse("--store", "redis", "--cluster", "--tokens-file", readOnly.toString(), "--token", "adm")
        .tokensFile()).isEqualTo(readOnly);
  }
}
