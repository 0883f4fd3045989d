package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.ServerProcess;
import io.tickwheel.testkit.TestCertificates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client against the real server jar over TLS ({@code --tls-cert}/{@code --tls-key}, a certificate from a CA the
 * test makes): calls and a subscription over HTTPS/WSS with {@code trustedCertificates}; without it, the JVM's trust
 * store does not know the CA and nothing connects.
 */
class TickwheelClientTlsIT {

  @TempDir
  static Path tmp;
  private static Vertx vertx;
  private static ServerProcess server;
  private static TestCertificates certs;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    certs = TestCertificates.create(tmp.resolve("certs"));
    TestCertificates.Pair pair = certs.issue("client-test");
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--store", "memory", "--token", "tls-token",
            "--tls-cert", pair.cert().toString(), "--tls-key", pair.key().toString())
        .logs(tmp, "tls").startAndAwaitListening(Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  void callsAndSubscriptionsGoOverTlsVerifiedAgainstTheGivenCa() throws Exception {
    assertThat(server.baseUrl()).startsWith("https://127.0.0.1:");
    TickwheelClient client = TickwheelClient.create(vertx, new TickwheelClientOptions()
        .setEndpoint(server.baseUrl()).setToken("tls-token").setTrustedCertificates(certs.ca()));
    try {
      List<Firing> got = new CopyOnWriteArrayList<>();
      Subscription sub = client.subscribe(List.of("tls"), null, got::add);
      await(sub.subscribed());
      TimerInfo t = await(client.schedule(TimerRequest.builder().id("over-tls").topic("tls").delayMs(50).build()));
      assertThat(t.id()).isEqualTo("over-tls");
      Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> got.size() == 1);
      assertThat(got.get(0).id()).isEqualTo("over-tls");
      await(sub.close());
    } finally {
      await(client.close());
    }
  }

  @Test
  void withoutTheCaTheServerIsNotTrusted() throws Exception {
    TickwheelClient client = TickwheelClient.create(vertx, new TickwheelClientOptions()
        .setEndpoint(server.baseUrl()).setToken("tls-token").setRequestTimeoutMs(5_000));
    try {
      await(client.get("anything"));
      throw new AssertionError("a server whose CA the client does not trust was reached");
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TickwheelException.class);
      assertThat(((TickwheelException) e.getCause()).status()).isNotEqualTo(404);
    } finally {
      await(client.close());
    }
  }
}
