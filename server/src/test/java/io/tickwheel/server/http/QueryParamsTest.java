package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A query parameter a /v1 route does not take is refused, naming it, and the request changes nothing. */
@ExtendWith(BlockedThreadGuard.class)
class QueryParamsTest {

  static Vertx vertx;
  ServerHarness s;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void start() {
    s = ServerHarness.start(vertx);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private static JsonObject error(HttpResponse<Buffer> r) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(400);
    JsonObject e = r.bodyAsJsonObject().getJsonObject("error");
    assertThat(e.getString("code")).isEqualTo("invalid_argument");
    return e;
  }

  @Test
  void aMisspeltListParameterIsRefusedNamingItAndWhatTheRouteTakes() {
    JsonObject e = error(s.send(GET, "/v1/timers?topics=billing"));
    assertThat(e.getString("field")).isEqualTo("topics");
    assertThat(e.getString("message"))
        .isEqualTo("unknown query parameter 'topics' (GET /v1/timers takes cursor, limit, topic)");
    assertThat(s.send(GET, "/v1/timers?topic=billing&limit=5&cursor=").statusCode()).isEqualTo(200);
    assertThat(error(s.send(GET, "/v1/events?topics=billing")).getString("field")).isEqualTo("topics");
    assertThat(error(s.send(GET, "/v1/deliveries?state=dead&page=2")).getString("field")).isEqualTo("page");
  }

  @Test
  void aWriteWithAQueryParameterIsRefusedAndWritesNothing() {
    assertThat(error(s.send(POST, "/v1/timers?dryRun=true", "{\"id\":\"q-1\",\"topic\":\"t\",\"delayMs\":60000}"))
        .getString("message")).isEqualTo("unknown query parameter 'dryRun' (POST /v1/timers takes none)");
    assertThat(s.send(GET, "/v1/timers/q-1").statusCode()).isEqualTo(404);

    JsonObject created = s.send(POST, "/v1/timers", "{\"id\":\"q-1\",\"topic\":\"t\",\"delayMs\":60000}")
        .bodyAsJsonObject();
    assertThat(error(s.send(POST, "/v1/timers/q-1/touch?delayMs=1000")).getString("field")).isEqualTo("delayMs");
    assertThat(error(s.send(PUT, "/v1/timers/q-1?x=1", "{\"topic\":\"u\",\"delayMs\":5000}")).getString("field"))
        .isEqualTo("x");
    assertThat(error(s.send(DELETE, "/v1/timers/q-1?force=1")).getString("field")).isEqualTo("force");
    assertThat(error(s.send(POST, "/v1/topics/t/pause?all=1")).getString("field")).isEqualTo("all");
    assertThat(s.send(GET, "/v1/timers/q-1").bodyAsJsonObject()).as("untouched, unreplaced, not deleted")
        .isEqualTo(created);
    assertThat(s.send(GET, "/v1/topics?topic=t").bodyAsJsonObject().getJsonArray("topics").getJsonObject(0)
        .getBoolean("paused")).isFalse();
  }

  @Test
  void routesWithoutParametersRefuseAnyAndOtherPathsAreLeftToTheRouter() {
    assertThat(error(s.send(GET, "/v1/wheel?x=1")).getString("message"))
        .isEqualTo("unknown query parameter 'x' (GET /v1/wheel takes none)");
    assertThat(s.send(GET, "/v1/wheel?").statusCode()).as("an empty query").isEqualTo(200);
    assertThat(s.send(GET, "/v1/no-such-route?x=1").statusCode()).isEqualTo(404);
    assertThat(s.send(GET, "/health?x=1").statusCode()).as("outside /v1: not checked").isEqualTo(200);
  }
}
