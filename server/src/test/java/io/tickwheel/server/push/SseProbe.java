package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.OpenApiValidator;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Server-Sent Events test client over a plain {@link HttpClient}: parses the stream as the WHATWG spec says
 * (fields per line, an empty line dispatches) and queues events and comments for the test thread.
 */
final class SseProbe implements AutoCloseable {

  /** One dispatched event. */
  record Event(String id, String event, String data) {
    JsonObject json() {
      return new JsonObject(data);
    }
  }

  final HttpClient client;
  final HttpClientResponse response;
  final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  final LinkedBlockingQueue<String> comments = new LinkedBlockingQueue<>();
  final CompletableFuture<Void> ended = new CompletableFuture<>();

  private final StringBuilder pending = new StringBuilder();
  private String id;
  private String event;
  private StringBuilder data;

  private final String uri;

  private SseProbe(HttpClient client, HttpClientResponse response, String uri) {
    this.client = client;
    this.response = response;
    this.uri = uri;
  }

  /** Opens {@code uri} with optional headers; the response (any status) is returned once its head arrived. */
  static SseProbe open(PushServer server, String uri, String... headerPairs) {
    return open(server, new HttpClientOptions(), uri, headerPairs);
  }

  static SseProbe open(PushServer server, HttpClientOptions options, String uri, String... headerPairs) {
    return open(server.vertx, server.port, options, uri, headerPairs);
  }

  /** A probe on any server on the loopback (e.g. a cluster node's hub). */
  static SseProbe open(Vertx vertx, int port, HttpClientOptions options, String uri, String... headerPairs) {
    HttpClient client = vertx.createHttpClient(options);
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port)
        .setURI(uri);
    for (int i = 0; i < headerPairs.length; i += 2) {
      ro.addHeader(headerPairs[i], headerPairs[i + 1]);
    }
    // Started on an event-loop context, the connection lives on that loop and the response's head (which
    // completes send()) and its body are handled there in order: the handlers below are set before any body
    // arrives. Started from the test thread instead, the callback could run after a short answer (a 503) had
    // already ended, and setting a handler on an ended response throws IllegalStateException.
    Promise<SseProbe> opened = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> client.request(ro).compose(req -> req.send()).map(resp -> {
      SseProbe p = new SseProbe(client, resp, uri);
      resp.handler(p::feed);
      resp.endHandler(e -> p.ended.complete(null));
      resp.exceptionHandler(t -> p.ended.complete(null));
      return p;
    }).onComplete(opened));
    return PushServer.await(opened.future());
  }

  int status() {
    return response.statusCode();
  }

  MultiMap headers() {
    return response.headers();
  }

  /** The whole body of a non-stream answer (e.g. a 400), validated against the served OpenAPI document. */
  JsonObject bodyJson() {
    awaitEnd();
    String body;
    synchronized (this) {
      body = pending.toString();
    }
    Map<String, List<String>> headers = new HashMap<>();
    response.headers().names().forEach(n -> headers.put(n, response.headers().getAll(n)));
    OpenApiValidator.served().validate(HttpMethod.GET, uri, response.statusCode(), headers,
        body.getBytes(StandardCharsets.UTF_8));
    return new JsonObject(body);
  }

  private synchronized void feed(Buffer chunk) {
    pending.append(chunk.toString(StandardCharsets.UTF_8));
    if (response.statusCode() != 200) {
      return; // keep the raw body
    }
    int nl;
    while ((nl = indexOfLineEnd()) >= 0) {
      String line = pending.substring(0, nl);
      int skip = pending.charAt(nl) == '\r' && nl + 1 < pending.length() && pending.charAt(nl + 1) == '\n' ? 2 : 1;
      pending.delete(0, nl + skip);
      line(line);
    }
  }

  private int indexOfLineEnd() {
    for (int i = 0; i < pending.length(); i++) {
      char c = pending.charAt(i);
      if (c == '\n') {
        return i;
      }
      if (c == '\r') {
        return i + 1 < pending.length() ? i : -1; // wait to see whether \n follows
      }
    }
    return -1;
  }

  private void line(String line) {
    if (line.isEmpty()) {
      if (data != null) {
        events.add(new Event(id, event == null ? "message" : event, data.toString()));
      }
      event = null;
      data = null;
      return;
    }
    if (line.startsWith(":")) {
      comments.add(line.substring(1).trim());
      return;
    }
    int colon = line.indexOf(':');
    String field = colon < 0 ? line : line.substring(0, colon);
    String value = colon < 0 ? "" : line.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (field) {
      case "id" -> id = value;
      case "event" -> event = value;
      case "data" -> {
        if (data == null) {
          data = new StringBuilder(value);
        } else {
          data.append('\n').append(value);
        }
      }
      default -> { }
    }
  }

  Event next() {
    try {
      Event e = events.poll(PushServer.TIMEOUT_S, TimeUnit.SECONDS);
      if (e == null) {
        throw new AssertionError("no event within " + PushServer.TIMEOUT_S + " s");
      }
      if ("fired".equals(e.event())) {
        OpenApiValidator.served().validateSchema("Firing", e.data());
      }
      return e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  Event next(String type) {
    Event e = next();
    assertThat(e.event()).as("event %s", e).isEqualTo(type);
    return e;
  }

  /** The seqs of the next fired events up to and including {@code lastSeq}; checks id == seq on each. */
  List<Long> seqsUntil(long lastSeq) {
    List<Long> seqs = new ArrayList<>();
    while (true) {
      Event e = next("fired");
      long seq = e.json().getLong("seq");
      assertThat(e.id()).isEqualTo(Long.toString(seq));
      seqs.add(seq);
      if (seq >= lastSeq) {
        return seqs;
      }
    }
  }

  void awaitEnd() {
    try {
      ended.get(PushServer.TIMEOUT_S, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("response not ended within " + PushServer.TIMEOUT_S + " s", e);
    }
  }

  @Override
  public void close() {
    try {
      client.close().await(5, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // best effort
    }
  }
}
