package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A client given several endpoints (a cluster's nodes) uses one at a time and moves on when it cannot connect. */
class EndpointsTest {

  private Vertx vertx;
  private ScriptedServer a;
  private ScriptedServer b;
  private TickwheelClient client;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    a = answering(new ScriptedServer(vertx));
    b = answering(new ScriptedServer(vertx));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) {
      await(client.close());
    }
    b.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static ScriptedServer answering(ScriptedServer s) {
    s.onMessage = (ws, c, m) -> ws.writeTextMessage(ScriptedServer.ok(m, 201, 0).encode());
    return s;
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  /** The call's result, made again (20 ms apart, for up to 10 s) while it fails. */
  private static <T> T untilAnswered(java.util.function.Supplier<Future<T>> call) {
    return Awaitility.await("an answer").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20)).ignoreExceptionsInstanceOf(java.util.concurrent.ExecutionException.class)
        .until(() -> await(call.get()), java.util.Objects::nonNull);
  }

  private static String refusingEndpoint() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort();   // closed again: connections to it are refused
    }
  }

  private static TimerRequest timer(String id) {
    return TimerRequest.builder().id(id).delayMs(60_000).build();
  }

  @Test
  void an_endpoint_that_refuses_connections_is_skipped_for_commands_batch_creates_and_batch_touches() throws Exception {
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setReconnectInitialBackoffMs(10)
        .setEndpoints(List.of(refusingEndpoint(), a.url())));
    assertThat(await(client.put(timer("p"))).id()).isEqualTo("p");
    assertThat(await(client.schedule(timer("s"))).id()).isEqualTo("s");
    assertThat(await(client.touch("t"))).isEqualTo(1L);
    assertThat(a.received).extracting(m -> m.getString("op")).containsExactly("put");
    assertThat(a.creates).hasSize(1);
    assertThat(a.batches).hasSize(1);
  }

  @Test
  void when_the_node_in_use_goes_away_every_later_call_goes_to_the_next_one() throws Exception {
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setReconnectInitialBackoffMs(10)
        .setEndpoints(List.of(a.url(), b.url())));
    assertThat(await(client.put(timer("p1"))).id()).isEqualTo("p1");
    assertThat(await(client.schedule(timer("s1"))).id()).isEqualTo("s1");
    a.close();                                              // the node and its connections are gone
    // a call made before the client saw the connection close may still be written to it and fail (never reaching a)
    assertThat(untilAnswered(() -> client.put(timer("p2"))).id()).isEqualTo("p2");
    assertThat(untilAnswered(() -> client.schedule(timer("s2"))).id()).isEqualTo("s2");
    assertThat(untilAnswered(() -> client.touch("t2"))).isEqualTo(1L);
    assertThat(a.received).extracting(m -> m.getJsonObject("timer").getString("id")).containsExactly("p1");
    assertThat(b.received).extracting(m -> m.getJsonObject("timer").getString("id")).containsExactly("p2");
    assertThat(a.creates).extracting(c -> c.getJsonArray("timers").getJsonObject(0).getString("id"))
        .containsExactly("s1");
    assertThat(b.creates).extracting(c -> c.getJsonArray("timers").getJsonObject(0).getString("id"))
        .containsExactly("s2");
    assertThat(b.batches).extracting(t -> t.getJsonArray("ids").getString(0)).containsExactly("t2");
  }

  @Test
  void the_endpoint_list_is_checked_entry_by_entry() {
    TickwheelClientOptions o = new TickwheelClientOptions();
    assertThatThrownBy(() -> o.setEndpoints(List.of("http://127.0.0.1:1", "ftp://x:2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("endpoints[1] must be http://HOST:PORT or https://HOST:PORT, was 'ftp://x:2'");
    assertThatThrownBy(() -> o.setEndpoints(List.of("http://a:1", "http://a:1/")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("endpoints[1] 'http://a:1' is given twice");
    assertThatThrownBy(() -> o.setEndpoints(List.of("http://a:1", "https://b:1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("endpoints[1] 'https://b:1' has another scheme than endpoints[0] 'http://a:1'");
    assertThatThrownBy(() -> o.setEndpoints(List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("endpoints must hold 1 to 64 endpoints, was 0 endpoints");
    assertThat(o.getEndpoints()).containsExactly(TickwheelClientOptions.DEFAULT_ENDPOINT);
    o.setEndpoints(List.of("http://a:1/", "http://b:2"));
    assertThat(o.getEndpoints()).containsExactly("http://a:1", "http://b:2");
    assertThat(o.getEndpoint()).isEqualTo("http://a:1");
    assertThat(new TickwheelClientOptions(o).getEndpoints()).containsExactly("http://a:1", "http://b:2");
    assertThat(o.setEndpoint("http://c:3").getEndpoints()).containsExactly("http://c:3");
  }
}
