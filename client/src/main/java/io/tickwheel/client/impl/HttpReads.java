package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClientOptions;
import io.tickwheel.client.TickwheelException;
import io.tickwheel.client.TimerInfo;
import io.tickwheel.client.TimerPage;
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
 * The reads the WebSocket has no command for: {@code GET /v1/timers/{id}} and {@code GET /v1/timers?…}, over
 * Vert.x's HTTP client (keep-alive, at most 8 connections), with the options' connect and idle timeouts and the
 * request timeout as the request's idle timeout. Thread safe (Vert.x's client is).
 */
final class HttpReads {
  private final HttpClientAgent http;
  private final Endpoints endpoints;
  private final String authorization;
  private final long requestTimeoutMs;

  HttpReads(Vertx vertx, TickwheelClientOptions o, Endpoints endpoints) {
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(o.getConnectTimeoutMs())
        .setIdleTimeout(o.getIdleTimeoutMs()).setIdleTimeoutUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
        .setSsl(endpoints.tls()), new PoolOptions().setHttp1MaxSize(8));
    this.endpoints = endpoints;
    this.authorization = o.getToken() == null ? null : "Bearer " + o.getToken();
    this.requestTimeoutMs = o.getRequestTimeoutMs();
  }

  Future<TimerInfo> get(String id) {
    return call("/v1/timers/" + enc(id)).map(TimerInfo::fromJson);
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
    return call(q.toString()).map(body -> {
      JsonArray arr = body.getJsonArray("timers", new JsonArray());
      List<TimerInfo> timers = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        timers.add(TimerInfo.fromJson(arr.getJsonObject(i)));
      }
      return new TimerPage(timers, body.getString("next"));
    });
  }

  /** GET {@code path}: the JSON body of a 200, else the answer's error as a TickwheelException. */
  private Future<JsonObject> call(String path) {
    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.GET).setIdleTimeout(requestTimeoutMs);
    if (authorization != null) {
      ro.putHeader("Authorization", authorization);
    }
    return endpoints.request(http, ro, path).compose(req -> req.send()).compose(resp -> resp.body().map(buf -> {
      Object body;
      try {
        body = buf.length() == 0 ? null : io.vertx.core.json.Json.decodeValue(buf);
      } catch (DecodeException e) {
        body = buf.toString(StandardCharsets.UTF_8);
      }
      if (resp.statusCode() == 200 && body instanceof JsonObject o) {
        return o;
      }
      if (resp.statusCode() == 200) {
        throw TickwheelException.client(TickwheelException.PROTOCOL, "GET " + path + ": 200 without a JSON object",
            false);
      }
      throw Answers.error(resp.statusCode(), body);
    }));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  Future<Void> close() {
    return http.close();
  }
}
