package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The single HTTP writes ({@code POST /v1/timers}, {@code PUT}, touch) go through the scheduler's group commit, as the
 * WebSocket's commands do, so those of one event-loop turn share a store write; the batch calls write at once. One
 * call at a time here: each is its turn's only write, counted on the store and the scheduler.
 */
@ExtendWith(BlockedThreadGuard.class)
class SingleWritesTurnTest {

  static Vertx vertx;
  ServerHarness s;
  GatedStore store;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @AfterEach
  void stop() {
    if (s != null) {
      s.close();
    }
  }

  long groupCommits() {
    return s.server.scheduler().pipelineStoreWrites();
  }

  @Test
  void singleWritesJoinTheTurnsGroupCommitAndBatchesDoNot() {
    store = new GatedStore();
    s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory"), store);

    assertThat(s.send(POST, "/v1/timers", "{\"id\":\"a\",\"delayMs\":60000}").statusCode()).isEqualTo(201);
    assertThat(groupCommits()).isEqualTo(1);
    assertThat(store.createAllCalls.get()).isEqualTo(1);

    assertThat(s.send(PUT, "/v1/timers/b", "{\"delayMs\":60000}").statusCode()).isEqualTo(201);
    assertThat(s.send(PUT, "/v1/timers/a", "{\"delayMs\":90000}").statusCode()).isEqualTo(200);
    assertThat(groupCommits()).isEqualTo(3);

    io.vertx.ext.web.client.HttpResponse<io.vertx.core.buffer.Buffer> touched =
        s.send(POST, "/v1/timers/a/touch", "{\"delayMs\":120000}");
    assertThat(touched.statusCode()).isEqualTo(200);
    assertThat(groupCommits()).isEqualTo(4);
    assertThat(store.updateAllCalls.get()).isEqualTo(1);

    assertThat(s.send(POST, "/v1/timers/batch", "{\"timers\":[{\"id\":\"c\",\"delayMs\":60000},"
        + "{\"id\":\"d\",\"delayMs\":60000}]}").statusCode()).isEqualTo(200);
    assertThat(groupCommits()).as("a batch is its own store write").isEqualTo(4);
    assertThat(store.createAllCalls.get()).isEqualTo(2);

    assertThat(s.send(DELETE, "/v1/timers/c").statusCode()).isEqualTo(204);
    assertThat(s.send(GET, "/v1/timers/c").statusCode()).isEqualTo(404);
    assertThat(s.send(GET, "/v1/timers/a").bodyAsJsonObject().getLong("nextDueAt"))
        .isEqualTo(touched.bodyAsJsonObject().getLong("nextDueAt"));
  }
}
