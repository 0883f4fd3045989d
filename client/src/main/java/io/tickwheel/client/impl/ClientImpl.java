package io.tickwheel.client.impl;

import io.tickwheel.client.Firing;
import io.tickwheel.client.Subscription;
import io.tickwheel.client.TickwheelClient;
import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.tickwheel.client.TickwheelStages;
import io.tickwheel.client.TimerInfo;
import io.tickwheel.client.TimerPage;
import io.tickwheel.client.TimerRequest;
import io.tickwheel.client.TopicInfo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@link TickwheelClient}: routes every call onto the client's context (run inline when already there), where the
 * {@link CommandChannel}, the {@link TouchBatcher} and the subscriptions live. Thread safe.
 */
public final class ClientImpl implements TickwheelClient {
  /** The largest WebSocket message accepted from the server (a result carries at most one 64 KiB payload). */
  private static final int MAX_MESSAGE_BYTES = 4 << 20;

  private final Vertx vertx;
  private final Context context;
  private final TickwheelClientOptions options;
  private final WebSocketClient wsClient;
  private final Endpoints endpoints;
  private final WebSocketConnectOptions wsConnect;
  private final CommandRouter channel;
  private final TouchBatcher touches;
  private final ScheduleBatcher schedules;
  private final HttpCalls http;
  private final PartitionMap owners;
  private final List<SubscriptionImpl> subscriptions = new ArrayList<>();
  private final TickwheelStages stages;
  private boolean closed;

  public ClientImpl(Vertx vertx, TickwheelClientOptions options) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.options = options;
    this.endpoints = new Endpoints(options.getEndpoints());
    boolean tls = endpoints.tls();
    this.wsClient = vertx.createWebSocketClient(new WebSocketClientOptions()
        .setConnectTimeout(options.getConnectTimeoutMs())
        .setIdleTimeout(options.getIdleTimeoutMs()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setMaxFrameSize(MAX_MESSAGE_BYTES).setMaxMessageSize(MAX_MESSAGE_BYTES).setSsl(tls).setVerifyHost(true)
        .setTrustOptions(Endpoints.trust(options)));
    this.wsConnect = new WebSocketConnectOptions().setTimeout(options.getConnectTimeoutMs());
    if (options.getToken() != null) {
      wsConnect.addHeader("Authorization", "Bearer " + options.getToken());
    }
    this.owners = new PartitionMap(vertx, context, endpoints, options.getToken(), options.getConnectTimeoutMs(),
        options.getRequestTimeoutMs());
    this.channel = new CommandRouter(vertx, context, wsClient, endpoints, wsConnect, options, owners);
    this.touches = new TouchBatcher(vertx, context, options, endpoints, owners);
    this.schedules = new ScheduleBatcher(vertx, context, options, endpoints, owners);
    this.http = new HttpCalls(vertx, context, options, endpoints, owners);
    this.stages = new StagesImpl(this);
  }

  /** The options this client was created with (a copy). */
  public TickwheelClientOptions options() {
    return new TickwheelClientOptions(options);
  }

  @Override
  public Future<TimerInfo> schedule(TimerRequest timer) {
    JsonObject json = timer.toJson();
    return onContext(() -> schedules.schedule(json));
  }

  @Override
  public Future<TimerInfo> put(TimerRequest timer) {
    if (timer.id() == null) {
      return Future.failedFuture(new TickwheelException(400, "invalid_argument", "id",
          "put needs the timer's id: id is required", false));
    }
    return command("put", timer, true);
  }

  private Future<TimerInfo> command(String op, TimerRequest timer, boolean retryable) {
    JsonObject fields = new JsonObject().put("timer", timer.toJson());
    return onContext(() -> {
      Command c = new Command(op, fields, retryable, channel.deadline());
      channel.submit(timer.id(), c);
      return c.promise.future();
    }).map(Answers::timer).recover(e -> Future.failedFuture(timerField(e)));
  }

  /**
   * A command's error names its field inside the command message ({@code timer.timeZone}); the caller gave a
   * {@link TimerRequest}, so it gets the timer's field ({@code timeZone}), as a {@code schedule} (a batch item) does.
   */
  private static Throwable timerField(Throwable t) {
    if (t instanceof TickwheelException e && e.field() != null && e.field().startsWith("timer.")) {
      return new TickwheelException(e.status(), e.code(), e.field().substring("timer.".length()), e.getMessage(),
          e.mayHaveApplied());
    }
    return t;
  }

  @Override
  public Future<Long> touch(String id) {
    return onContext(() -> touches.touch(id, -1));
  }

  @Override
  public Future<Long> touch(String id, long delayMs) {
    if (delayMs < 0) {
      return Future.failedFuture(new TickwheelException(400, "invalid_argument", "delayMs",
          "delayMs must be >= 0, was " + delayMs, false));
    }
    return onContext(() -> touches.touch(id, delayMs));
  }

  @Override
  public Future<Void> cancel(String id) {
    JsonObject fields = new JsonObject().put("id", id);
    return onContext(() -> {
      Command c = new Command("cancel", fields, true, channel.deadline());
      channel.submit(id, c);
      return c.promise.future();
    }).map(Answers::none);
  }

  @Override
  public Future<TimerInfo> get(String id) {
    return http(() -> http.get(id), false);
  }

  @Override
  public Future<TimerPage> list(String topic, int limit, String cursor) {
    return http(() -> http.list(topic, limit, cursor), false);
  }

  @Override
  public Future<TimerInfo> pause(String id) {
    return http(() -> http.timerAction(id, "pause"), true);
  }

  @Override
  public Future<TimerInfo> resume(String id) {
    return http(() -> http.timerAction(id, "resume"), true);
  }

  @Override
  public Future<TimerInfo> fire(String id) {
    return http(() -> http.timerAction(id, "fire"), true);
  }

  @Override
  public Future<TopicInfo> pauseTopic(String topic) {
    return http(() -> http.topicAction(topic, "pause"), true);
  }

  @Override
  public Future<TopicInfo> resumeTopic(String topic) {
    return http(() -> http.topicAction(topic, "resume"), true);
  }

  /**
   * An HTTP call's transport failure as a TickwheelException ({@code timeout} past the request timeout, else
   * {@code connection_lost}; a {@code write} may have been applied, a read applies nothing), completed on the context.
   * The call is made on the context too, as the batchers' are (made from a caller's thread, a request once waited
   * forever for a pooled connection while an earlier one had been answered).
   */
  private <T> Future<T> http(Supplier<Future<T>> call, boolean write) {
    Promise<T> p = Promise.promise();
    onContext(call).onComplete(ar -> BatchPoster.onContext(context, () -> {
      if (ar.succeeded()) {
        p.complete(ar.result());
      } else if (ar.cause() instanceof TickwheelException) {
        p.fail(ar.cause());
      } else {
        p.fail(TickwheelException.client(Exchange.timedOut(ar.cause()) ? TickwheelException.TIMEOUT
            : TickwheelException.CONNECTION_LOST, "HTTP call failed: " + ar.cause(), write));
      }
    }));
    return p.future();
  }

  @Override
  public Subscription subscribe(List<String> topics, Object from, Handler<Firing> handler) {
    SubscriptionImpl s = new SubscriptionImpl(vertx, context, wsClient, endpoints, wsConnect, options, topics, from, handler);
    context.runOnContext(v -> {
      if (closed) {
        s.close();
        return;
      }
      subscriptions.add(s);
      s.start();
    });
    return s;
  }

  @Override
  public TickwheelStages stages() {
    return stages;
  }

  @Override
  public int inFlight() {
    return channel.inFlight() + touches.inFlight() + schedules.inFlight();
  }

  @Override
  public int queued() {
    return channel.queued() + touches.queued() + schedules.queued();
  }

  /** Touches merged into another touch's command so far (for tests and the load tool). */
  public long mergedTouches() {
    return touches.merged();
  }

  /** Batch touch requests sent so far (retries included; for tests and the load tool). */
  public long touchBatches() {
    return touches.batches();
  }

  /** Batch create requests sent so far (for tests and the load tool). */
  public long scheduleBatches() {
    return schedules.batches();
  }

  /** Whether the cluster's partition map has been read (for tests). */
  public boolean partitionMapLoaded() {
    return owners.loaded();
  }

  /** Reads of the cluster's partition map so far (for tests). */
  public long partitionMapReads() {
    return owners.reads;
  }

  /** Command connections opened so far. */
  public long commandConnections() {
    return channel.connections();
  }

  @Override
  public Future<Void> close() {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> {
      if (closed) {
        done.complete();
        return;
      }
      closed = true;
      List<Future<Void>> all = new ArrayList<>();
      all.add(channel.close());
      all.add(touches.close());
      all.add(schedules.close());
      for (SubscriptionImpl s : subscriptions) {
        all.add(s.close());
      }
      all.add(http.close());
      all.add(owners.close());
      Future.join(all).onComplete(ar -> wsClient.close().onComplete(x -> done.complete()));
    });
    return done.future();
  }

  /** Runs {@code call} on the client's context (inline when already on it) and relays its future. */
  private <T> Future<T> onContext(Supplier<Future<T>> call) {
    if (Vertx.currentContext() == context) {
      return call.get();
    }
    Promise<T> p = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(p));
    return p.future();
  }
}
