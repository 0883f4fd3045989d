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
 * ({@link Exchange}). Nothing is retried here. Thread safe (Vert.x's client is).
 */
final class HttpCalls {
  private final Vertx vertx;
  private final HttpClientAgent http;
  private final Endpoints endpoints;
  private final String authorization;
  private final long requestTimeoutMs;

  HttpCalls(Vertx vertx, TickwheelClientOptions o, Endpoints endpoints) {
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
    return call(HttpMethod.GET, "/v1/timers/" + enc(id)).map(TimerInfo::fromJson);
  }

  /** {@code POST /v1/timers/{id}/{action}} ({@code pause}, {@code resume}, {@code fire}): the timer after it. */
  Future<TimerInfo> timerAction(String id, String action) {
    return call(HttpMethod.POST, "/v1/timers/" + enc(id) + "/" + action).map(TimerInfo::fromJson);
  }

  /** {@code POST /v1/topics/{topic}/{action}} ({@code pause}, {@code resume}): the topic's state after it. */
  Future<TopicInfo> topicAction(String topic, String action) {
    return call(HttpMethod.POST, "/v1/topics/" + enc(topic) + "/" + action).map(TopicInfo::fromJson);
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
    return call(HttpMethod.GET, q.toString()).map(body -> {
      JsonArray arr = body.getJsonArray("timers", new JsonArray());
      List<TimerInfo> timers = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        timers.add(TimerInfo.fromJson(arr.getJsonObject(i)));
      }
      return new TimerPage(timers, body.getString("next"));
    });
  }

  /** {@code method path} without a body: the JSON body of a 200, else the answer's error as a TickwheelException. */
  private Future<JsonObject> call(HttpMethod method, String path) {
    RequestOptions ro = new RequestOptions().setMethod(method);
    if (authorization != null) {
      ro.putHeader("Authorization", authorization);
    }
    return Exchange.send(vertx, http, endpoints, ro, path, null, requestTimeoutMs, () -> { }).map(answer -> {
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

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  Future<Void> close() {
    return http.close();
  }
}
