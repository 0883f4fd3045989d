package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scheduler's store-failure outcomes as the HTTP edge answers them, over real sockets. */
@ExtendWith(BlockedThreadGuard.class)
class StoreDownTest {

  static final String DOWN = "the store is unavailable: store is down (test)";
  /** GatedStore's failures say "may have been applied", as a connection reset does. */
  static final String WRITE_DOWN =
      "the store is unavailable (the write may have been applied: read the timer before retrying): store is down (test)";

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static JsonObject error(HttpResponse<Buffer> r) {
    return r.bodyAsJsonObject().getJsonObject("error");
  }

  @Test
  void readsWritesAndBatchItemsAnswer503UnavailableWhileTheStoreIsDownAndServeAgainAfter() {
    GatedStore store = new GatedStore();
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory"), store)) {
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"k\",\"delayMs\":600000}").statusCode()).isEqualTo(201);
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"k3\",\"delayMs\":600000}").statusCode()).isEqualTo(201);
      store.down(true);
      for (HttpResponse<Buffer> r : new HttpResponse[] {s.send(GET, "/v1/timers/k"), s.send(GET, "/v1/timers")}) {
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(error(r).getString("code")).isEqualTo("unavailable");
        assertThat(error(r).getString("message")).isEqualTo(DOWN);
      }
      for (HttpResponse<Buffer> r : new HttpResponse[] {
          s.send(POST, "/v1/timers", "{\"id\":\"k2\",\"delayMs\":600000}"),
          s.send(POST, "/v1/timers/k/touch"),
          s.send(DELETE, "/v1/timers/k3")}) {   // another id: k is held until it is read back
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(error(r).getString("code")).isEqualTo("unavailable");
        assertThat(error(r).getString("message")).isEqualTo(WRITE_DOWN);
      }
      HttpResponse<Buffer> batch = s.send(POST, "/v1/timers/batch",
          "{\"timers\":[{\"id\":\"b1\",\"delayMs\":600000},{\"delayMs\":-1},{\"id\":\"k\",\"delayMs\":1}]}");
      assertThat(batch.statusCode()).isEqualTo(200);
      JsonArray results = batch.bodyAsJsonObject().getJsonArray("results");
      assertThat(results.getJsonObject(0).getInteger("status")).isEqualTo(503);
      assertThat(results.getJsonObject(0).getJsonObject("error").getString("message")).isEqualTo(WRITE_DOWN);
      assertThat(results.getJsonObject(1).getInteger("status")).isEqualTo(400);
      assertThat(results.getJsonObject(2).getInteger("status")).isEqualTo(409);
      assertThat(results.getJsonObject(2).getJsonObject("error").getString("code")).isEqualTo("already_exists");

      store.down(false);
      assertThat(s.send(GET, "/v1/timers/k").statusCode()).isEqualTo(200);
      assertThat(s.send(GET, "/v1/timers/k3").statusCode()).isEqualTo(200);
      assertThat(s.send(GET, "/v1/timers/b1").statusCode()).isEqualTo(404);
      assertThat(s.send(GET, "/v1/timers/b1").bodyAsJsonObject().getJsonObject("error").getString("message"))
          .isEqualTo("no timer with id \"b1\"");
    }
  }
}
