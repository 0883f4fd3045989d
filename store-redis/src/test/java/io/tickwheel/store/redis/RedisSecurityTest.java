package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.eventually;
import static io.tickwheel.store.redis.RedisTestSupport.failure;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.store.redis.impl.RedisLink;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Password (requirepass), TLS (rediss://), and secrets kept out of messages and logs. Real redis-server. */
class RedisSecurityTest {

  private static final String SECRET = "s3cret-Pa55";

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void aPasswordProtectedRedisWorksWithThePasswordInTheConnectionString() {
    try (RedisServerProcess redis = RedisServerProcess.start(SECRET)) {
      assertThat(redis.uri()).contains(SECRET);
      RedisTimerStore store = await(RedisTimerStore.open(vertx,
          new RedisStoreOptions().setConnectionString(redis.uri())));
      await(store.put(timer("auth", 100)));
      assertThat(await(store.get("auth")).id()).isEqualTo("auth");
      await(store.close());
    }
  }

  @Test
  void aWrongPasswordFailsOpenWithAMessageThatDoesNotContainIt() {
    try (RedisServerProcess redis = RedisServerProcess.start(SECRET)) {
      String wrong = "redis://:wrong-" + SECRET + "@127.0.0.1:" + redis.port();
      Throwable e = failure(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(wrong)));
      assertThat(e).isInstanceOf(StoreUnavailableException.class);
      assertThat(e.getMessage()).contains("redis://***@127.0.0.1:" + redis.port()).doesNotContain(SECRET);
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        assertThat(String.valueOf(c.getMessage())).doesNotContain(SECRET);
      }
    }
  }

  @Test
  void noPasswordFailsOpenAgainstAProtectedRedis() {
    try (RedisServerProcess redis = RedisServerProcess.start(SECRET)) {
      Throwable e = failure(RedisTimerStore.open(vertx,
          new RedisStoreOptions().setConnectionString("redis://127.0.0.1:" + redis.port())));
      assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("NOAUTH");
    }
  }

  @Test
  void logLinesAboutLostConnectionsNeverContainThePassword() {
    Logger jul = Logger.getLogger(RedisLink.class.getName());
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        lines.add(String.valueOf(r.getMessage()) + " " + List.of(r.getParameters() == null ? new Object[0]
            : r.getParameters()));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    jul.addHandler(capture);
    jul.setLevel(Level.ALL);
    try (RedisServerProcess redis = RedisServerProcess.start(SECRET)) {
      RedisTimerStore store = await(RedisTimerStore.open(vertx, new RedisStoreOptions()
          .setConnectionString(redis.uri()).setReconnectBackoffMs(20)));
      redis.command("CLIENT", "KILL", "TYPE", "normal");
      eventually(5_000, () -> store.get("x"));
      redis.command("SCRIPT", "FLUSH");
      await(store.put(timer("y", 1)));
      await(store.close());
    } finally {
      jul.removeHandler(capture);
    }
    assertThat(lines).isNotEmpty().anyMatch(l -> l.contains("connection lost"));
    assertThat(lines).noneMatch(l -> l.contains(SECRET));
  }

  @Test
  void optionsAndUrisMaskThePassword() {
    RedisStoreOptions o = new RedisStoreOptions().setConnectionString("redis://user:" + SECRET + "@h:1")
        .addClusterEndpoint("rediss://:" + SECRET + "@h2:2");
    assertThat(o.toString()).doesNotContain(SECRET).contains("redis://***@h:1").contains("rediss://***@h2:2");
    assertThat(RedisUris.mask("redis://:" + SECRET + "@127.0.0.1:6380/0")).isEqualTo("redis://***@127.0.0.1:6380/0");
    assertThat(RedisUris.mask("redis://127.0.0.1:6380")).isEqualTo("redis://127.0.0.1:6380");
    assertThatThrownBy(() -> new RedisStoreOptions().setConnectionString("http://:" + SECRET + "@h:1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connectionString").hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> new RedisStoreOptions().setKeyPrefix("a{b}"))
        .hasMessageContaining("keyPrefix").hasMessageContaining("a{b}");
  }

  @Test
  void tlsWithRedissAndATrustedCertificateWorks() throws Exception {
    Path certs = java.nio.file.Files.createTempDirectory("tickwheel-tls-");
    Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        "-keyout", certs.resolve("key.pem").toString(), "-out", certs.resolve("cert.pem").toString())
        .redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as("openssl made a certificate").isTrue();
    int tlsPort = RedisServerProcess.freePort(false);
    try (RedisServerProcess redis = RedisServerProcess.start(SECRET, "--tls-port", Integer.toString(tlsPort),
        "--tls-cert-file", certs.resolve("cert.pem").toString(),
        "--tls-key-file", certs.resolve("key.pem").toString(),
        "--tls-ca-cert-file", certs.resolve("cert.pem").toString(),
        "--tls-auth-clients", "no")) {
      RedisStoreOptions o = new RedisStoreOptions()
          .setConnectionString("rediss://:" + SECRET + "@127.0.0.1:" + tlsPort)
          .setNetClientOptions(new NetClientOptions()
              .setTrustOptions(new PemTrustOptions().addCertPath(certs.resolve("cert.pem").toString())));
      RedisTimerStore store = await(RedisTimerStore.open(vertx, o));
      await(store.put(timer("tls", 100)));
      assertThat(await(store.get("tls")).id()).isEqualTo("tls");
      await(store.close());
      // the same server without trusting its certificate: the TLS handshake fails, as unavailable
      Throwable e = failure(RedisTimerStore.open(vertx, new RedisStoreOptions()
          .setConnectionString("rediss://:" + SECRET + "@127.0.0.1:" + tlsPort)));
      assertThat(e).isInstanceOf(StoreUnavailableException.class);
      assertThat(e.getMessage()).doesNotContain(SECRET).containsIgnoringCase("certificat");
    } finally {
      try (var files = java.nio.file.Files.walk(certs)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
