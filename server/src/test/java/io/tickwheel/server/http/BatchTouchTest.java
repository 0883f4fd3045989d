package io.tickwheel.server.http;

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

/** {@code POST /v1/timers/touch} over real sockets. */
@ExtendWith(BlockedThreadGuard.class)
class BatchTouchTest {

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
  void touchesEveryIdWithOneStoreWriteAndAnswersInRequestOrder() {
    GatedStore store = new GatedStore();
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory"), store)) {
      for (String id : new String[] {"a", "b", "c"}) {
        assertThat(s.send(POST, "/v1/timers", "{\"id\":\"" + id + "\",\"delayMs\":600000}").statusCode()).isEqualTo(201);
      }
      long before = System.currentTimeMillis();
      HttpResponse<Buffer> r = s.send(POST, "/v1/timers/touch", "{\"ids\":[\"c\",\"missing\",\"a\",\"c\"],\"delayMs\":900000}");
      long after = System.currentTimeMillis();
      assertThat(r.statusCode()).isEqualTo(200);
      JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
      assertThat(results).hasSize(4);
      assertThat(results.getJsonObject(0).getString("id")).isEqualTo("c");
      assertThat(results.getJsonObject(0).getInteger("status")).isEqualTo(200);
      assertThat(results.getJsonObject(0).getLong("nextDueAt")).isBetween(before + 900_000, after + 900_000);
      assertThat(results.getJsonObject(1).getString("id")).isEqualTo("missing");
      assertThat(results.getJsonObject(1).getInteger("status")).isEqualTo(404);
      assertThat(results.getJsonObject(1).getJsonObject("error").getString("code")).isEqualTo("not_found");
      assertThat(results.getJsonObject(2).getString("id")).isEqualTo("a");
      assertThat(results.getJsonObject(2).getInteger("status")).isEqualTo(200);
      assertThat(results.getJsonObject(3)).as("a repeated id is touched once; each occurrence gets its result")
          .isEqualTo(results.getJsonObject(0));
      assertThat(store.updateAllCalls.get()).isEqualTo(1);
      assertThat(store.updateAllTimers.get()).isEqualTo(2);
      JsonObject c = s.send(GET, "/v1/timers/c").bodyAsJsonObject();
      assertThat(c.getLong("nextDueAt")).isEqualTo(results.getJsonObject(0).getLong("nextDueAt"));
      assertThat(s.send(GET, "/v1/timers/b").bodyAsJsonObject().getLong("nextDueAt")).as("b untouched")
          .isLessThan(before + 600_001);

      HttpResponse<Buffer> own = s.send(POST, "/v1/timers/touch", "{\"ids\":[\"b\"]}");
      assertThat(own.bodyAsJsonObject().getJsonArray("results").getJsonObject(0).getLong("nextDueAt"))
          .as("without delayMs: the timer's own delay").isGreaterThanOrEqualTo(before + 600_000);
    }
  }

  @Test
  void badBodiesAre400NamingTheField() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      HttpResponse<Buffer> badId = s.send(POST, "/v1/timers/touch", "{\"ids\":[\"ok\",\"ok2\",\"a b\"]}");
      assertThat(badId.statusCode()).isEqualTo(400);
      assertThat(error(badId).getString("field")).isEqualTo("ids[2]");
      assertThat(error(badId).getString("message")).contains("\"a b\"");
      HttpResponse<Buffer> notString = s.send(POST, "/v1/timers/touch", "{\"ids\":[7]}");
      assertThat(error(notString).getString("field")).isEqualTo("ids[0]");
      assertThat(error(s.send(POST, "/v1/timers/touch", "{\"ids\":[]}")).getString("field")).isEqualTo("ids");
      assertThat(error(s.send(POST, "/v1/timers/touch", "{}")).getString("field")).isEqualTo("ids");
      assertThat(error(s.send(POST, "/v1/timers/touch", "{\"ids\":[\"a\"],\"delayMs\":-1}")).getString("field"))
          .isEqualTo("delayMs");
      assertThat(error(s.send(POST, "/v1/timers/touch", "{\"ids\":[\"a\"],\"extra\":1}")).getString("field"))
          .isEqualTo("extra");
      JsonArray many = new JsonArray();
      for (int i = 0; i <= TimersApi.MAX_BATCH; i++) {
        many.add("k" + i);
      }
      HttpResponse<Buffer> tooMany = s.send(POST, "/v1/timers/touch", new JsonObject().put("ids", many));
      assertThat(tooMany.statusCode()).isEqualTo(400);
      assertThat(error(tooMany).getString("field")).isEqualTo("ids");
      assertThat(error(tooMany).getString("message")).contains("10000").contains("10001");
    }
  }
}
