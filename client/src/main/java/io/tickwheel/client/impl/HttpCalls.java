package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.tickwheel.client.TimerInfo;
import io.tickwheel.client.TimerPage;
import io.tickwheel.client.TopicInfo;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls the WebSocket has no command for, one HTTP request each: the reads ({@code GET /v1/timers/{id}},
 * {@code GET /v1/timers?…}) and the timer and topic actions ({@code POST /v1/timers/{id}/pause|resume|fire},
 * {@code POST /v1/topics/{topic}/pause|resume}), over Vert.x's HTTP client (keep-alive, at most 8 connections),
 * with the options' connect and idle timeouts; each call is answered or failed within the request timeout
 * ({@link Exchange}).
 *
 * <p>A call about one timer (its read and its actions) goes to the timer's owner when the {@link PartitionMap} knows
 * it, else to the endpoint in use (which forwards it). A call that could not reach the owner (no connection: nothing
 * was sent) is reported to the map and sent to the endpoint in use within what is left of its timeout; an answer 503
 * has the map read again. Nothing else is retried here.
 *
 * <p>Calls are made on the client's context (the partition map is not thread safe); the futures complete on a
 * Vert.x thread.
 */
final class HttpCalls {
  private final Vertx vertx;
  private final HttpClientAgent http;
  private final Endpoints endpoints;
  private final String authorization;
  private final long requestTimeoutMs;
  private final io.vertx.core.Context context;
  private final PartitionMap owners;

  HttpCalls(Vertx vertx, io.vertx.core.Context context, TickwheelClientOptions o, Endpoints endpoints,
      PartitionMap owners) {
    this.context = context;
    this.owners = owners;
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(o.getConnectTimeoutMs())
        .setIdleTimeout(o.getIdleTimeoutMs()).setIdleTimeoutUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
        .setSsl(endpoints.tls()).setVerifyHost(true)
        .setTrustOptions(Endpoints.trust(o)), new PoolOptions().setHttp1MaxSize(8));
    this.vertx = vertx;
    this.endpoints = endpoints;
    this.authorization = o.getToken() == null ? null : "Bearer " + o.getToken();
    this.requestTimeoutMs = o.getRequestTimeoutMs();
  }

  Future<TimerInfo> get(String id) {
    return call(HttpMethod.GET, "/v1/timers/" + enc(id), id).map(TimerInfo::adopt);
  }

  /** {@code POST /v1/timers/{id}/{action}} ({@code pause}, {@code resume}, {@code fire}): the timer after it. */
  Future<TimerInfo> timerAction(String id, String action) {
    return call(HttpMethod.POST, "/v1/timers/" + enc(id) + "/" + action, id).map(TimerInfo::adopt);
  }

  /** {@code POST /v1/topics/{topic}/{action}} ({@code pause}, {@code resume}): the topic's state after it. */
  Future<TopicInfo> topicAction(String topic, String action) {
    return call(HttpMethod.POST, "/v1/topics/" + enc(topic) + "/" + action, null).map(TopicInfo::fromJson);
  }

  Future<TimerPage> list(String topic, int limit, String cursor) {
    StringBuilder q = new StringBuilder("/v1/timers");
    char sep = '?';
    if (topic != null) {
      q.append(sep).append("topic=").append(enc(topic));
      sep = '&';
    }
    if (limit > 0) {
      q.append(sep).append("limit=").append(limit);
      sep = '&';
    }
    if (cursor != null) {
      q.append(sep).append("cursor=").append(enc(cursor));
    }
    return call(HttpMethod.GET, q.toString(), null).map(body -> {
      JsonArray arr = body.getJsonArray("timers", new JsonArray());
      List<TimerInfo> timers = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        timers.add(TimerInfo.adopt(arr.getJsonObject(i)));
      }
      return new TimerPage(timers, body.getString("next"));
    });
  }

  /**
   * {@code method path} without a body, to the owner of timer {@code id} if known ({@code null}: the endpoint in use):
   * the JSON body of a 200, else the answer's error as a TickwheelException.
   */
  private Future<JsonObject> call(HttpMethod method, String path, String id) {
    String owner = id == null ? null : owners.ownerOf(id);
    long deadline = System.nanoTime() + requestTimeoutMs * 1_000_000L;
    boolean[] sent = new boolean[1];
    Future<Exchange.Answer> answered = Exchange.send(vertx, http, endpoints, owner, request(method), path, null,
        requestTimeoutMs, () -> sent[0] = true);
    if (owner != null) {
      answered = answered.transform(ar -> {
        long leftMs = (deadline - System.nanoTime()) / 1_000_000;
        if (ar.succeeded() || sent[0] || leftMs <= 0) {
          return ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(ar.cause());
        }
        io.vertx.core.Promise<Exchange.Answer> again = io.vertx.core.Promise.promise();
        BatchPoster.onContext(context, () -> {
          owners.failed(owner);
          Exchange.send(vertx, http, endpoints, null, request(method), path, null, leftMs, () -> { })
              .onComplete(again);
        });
        return again.future();
      });
    }
    if (owners.enabled()) {
      answered = answered.onSuccess(a -> {
        if (a.status() == 503) {
          BatchPoster.onContext(context, owners::stale);
        }
      });
    }
    return answered.map(answer -> {
      Object body;
      try {
        body = answer.body().length() == 0 ? null : io.vertx.core.json.Json.decodeValue(answer.body());
      } catch (DecodeException e) {
        body = answer.body().toString(StandardCharsets.UTF_8);
      }
      if (answer.status() == 200 && body instanceof JsonObject o) {
        return o;
      }
      if (answer.status() == 200) {
        throw TickwheelException.client(TickwheelException.PROTOCOL, method + " " + path
            + ": 200 without a JSON object", method != HttpMethod.GET);
      }
      throw Answers.error(answer.status(), body);
    });
  }

  private RequestOptions request(HttpMethod method) {
    RequestOptions ro = new RequestOptions().setMethod(method);
    if (authorization != null) {
      ro.putHeader("Authorization", authorization);
    }
    return ro;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  Future<Void> close() {
    return http.close();
  }
}
