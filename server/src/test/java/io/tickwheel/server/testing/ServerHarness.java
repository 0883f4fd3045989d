package io.tickwheel.server.testing;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.store.rocksdb.RocksDbStoreOptions;
import io.tickwheel.store.rocksdb.RocksDbTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;

/**
 * The real server verticle on a free loopback port, with an in-memory store (or a given one) and the system clock,
 * plus a {@link WebClient} to it. Helper methods block the calling test thread (never call them on a Vert.x thread).
 * Every answer they return has been validated against the served OpenAPI document ({@link OpenApiValidator}); a
 * test that sends through {@link #client} or {@link #request} itself passes the answer to {@link #checked}.
 */
public final class ServerHarness implements AutoCloseable {

  public final Vertx vertx;
  public final TickwheelServer server;
  public final TimerStore store;
  public final WebClient client;
  public final int port;
  private final String deployment;
  private String token;
  private final io.vertx.core.Context context;

  private ServerHarness(Vertx vertx, ServerConfig cfg, TimerStore store) {
    this.vertx = vertx;
    this.store = store;
    this.server = new TickwheelServer(cfg.withPort(0), store, io.tickwheel.server.scheduler.FineClock.SYSTEM, null);
    this.deployment = TestVertx.await(vertx.deployVerticle(server));
    this.port = server.actualPort();
    this.client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    this.token = cfg.token();
    this.context = vertx.getOrCreateContext();
  }

  /** A server with {@code --store memory} defaults. */
  public static ServerHarness start(Vertx vertx) {
    return start(vertx, ServerConfig.defaults().withStore("memory"), new MemoryTimerStore());
  }

  /** A server with {@code cfg} on a RocksDB store opened in {@code dir} (reopen the same dir to restart it). */
  public static ServerHarness startOnRocksDb(Vertx vertx, ServerConfig cfg, Path dir) {
    return start(vertx, cfg, TestVertx.await(RocksDbTimerStore.open(vertx, new RocksDbStoreOptions().setDataDir(dir))));
  }

  public static ServerHarness start(Vertx vertx, ServerConfig cfg, TimerStore store) {
    return new ServerHarness(vertx, cfg, store);
  }

  /** Sends the bearer token (if the server has one) on every following request. */
  public ServerHarness withoutToken() {
    this.token = null;
    return this;
  }

  public HttpRequest<Buffer> request(HttpMethod m, String uri) {
    HttpRequest<Buffer> r = client.request(m, uri);
    if (token != null) {
      r.bearerTokenAuthentication(token);
    }
    return r;
  }

  public HttpResponse<Buffer> send(HttpMethod m, String uri) {
    return checked(m, uri, TestVertx.await(onContext(() -> request(m, uri).send())));
  }

  public HttpResponse<Buffer> send(HttpMethod m, String uri, String body) {
    return checked(m, uri, TestVertx.await(onContext(() ->
        request(m, uri).putHeader("content-type", "application/json").sendBuffer(Buffer.buffer(body)))));
  }

  /**
   * Makes {@code call} on the harness's context: Vert.x 5.0.10's pooled HTTP client, asked from a plain thread (the
   * test's), left about one request in ten thousand unwritten ({@code bench/.../HttpClientThreadProbe}).
   */
  private <T> io.vertx.core.Future<T> onContext(java.util.function.Supplier<io.vertx.core.Future<T>> call) {
    io.vertx.core.Promise<T> p = io.vertx.core.Promise.promise();
    context.runOnContext(v -> call.get().onComplete(p));
    return p.future();
  }

  /** Validates an answer to {@code m uri} against the served OpenAPI document; returns it. */
  public HttpResponse<Buffer> checked(HttpMethod m, String uri, HttpResponse<Buffer> r) {
    return OpenApiValidator.served().validate(m, uri, r);
  }

  public HttpResponse<Buffer> send(HttpMethod m, String uri, JsonObject body) {
    return send(m, uri, body.encode());
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    client.close();
    TestVertx.await(vertx.undeploy(deployment));
  }
}
