package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends each per-id command ({@code put}, {@code cancel}) on the command WebSocket of its timer's owner
 * ({@link PartitionMap}): one {@link CommandChannel} per owner, opened on first use, and the channel of the endpoint
 * in use for a command whose owner is not known (a single endpoint, the map not read yet, an owner that could not be
 * reached lately), which forwards it.
 *
 * <p>When a connection to an owner cannot be made, the commands waiting for it are reported to the map
 * ({@link PartitionMap#failed}) and go on the endpoint in use's channel, with their own deadlines; an answer 503
 * has the map read again ({@link PartitionMap#stale}). At most {@value #MAX_OWNER_CHANNELS} owner channels (one per
 * node address seen); beyond, commands go on the endpoint in use's. {@code maxInFlight} and {@code maxQueued} hold
 * per channel.
 *
 * <p>Not thread safe: the client's context only.
 */
final class CommandRouter {

  /** Most owner channels kept (node addresses seen); commands to further owners go to the endpoint in use. */
  static final int MAX_OWNER_CHANNELS = 64;

  private final Vertx vertx;
  private final Context context;
  private final WebSocketClient wsClient;
  private final WebSocketConnectOptions connectOptions;
  private final TickwheelClientOptions options;
  private final PartitionMap owners;
  private final CommandChannel main;
  private final Map<String, CommandChannel> byOwner = new LinkedHashMap<>();
  private boolean closed;

  CommandRouter(Vertx vertx, Context context, WebSocketClient wsClient, Endpoints endpoints,
      WebSocketConnectOptions connectOptions, TickwheelClientOptions options, PartitionMap owners) {
    this.vertx = vertx;
    this.context = context;
    this.wsClient = wsClient;
    this.connectOptions = connectOptions;
    this.options = options;
    this.owners = owners;
    this.main = new CommandChannel(vertx, context, wsClient, endpoints, connectOptions, options);
  }

  /** A deadline {@code requestTimeoutMs} from now, for a new command. */
  long deadline() {
    return main.deadline();
  }

  /** Sends {@code c}, a command about timer {@code id}; its promise completes with the result message. */
  void submit(String id, Command c) {
    channelOf(id).submit(c);
    if (owners.enabled()) {
      c.promise.future().onComplete(ar -> {
        if (ar.succeeded() ? Answers.status(ar.result()) == 503
            : ar.cause() instanceof TickwheelException e && e.status() == 503) {
          owners.stale();
        }
      });
    }
  }

  private CommandChannel channelOf(String id) {
    String base = closed ? null : owners.ownerOf(id);
    if (base == null) {
      return main;
    }
    CommandChannel c = byOwner.get(base);
    if (c == null) {
      if (byOwner.size() >= MAX_OWNER_CHANNELS) {
        return main;
      }
      c = new CommandChannel(vertx, context, wsClient, new Endpoints(List.of(base)), connectOptions, options,
          waiting -> {
            owners.failed(base);
            waiting.forEach(main::submit);
          });
      byOwner.put(base, c);
    }
    return c;
  }

  int inFlight() {
    int n = main.inFlight();
    for (CommandChannel c : byOwner.values()) {
      n += c.inFlight();
    }
    return n;
  }

  int queued() {
    int n = main.queued();
    for (CommandChannel c : byOwner.values()) {
      n += c.queued();
    }
    return n;
  }

  /** Command connections opened so far, to any node. */
  long connections() {
    long n = main.connections();
    for (CommandChannel c : byOwner.values()) {
      n += c.connections();
    }
    return n;
  }

  /** Fails everything pending with {@code client_closed} and closes every channel. */
  Future<Void> close() {
    closed = true;
    List<Future<Void>> all = new ArrayList<>();
    for (CommandChannel c : byOwner.values()) {
      all.add(c.close());
    }
    all.add(main.close());
    return Future.join(all).mapEmpty();
  }
}
