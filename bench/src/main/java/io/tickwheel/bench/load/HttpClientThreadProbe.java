package io.tickwheel.bench.load;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Why the Java client makes every HTTP request on its own context: sequential GETs over Vert.x's pooled HTTP/1
 * client (8 connections, keep-alive) to a local Vert.x server that answers at once, made either straight from a plain
 * thread ({@code thread}) or on one Vert.x context ({@code context}). Counts the requests with no answer within 5 s
 * (on Vert.x 5.0.10 here, made from a plain thread, a few in 20,000 were never written to any connection: the
 * client's own test once waited 60 s for a {@code get}). Not a benchmark: a yes/no probe, rerun after a Vert.x
 * upgrade.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar io.tickwheel.bench.load.HttpClientThreadProbe [requests]
 * [thread|context]} (defaults 20000, thread); prints {@code requests=N mode=M unanswered=K}.
 */
public final class HttpClientThreadProbe {

  private HttpClientThreadProbe() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    boolean onContext = args.length > 1 && args[1].equals("context");
    Vertx vertx = Vertx.vertx();
    try {
      HttpServer server = vertx.createHttpServer().requestHandler(r -> r.response().end("{\"id\":1}"))
          .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      HttpClientAgent http = vertx.createHttpClient(new HttpClientOptions(), new PoolOptions().setHttp1MaxSize(8));
      Context context = vertx.getOrCreateContext();
      RequestOptions get = new RequestOptions().setMethod(HttpMethod.GET)
          .setAbsoluteURI("http://127.0.0.1:" + server.actualPort() + "/probe").setIdleTimeout(30_000);
      Supplier<Future<String>> call = () -> http.request(new RequestOptions(get))
          .compose(HttpClientRequest::send).compose(HttpClientResponse::body).map(Object::toString);
      int unanswered = 0;
      for (int i = 0; i < n && unanswered < 5; i++) {
        Future<String> f;
        if (onContext) {
          Promise<String> p = Promise.promise();
          context.runOnContext(v -> call.get().onComplete(p));
          f = p.future();
        } else {
          f = call.get();
        }
        try {
          f.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          unanswered++;
          System.out.println("request " + i + ": no answer within 5 s");
        }
        if (i % 500 == 0) {
          Thread.sleep(1 + i % 7);
        }
      }
      System.out.println("requests=" + n + " mode=" + (onContext ? "context" : "thread") + " unanswered="
          + unanswered + (unanswered >= 5 ? " (stopped at 5)" : ""));
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
