package io.tickwheel.bench.load;

import io.tickwheel.client.TickwheelClient;
import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TimerRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * tickwheel over HTTP and WebSocket. Timers get topic {@value #TOPIC}; schedule = {@code POST /v1/timers} with
 * {@code at}; scheduleBatch = {@code POST /v1/timers/batch} in chunks of at most {@value #MAX_BATCH} (sent one after
 * the other); reschedule = {@code POST /v1/timers/{id}/touch} with {@code {"delayMs": newDue - now}}. Firings come
 * from one WebSocket subscription {@code {"op":"subscribe","topics":["*"]}}; when the server closes it (1013 for a
 * slow subscriber, or any other close) it reconnects with {@code from} = the last seq seen, and drops any seq it has
 * already seen, so the sink gets each firing once.
 *
 * <p>HTTP/1.1 keep-alive connections without pipelining, at most {@code maxConnections} over {@code clientLoops}
 * event loops ({@link HttpLanes}: a request started on a loop's thread stays on it, others go round the loops);
 * callers bound their own in-flight requests. A single schedule sends a body encoded straight into a buffer and
 * checks only the answer's status (201), discarding its body; any other status or a connection error fails the stage.
 * Completion stages complete on a Vert.x event loop: callers must not block in them.
 *
 * <p>With {@code viaClient} (the load tool's {@code --tickwheel-mode client}), single schedules and touches go
 * through the Java client ({@code io.tickwheel.client.TickwheelClient}) instead: schedules as pipelined WebSocket
 * commands over one connection on an event loop of its own, at most {@code maxConnections} in flight (so no more
 * than the HTTP mode), touches as the client's batch touches, coalesced as the client documents. Batches, resets and the firings' subscription stay
 * as above. A new client is made whenever the base URL changes (a managed restart).
 * Thread safe. With a {@link ManagedServer}, {@link #reset()} restarts the server on a fresh data directory;
 * without one it lists the tool's topic and deletes every timer.
 */
public final class TickwheelTarget implements TimerTarget {
  /** The topic of every timer the tool creates. */
  public static final String TOPIC = "loadtool";
  /** Most timers in one batch request (the server's limit). */
  public static final int MAX_BATCH = 10_000;

  /** Environment variable: a file to write every firing received to, as {@code dueAt,firedAt,receivedAt} (ms). */
  public static final String FIRINGS_CSV_ENV = "LOAD_FIRINGS_CSV";
  /** The firings received so far when {@value #FIRINGS_CSV_ENV} is set (written out at exit), else null. */
  private static final StringBuilder FIRINGS_CSV = firingsCsv(System.getenv(FIRINGS_CSV_ENV));

  private final String label;
  private final String token;
  private final ManagedServer server;
  private final Vertx vertx;
  private final HttpLanes lanes;
  private final WebSocketClient wsClient;
  private final boolean viaClient;
  private volatile boolean keepTimers;
  private final int maxInFlight;
  /** The client's own event loop, only with {@code viaClient}. */
  private final Vertx clientVertx;
  private volatile TickwheelClient client;
  private volatile String baseUrl;
  /** The client's endpoints when given (client mode; every node of a cluster); empty: {@link #baseUrl} alone. */
  private volatile List<String> clientEndpoints = List.of();
  private volatile Endpoint endpoint;
  private volatile FiringSink sink;
  private volatile WebSocket ws;
  private volatile boolean closing;
  private volatile long lastSeq;
  /** In a cluster (firings carry {@code partition}): the last seq seen per partition, and the last cursor to resume. */
  private final java.util.Map<Integer, Long> lastSeqByPartition = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile String lastCursor;
  private final AtomicLong serverEarly = new AtomicLong();
  private final AtomicLong reconnects = new AtomicLong();
  private final AtomicLong close1013 = new AtomicLong();
  /** Per firing: the server's firedAt − dueAt (its decision), and receivedAt − firedAt (publication and delivery). */
  private final org.HdrHistogram.Histogram decided = new org.HdrHistogram.Histogram(24L * 3600_000, 3);
  private final org.HdrHistogram.Histogram delivered = new org.HdrHistogram.Histogram(24L * 3600_000, 3);

  /**
   * @param label the name shown in reports; @param baseUrl e.g. {@code http://127.0.0.1:8080} (null when
   * {@code server} is given: its URL is used); @param token bearer token or null; @param server a managed server
   * (owned and closed by this target) or null; @param maxConnections HTTP/1.1 connections over all client lanes
   * (the load tool's {@code --concurrency}); @param clientLoops client event loops ({@link HttpLanes}), each with
   * its share of the connections
   */
  public TickwheelTarget(String label, String baseUrl, String token, ManagedServer server, int maxConnections,
      int clientLoops) {
    this(label, baseUrl, token, server, maxConnections, clientLoops, false);
  }

  /** As above; @param viaClient single schedules and touches through the Java client (see the class comment) */
  public TickwheelTarget(String label, String baseUrl, String token, ManagedServer server, int maxConnections,
      int clientLoops, boolean viaClient) {
    this.viaClient = viaClient;
    this.maxInFlight = maxConnections;
    this.clientVertx = viaClient
        ? Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true)) : null;
    this.label = label;
    this.token = token;
    this.server = server;
    this.lanes = new HttpLanes(clientLoops, maxConnections);
    // the firings' WebSocket: Vert.x on one event loop of its own; epoll on Linux (bundled), as the server
    this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
    this.wsClient = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxFrameSize(1 << 20)
        .setMaxMessageSize(1 << 24));
    useUrl(baseUrl);
  }

  /**
   * @param keep true: {@link #reset()} of a running server ({@code --url}) leaves its timers in place (the caller throws
   *             the server away afterwards); false (the default): it deletes every timer of the tool's topic
   * @return this
   */
  public TickwheelTarget keepTimers(boolean keep) {
    this.keepTimers = keep;
    return this;
  }

  /**
   * The client's endpoints (client mode only; every node of a cluster): with two or more it reads the partition map
   * and sends every schedule to its timer's owner; and {@link #scheduleBatch} goes through the client too (gathered
   * per tick and, in a cluster, split by owner). The firings' subscription and other requests stay on the base URL.
   *
   * @return this
   * @throws IllegalArgumentException without client mode
   */
  public TickwheelTarget clientEndpoints(List<String> urls) {
    if (!urls.isEmpty() && !viaClient) {
      throw new IllegalArgumentException("client endpoints need the client mode");
    }
    this.clientEndpoints = List.copyOf(urls);
    useUrl(baseUrl);
    return this;
  }

  /** Client event loops (each with its share of the connections) this target sends its HTTP requests on. */
  public int clientLoops() {
    return lanes.lanes();
  }

  /** The HTTP client's transport: {@code epoll} or {@code nio}. */
  public String clientTransport() {
    return lanes.transport();
  }

  /** Where requests go, with the requests of the hot paths prepared once (one serves every request). */
  private static final class Endpoint {
    final InetSocketAddress address;
    final String authorization;
    final HttpLanes.Request schedule;
    final HttpLanes.Request batch;

    Endpoint(String baseUrl, String token) {
      URI u = URI.create(baseUrl);
      if (!"http".equals(u.getScheme()) || u.getHost() == null) {
        throw new IllegalArgumentException("url must be http://host:port, got '" + baseUrl + "'");
      }
      this.address = new InetSocketAddress(u.getHost(), u.getPort() < 0 ? 80 : u.getPort());
      this.authorization = token == null ? null : "Bearer " + token;
      this.schedule = request("POST", "/v1/timers", true);
      this.batch = request("POST", "/v1/timers/batch", true);
    }

    HttpLanes.Request request(String method, String path, boolean json) {
      return new HttpLanes.Request(address, method, path, json ? "application/json" : null, authorization);
    }
  }

  @Override
  public String name() {
    return label;
  }

  /** The managed server, or null. */
  public ManagedServer server() {
    return server;
  }

  /** Firings whose reported {@code firedAt} was before their {@code dueAt} (must stay 0). */
  public long serverEarlyFirings() {
    return serverEarly.get();
  }

  /** Forgets the lateness split ({@link #decidedLateness}, {@link #deliveryLateness}) recorded so far. */
  public synchronized void resetLatenessSplit() {
    decided.reset();
    delivered.reset();
  }

  /** Since the last {@link #resetLatenessSplit}: each firing's {@code firedAt − dueAt} as the server reports it, ms. */
  public synchronized org.HdrHistogram.Histogram decidedLateness() {
    return decided.copy();
  }

  /** Since the last {@link #resetLatenessSplit}: each firing's receivedAt − its reported {@code firedAt}, ms (the
   *  server's record, publication and the WebSocket to this tool, on one machine's clock). */
  public synchronized org.HdrHistogram.Histogram deliveryLateness() {
    return delivered.copy();
  }

  /** WebSocket reconnects so far, and how many of the closes were 1013 (too slow). */
  public long reconnects() {
    return reconnects.get();
  }

  public long slowCloses() {
    return close1013.get();
  }

  @Override
  public void start(FiringSink sink) throws Exception {
    this.sink = sink;
    if (server != null && baseUrl == null) {
      useUrl(server.url() != null ? server.url() : server.start(120_000));
    }
    connect(-1).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** After the managed server was restarted on the same data (recovery): resubscribe from the last seq seen. */
  public void reconnectTo(String newBaseUrl) throws Exception {
    useUrl(newBaseUrl);
    WebSocket old = ws;
    if (old != null && !old.isClosed()) {
      old.close();
    }
    connect(lastSeq).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** @param from the last seq seen to resume after (0: every retained firing), or -1 for live firings only */
  private Future<Void> connect(long from) {
    String wsUrl = baseUrl.replaceFirst("^http", "ws") + "/v1/ws";
    WebSocketConnectOptions o = new WebSocketConnectOptions().setAbsoluteURI(wsUrl);
    if (token != null) {
      o.addHeader("Authorization", "Bearer " + token);
    }
    return wsClient.connect(o).compose(socket -> {
      io.vertx.core.Promise<Void> subscribed = io.vertx.core.Promise.promise();
      ws = socket;
      socket.textMessageHandler(text -> onMessage(text, subscribed, from < 0));
      socket.closeHandler(v -> onClose(socket));
      JsonObject sub = new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("*"));
      if (from >= 0 && lastCursor != null) {
        sub.put("from", lastCursor); // a cluster resume: the cursor of the last firing seen
      } else if (from >= 0) {
        sub.put("from", from); // a resume: every retained firing after it (0 = all retained)
      }
      socket.writeTextMessage(sub.encode());
      return subscribed.future();
    });
  }

  private static StringBuilder firingsCsv(String path) {
    if (path == null || path.isBlank()) {
      return null;
    }
    StringBuilder sb = new StringBuilder("dueAt,firedAt,receivedAt\n");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        synchronized (sb) {
          java.nio.file.Files.writeString(java.nio.file.Path.of(path), sb);
        }
      } catch (java.io.IOException e) {
        System.err.println("could not write " + path + ": " + e);
      }
    }));
    return sb;
  }

  /** @param live true for a subscription without {@code from}: its answer's seq is where firings start */
  private void onMessage(String text, io.vertx.core.Promise<Void> subscribed, boolean live) {
    long received = System.currentTimeMillis();
    JsonObject m = new JsonObject(text);
    String type = m.getString("type");
    if ("fired".equals(type)) {
      long seq = m.getLong("seq");
      Integer partition = m.getInteger("partition");
      if (partition != null) {
        // a cluster: seq is per partition, the cursor names the place in every partition's log
        Long last = lastSeqByPartition.get(partition);
        if (last != null && seq <= last) {
          return; // already seen before a reconnect
        }
        lastSeqByPartition.put(partition, seq);
        lastCursor = m.getString("cursor");
      } else {
        if (seq <= lastSeq) {
          return; // already seen before a reconnect
        }
        lastSeq = seq;
      }
      long due = m.getLong("dueAt");
      long firedAt = m.getLong("firedAt");
      if (firedAt < due) {
        serverEarly.incrementAndGet();
      }
      synchronized (this) {
        decided.recordValue(Math.max(0, firedAt - due));
        delivered.recordValue(Math.max(0, received - firedAt));
      }
      FiringSink s = sink;
      if (s != null) {
        s.fired(m.getString("id"), due, received);
      }
      if (FIRINGS_CSV != null) {
        synchronized (FIRINGS_CSV) {
          FIRINGS_CSV.append(due).append(',').append(firedAt).append(',').append(received).append('\n');
        }
      }
    } else if ("subscribed".equals(type)) {
      if (live) {
        lastSeq = m.getLong("seq", 0L); // a resume keeps its lastSeq: the replay that follows has greater seqs
      }
      subscribed.tryComplete();
    } else if ("error".equals(type)) {
      System.err.println("[ws] " + text);
      subscribed.tryFail("subscribe refused: " + text);
    }
  }

  private void onClose(WebSocket socket) {
    Short code = socket.closeStatusCode();
    if (code != null && code == 1013) {
      close1013.incrementAndGet();
    }
    if (closing || socket != ws) {
      return;
    }
    reconnects.incrementAndGet();
    vertx.setTimer(100, t -> retry());
  }

  private void retry() {
    if (closing) {
      return;
    }
    connect(lastSeq).onFailure(e -> vertx.setTimer(200, t -> retry()));
  }

  @Override
  public CompletionStage<Void> schedule(String id, long dueAtMs) {
    if (viaClient) {
      return client.schedule(TimerRequest.builder().id(id).topic(TOPIC).at(dueAtMs).build()).<Void>mapEmpty()
          .toCompletionStage();
    }
    byte[] body = ("{\"id\":\"" + id + "\",\"topic\":\"" + TOPIC + "\",\"at\":" + dueAtMs + "}")
        .getBytes(StandardCharsets.UTF_8);
    return lanes.send(endpoint.schedule, body, 201);
  }

  @Override
  public CompletionStage<Void> scheduleBatch(List<String> ids, long[] dueAtMs) {
    if (ids.size() != dueAtMs.length) {
      throw new IllegalArgumentException("ids.size() " + ids.size() + " != dueAtMs.length " + dueAtMs.length);
    }
    if (viaClient && !clientEndpoints.isEmpty()) {
      return viaClient(ids, dueAtMs);
    }
    return batchFrom(ids, dueAtMs, 0);
  }

  /** Every timer as the client's schedule: it gathers them into batch creates, each split by owner. */
  private CompletableFuture<Void> viaClient(List<String> ids, long[] due) {
    TickwheelClient c = client;
    CompletableFuture<?>[] all = new CompletableFuture<?>[ids.size()];
    for (int i = 0; i < ids.size(); i++) {
      all[i] = c.schedule(TimerRequest.builder().id(ids.get(i)).topic(TOPIC).at(due[i]).build())
          .toCompletionStage().toCompletableFuture();
    }
    return CompletableFuture.allOf(all);
  }

  private CompletableFuture<Void> batchFrom(List<String> ids, long[] due, int start) {
    if (start >= ids.size()) {
      return CompletableFuture.completedFuture(null);
    }
    int end = Math.min(ids.size(), start + MAX_BATCH);
    StringBuilder b = new StringBuilder(64 * (end - start) + 16).append("{\"timers\":[");
    for (int i = start; i < end; i++) {
      if (i > start) {
        b.append(',');
      }
      b.append("{\"id\":\"").append(ids.get(i)).append("\",\"topic\":\"").append(TOPIC).append("\",\"at\":")
          .append(due[i]).append('}');
    }
    b.append("]}");
    int n = end - start;
    return lanes.call(endpoint.batch, b.toString().getBytes(StandardCharsets.UTF_8), 200).thenCompose(resp -> {
      int created = count(resp, "{\"status\":201");
      if (created != n) {
        return CompletableFuture.failedFuture(new IllegalStateException("batch: " + created + " of " + n
            + " created; first answer not 201: " + firstError(resp)));
      }
      return batchFrom(ids, due, end);
    });
  }

  /** How many times {@code what} occurs in {@code s} (package-private for tests). */
  static int count(String s, String what) {
    int c = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
      c++;
    }
    return c;
  }

  private static String firstError(String resp) {
    JsonArray results = new JsonObject(resp).getJsonArray("results");
    for (int i = 0; i < results.size(); i++) {
      JsonObject r = results.getJsonObject(i);
      if (r.getInteger("status") != 201) {
        return "#" + i + " " + r.encode();
      }
    }
    return "none";
  }

  @Override
  public CompletionStage<Void> reschedule(String id, long newDueAtMs) {
    long delay = Math.max(0, newDueAtMs - System.currentTimeMillis());
    if (viaClient) {
      return client.touch(id, delay).<Void>mapEmpty().toCompletionStage();
    }
    return lanes.send(endpoint.request("POST", "/v1/timers/" + id + "/touch", true),
        ("{\"delayMs\":" + delay + "}").getBytes(StandardCharsets.UTF_8), 200);
  }

  /**
   * One request; succeeds with the body when the status is {@code expect}, else fails naming method, path, status
   * and body. @param body a JSON body, or null for none
   */
  CompletableFuture<String> call(HttpMethod method, String path, String body, int expect) {
    return lanes.call(endpoint.request(method.name(), path, body != null),
        body == null ? null : body.getBytes(StandardCharsets.UTF_8), expect);
  }

  /** {@code GET path}: the status code (for /health polling); fails on connection errors. */
  public CompletableFuture<Integer> status(String path) {
    return lanes.status(endpoint.request("GET", path, false));
  }

  /** Batch create requests the Java client has sent so far, or -1 without the client (HTTP mode). */
  public long clientScheduleBatches() {
    return client instanceof io.tickwheel.client.impl.ClientImpl c ? c.scheduleBatches() : -1;
  }

  /** Switches the HTTP base URL (after a managed restart), without touching the WebSocket. */
  public void useUrl(String newBaseUrl) {
    this.baseUrl = newBaseUrl;
    this.endpoint = newBaseUrl == null ? null : new Endpoint(newBaseUrl, token);
    if (viaClient) {
      TickwheelClient old = client;
      List<String> all = clientEndpoints.isEmpty() && newBaseUrl != null ? List.of(newBaseUrl) : clientEndpoints;
      client = newBaseUrl == null ? null : TickwheelClient.create(clientVertx, new TickwheelClientOptions()
          .setEndpoints(all).setToken(token).setMaxInFlight(maxInFlight).setRequestTimeoutMs(120_000)
          // heartbeat keys wait for a batch merged per key: up to --keys of them, beyond the default 65,536
          .setMaxQueued(1_000_000));
      if (old != null) {
        old.close();
      }
    }
  }

  @Override
  public void reset() throws Exception {
    if (server != null) {
      closing = true;
      WebSocket old = ws;
      if (old != null && !old.isClosed()) {
        old.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      }
      useUrl(server.restartFresh(120_000));
      lastSeq = 0;
      lastSeqByPartition.clear();
      lastCursor = null;
      closing = false;
      connect(-1).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return;
    }
    if (keepTimers) {
      return; // --keep-timers: the caller discards this server
    }
    // A shared server: delete every timer of the tool's topic, a page at a time.
    while (true) {
      String page = call(HttpMethod.GET, "/v1/timers?topic=" + TOPIC + "&limit=1000", null, 200)
          .get(60, TimeUnit.SECONDS);
      JsonArray timers = new JsonObject(page).getJsonArray("timers");
      if (timers.isEmpty()) {
        return;
      }
      CompletableFuture<?>[] deletes = new CompletableFuture<?>[timers.size()];
      for (int i = 0; i < timers.size(); i++) {
        String id = timers.getJsonObject(i).getString("id");
        // 404: fired or deleted meanwhile, which is what we want
        deletes[i] = lanes.status(endpoint.request("DELETE", "/v1/timers/" + id, false)).thenAccept(st -> {
          if (st != 204 && st != 404) {
            throw new IllegalStateException("DELETE /v1/timers/" + id + ": status " + st + " (expected 204 or 404)");
          }
        });
      }
      CompletableFuture.allOf(deletes).get(120, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws Exception {
    closing = true;
    try {
      try {
        lanes.close();
      } finally {
        try {
          if (clientVertx != null) {
            clientVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
          }
        } finally {
          vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }
}
