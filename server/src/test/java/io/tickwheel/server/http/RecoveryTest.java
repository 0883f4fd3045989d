package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Start-up: /health and /v1 answer 503 while stored timers load; overdue ones fire right after. */
@ExtendWith(BlockedThreadGuard.class)
class RecoveryTest {

  Vertx vertx;

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  @Test
  void healthAndV1Answer503WhileRecoveringThenStoredTimersAreServedAndOverdueOnesFire() throws Exception {
    GatedStore store = new GatedStore();
    long now = System.currentTimeMillis();
    TestVertx.await(store.put(new Timer("overdue", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null,
        now - 60_000, now - 59_900, 0, 1)));
    TestVertx.await(store.put(new Timer("later", "default", Kind.ONCE, 3_600_000, 0, 0, Misfire.FIRE_ONCE, "{\"a\":1}",
        now, now + 3_600_000, 0, 1)));
    store.holdLoad();
    TickwheelServer server = new TickwheelServer(ServerConfig.defaults().withStore("memory").withPort(0), store,
        System::currentTimeMillis, null);
    Future<String> deployed = vertx.deployVerticle(server);
    Awaitility.await("the server listening").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
        .until(() -> server.actualPort() > 0);
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(server.actualPort()));
    HttpResponse<Buffer> health = valid("/health", TestVertx.await(client.get("/health").send()));
    assertThat(health.statusCode()).isEqualTo(503);
    assertThat(health.bodyAsJsonObject()).isEqualTo(new JsonObject().put("status", "recovering"));
    HttpResponse<Buffer> v1 = valid("/v1/timers/later", TestVertx.await(client.get("/v1/timers/later").send()));
    assertThat(v1.statusCode()).isEqualTo(503);
    assertThat(v1.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("unavailable");
    assertThat(deployed.isComplete()).isFalse();           // Main prints its listening line only after this

    store.releaseLoad();
    TestVertx.await(deployed);
    assertThat(valid("/health", TestVertx.await(client.get("/health").send())).statusCode()).isEqualTo(200);
    assertThat(valid("/v1/timers/later", TestVertx.await(client.get("/v1/timers/later").send())).bodyAsJsonObject().getJsonObject("payload"))
        .isEqualTo(new JsonObject().put("a", 1));
    int status = Awaitility.await("the overdue timer no longer there").atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
        .until(() -> valid("/v1/timers/overdue", TestVertx.await(client.get("/v1/timers/overdue").send())).statusCode(),
            st -> st != 200);
    assertThat(status).as("the overdue timer fired and ended").isEqualTo(404);
    assertThat(TestVertx.await(store.readFirings(0, 10))).extracting(f -> f.id()).containsExactly("overdue");
    client.close();
  }

  /** The answer, after validating it against the served OpenAPI document. */
  private static HttpResponse<Buffer> valid(String uri, HttpResponse<Buffer> r) {
    return OpenApiValidator.served().validate(io.vertx.core.http.HttpMethod.GET, uri, r);
  }
}
