package io.tickwheel.server.dispatch;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * A webhook receiver on a free loopback port, started by a test: it records every request it gets (headers, body,
 * arrival time) once its body has arrived, and answers it as the test says (the answer may be never, or a trickle).
 */
final class Receiver implements AutoCloseable {

  /** A request as received. */
  record Got(Map<String, List<String>> headers, String body, long arrivedNanos) {
    String header(String name) {
      List<String> v = headers.get(name.toLowerCase(java.util.Locale.ROOT));
      return v == null ? null : v.get(0);
    }
  }

  final int port;
  private final HttpServer server;
  private final List<Got> got = new ArrayList<>();

  /** @param answer given the request and its number (from 1), answers it (or does not) */
  Receiver(Vertx vertx, BiConsumer<HttpServerRequest, Integer> answer) throws Exception {
    server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
    server.requestHandler(req -> req.body().onSuccess(b -> {
      Map<String, List<String>> h = new HashMap<>();
      req.headers().forEach(e -> h.computeIfAbsent(e.getKey().toLowerCase(java.util.Locale.ROOT),
          k -> new ArrayList<>()).add(e.getValue()));
      int n;
      synchronized (got) {
        got.add(new Got(h, b.toString(), System.nanoTime()));
        n = got.size();
      }
      answer.accept(req, n);
    }));
    port = server.listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }

  /** Answers every request with {@code status}. */
  static BiConsumer<HttpServerRequest, Integer> always(int status) {
    return (req, n) -> req.response().setStatusCode(status).end();
  }

  /** Never answers. */
  static BiConsumer<HttpServerRequest, Integer> hang() {
    return (req, n) -> { };
  }

  String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  List<Got> got() {
    synchronized (got) {
      return List.copyOf(got);
    }
  }

  @Override
  public void close() {
    io.tickwheel.server.testing.TestVertx.await(server.close());
  }
}
