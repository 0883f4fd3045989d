package io.tickwheel.server.http;

import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.metrics.RouteMeters;
import io.tickwheel.server.push.FiringPush;
import io.tickwheel.server.route.InternalCodec;
import io.tickwheel.server.push.WsCommands;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.security.Role;
import io.tickwheel.server.security.Tokens;
import io.tickwheel.server.wire.ErrorBody;
import io.tickwheel.server.wire.BodyLimit;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;
import java.util.Set;

/**
 * The HTTP surface: which handler serves which route, in which order (CORS → request metrics → token and role
 * ({@link Permissions}) → media type and cross-origin writes ({@link RequestGuard}) → recovery gate → body limit →
 * handler; every failure through {@link ErrorResponses}). What is decided per connection before any route is {@link HttpEdge}'s. See
 * {@code openapi.yaml}.
 */
public final class Routes {

  private static final String ROUTE = "tw.route";

  /**
   * What the router needs.
   *
   * @param status        the recovery gate of {@code /v1} and the {@code /health} body
   * @param tokens        the tokens and their roles ({@code null}: none needed)
   * @param allowedOrigins CORS / WebSocket origins besides the server's own
   * @param origins       the WebSocket Origin check
   * @param webSocket     the firing hub's WebSocket entry ({@code /v1/ws}), after auth and Origin checks: the socket,
   *                      its Netty channel ({@code null} if it has none) and the gate of its write commands
   * @param events        the firing hub's SSE entry ({@code GET /v1/events}), after auth
   * @param openapi       the OpenAPI document's text
   * @param cluster       {@code GET /v1/cluster}: the node's ownership described
   * @param webhookSecret {@code GET /v1/webhook-secret}
   * @param internal      the calls between nodes ({@link InternalApi})
   * @param export        {@code GET /v1/export}
   * @param importer      {@code POST /v1/import} (reads its own body, streamed: no body handler)
   * @param firingPush    the firings other nodes push here ({@link FiringPushApi}), or {@code null} (a single node)
   */
  public record Deps(Vertx vertx, NodeStatus status, Metrics metrics, TimersApi timers, TopicsApi topics,
      WheelView wheelView,
      WheelStream wheelStream, Tokens tokens, List<String> allowedOrigins, OriginCheck origins,
      WebSocketEntry webSocket,
      Handler<RoutingContext> events, Buffer openapi, Handler<RoutingContext> cluster, WebhookSecretApi webhookSecret, DeliveriesApi deliveries,
      InternalApi internal, ExportApi export, ImportApi importer, FiringPushApi firingPush) {

    /** Without a firing push route. */
    public Deps(Vertx vertx, NodeStatus status, Metrics metrics, TimersApi timers, TopicsApi topics,
        WheelView wheelView, WheelStream wheelStream, Tokens tokens, List<String> allowedOrigins, OriginCheck origins,
        WebSocketEntry webSocket, Handler<RoutingContext> events, Buffer openapi, Handler<RoutingContext> cluster,
        WebhookSecretApi webhookSecret, DeliveriesApi deliveries, InternalApi internal, ExportApi export,
        ImportApi importer) {
      this(vertx, status, metrics, timers, topics, wheelView, wheelStream, tokens, allowedOrigins, origins, webSocket,
          events, openapi, cluster, webhookSecret, deliveries, internal, export, importer, null);
    }
  }

  /** Where an accepted WebSocket goes. */
  @FunctionalInterface
  public interface WebSocketEntry {
    /** Serves {@code ws} (its Netty {@code channel}, or {@code null}), each write command passing {@code gate}. */
    void accept(ServerWebSocket ws, io.netty.channel.Channel channel, WsCommands.Gate gate);
  }

  /** The GET routes that do not answer HEAD: streams and the export. */
  private static final Set<String> NO_HEAD = Set.of("/v1/events", "/v1/wheel/stream", "/v1/ws", "/v1/export");

  private Routes() {}

  /** Builds the router. */
  public static Router router(Deps d) {
    Router router = Router.router(d.vertx());
    NodeStatus node = d.status();
    Metrics m = d.metrics();
    Tokens tokens = d.tokens() != null ? d.tokens() : Tokens.single(null);
    TokenStreams streams = new TokenStreams();
    tokens.onRevoked(streams::revoked);

    // HEAD is GET without the body (RFC 9110, 9.3.2): routed as a GET, Vert.x leaves the body out; a stream or an
    // export, which would run (or hold a subscriber) for a body nobody reads, answers 405 instead
    router.route().method(HttpMethod.HEAD).handler(rc -> {
      if (NO_HEAD.contains(rc.normalizedPath())) {
        rc.response().putHeader(HttpHeaders.ALLOW, "GET");
        rc.fail(405);
      } else {
        rc.reroute(HttpMethod.GET, rc.request().uri());
      }
    });

    if (!d.allowedOrigins().isEmpty()) {
      CorsHandler cors = CorsHandler.create()
          .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS))
          .allowedHeaders(Set.of("Authorization", "Content-Type", "Last-Event-ID"))
          .exposedHeader("Location")
          .maxAgeSeconds(600);
      if (d.allowedOrigins().contains("*")) {
        cors.addOrigin("*");
      } else {
        cors.addOrigins(d.allowedOrigins());
      }
      // Same-origin requests (the console the server itself serves) and non-browser ones pass untouched; the
      // CORS handler answers preflights and refuses other origins with 403.
      router.route().handler(rc -> {
        String origin = rc.request().getHeader(HttpHeaders.ORIGIN);
        String host = rc.request().getHeader(HttpHeaders.HOST);
        if (origin == null || (host != null
            && (origin.equalsIgnoreCase("http://" + host) || origin.equalsIgnoreCase("https://" + host)))) {
          rc.next();
        } else {
          cors.handle(rc);
        }
      });
    }

    RouteMeters other = m.httpRoute("other");
    router.route().handler(rc -> {
      long t0 = System.nanoTime();
      rc.addEndHandler(v -> {
        RouteMeters route = rc.get(ROUTE);
        (route == null ? other : route).record(rc.request().method().name(), rc.response().getStatusCode(),
            System.nanoTime() - t0);
      });
      rc.next();
    });

    // open endpoints
    router.get("/health").handler(tag(m.httpRoute("/health"))).handler(rc -> {
      if (!node.ready()) {
        Replies.json(rc, 503, new JsonObject().put("status", "recovering").toBuffer());
        return;
      }
      Replies.json(rc, 200, node.health().toBuffer());
    });
    router.get("/metrics").handler(tag(m.httpRoute("/metrics"))).handler(rc -> rc.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
        .end(d.metrics().scrape()));
    router.get("/openapi.yaml").handler(tag(m.httpRoute("/openapi.yaml"))).handler(rc -> rc.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/yaml; charset=utf-8")
        .end(d.openapi()));
    router.get("/").handler(tag(m.httpRoute("/"))).handler(rc -> rc.redirect("/console/"));
    // exactly "/console" (a plain route would also match "/console/" and redirect it to itself)
    router.getWithRegex("^/console$").handler(tag(m.httpRoute("/console"))).handler(rc -> rc.redirect("/console/"));
    // short max-age: after an upgrade, browsers pick up the new console within a minute
    router.get("/console/*").handler(tag(m.httpRoute("/console/*"))).handler(StaticHandler.create("console")
        .setIndexPage("index.html").setCachingEnabled(true).setMaxAgeSeconds(60).setDirectoryListing(false));

    // /v1: auth first (before any body is read), then what a browser page may send, then the recovery gate
    if (tokens.required()) {
      router.route("/v1/*").handler(new AuthHandler(tokens));
    }
    router.route("/v1/*").handler(new RequestGuard(!tokens.required(), d.origins()));
    // the admin routes guard themselves too: whatever spelling of the path the router matched them by
    for (String adminOnly : List.of("/v1/webhook-secret", "/v1/export", "/v1/import")) {
      router.route(adminOnly).handler(AuthHandler.require(Role.ADMIN));
    }
    Handler<RoutingContext> recovering = rc -> {
      if (node.ready()) {
        rc.next();
      } else {
        rc.fail(OutcomeMapping.error(new Refusal.Recovering()));
      }
    };
    router.route("/v1/*").handler(recovering);
    // the calls between nodes: browsers refused first, then the same token and recovery gate as /v1
    router.route("/internal/*").handler(InternalApi::guard);
    if (tokens.required()) {
      router.route("/internal/*").handler(new AuthHandler(tokens));
    }
    router.route("/internal/*").handler(recovering);

    BodyHandler body = BodyHandler.create(false).setBodyLimit(BodyLimit.MAX_BODY_BYTES);
    TimersApi t = d.timers();
    on(router.post("/v1/timers/batch").handler(body), m.httpRoute("/v1/timers/batch")).handler(t::batch);
    on(router.post("/v1/timers/touch").handler(body), m.httpRoute("/v1/timers/touch")).handler(t::touchBatch);
    // the single writes: the route's tag and its handler in one step (one router hop less per request)
    router.post("/v1/timers").handler(body).handler(tagged(HttpMethod.POST, "/v1/timers", m, t::create));
    on(router.get("/v1/timers"), m.httpRoute("/v1/timers")).handler(t::list);
    router.put("/v1/timers/:id").handler(body).handler(tagged(HttpMethod.PUT, "/v1/timers/:id", m, t::upsert));
    on(router.get("/v1/timers/:id"), m.httpRoute("/v1/timers/:id")).handler(t::get);
    router.delete("/v1/timers/:id").handler(tagged(HttpMethod.DELETE, "/v1/timers/:id", m, t::delete));
    router.post("/v1/timers/:id/touch").handler(body)
        .handler(tagged(HttpMethod.POST, "/v1/timers/:id/touch", m, t::touch));
    on(router.post("/v1/timers/:id/pause"), m.httpRoute("/v1/timers/:id/pause")).handler(t::pause);
    on(router.post("/v1/timers/:id/resume"), m.httpRoute("/v1/timers/:id/resume")).handler(t::resume);
    on(router.post("/v1/timers/:id/fire"), m.httpRoute("/v1/timers/:id/fire")).handler(t::fire);
    TopicsApi topics = d.topics();
    on(router.get("/v1/topics"), m.httpRoute("/v1/topics")).handler(topics::list);
    on(router.post("/v1/topics/:topic/pause"), m.httpRoute("/v1/topics/:topic/pause")).handler(topics::pause);
    on(router.post("/v1/topics/:topic/resume"), m.httpRoute("/v1/topics/:topic/resume")).handler(topics::resume);
    on(router.get("/v1/wheel"), m.httpRoute("/v1/wheel")).handler(rc ->
        Replies.json(rc, 200, d.wheelView().snapshot().toBuffer()));
    Handler<RoutingContext> tracked = rc -> {
      streams.track(rc.get(AuthHandler.DIGEST), rc.request().connection());
      rc.next();
    };
    on(router.get("/v1/wheel/stream"), m.httpRoute("/v1/wheel/stream")).handler(tracked)
        .handler(d.wheelStream()::handle);
    on(router.get("/v1/events"), m.httpRoute("/v1/events")).handler(tracked).handler(d.events());
    on(router.get("/v1/me"), m.httpRoute("/v1/me")).handler(rc -> Replies.json(rc, 200, new JsonObject()
        .put("role", AuthHandler.role(rc).wire()).put("tokensRequired", tokens.required()).toBuffer()));
    on(router.get("/v1/cluster"), m.httpRoute("/v1/cluster")).handler(d.cluster());
    on(router.get("/v1/ws"), m.httpRoute("/v1/ws")).handler(rc -> upgrade(rc, d, tokens, streams));
    on(router.get("/v1/webhook-secret"), m.httpRoute("/v1/webhook-secret")).handler(d.webhookSecret()::get);
    on(router.get("/v1/export"), m.httpRoute("/v1/export")).handler(d.export()::export);
    on(router.post(RequestGuard.IMPORT), m.httpRoute(RequestGuard.IMPORT)).handler(d.importer()::handle);
    DeliveriesApi dl = d.deliveries();
    on(router.get("/v1/deliveries"), m.httpRoute("/v1/deliveries")).handler(dl::list);
    on(router.get("/v1/deliveries/:id"), m.httpRoute("/v1/deliveries/:id")).handler(dl::get);
    on(router.post("/v1/deliveries/:id/retry"), m.httpRoute("/v1/deliveries/:id/retry")).handler(dl::retry);
    on(router.post(InternalCodec.PATH).handler(BodyHandler.create(false).setBodyLimit(InternalCodec.MAX_BODY_BYTES)),
        m.httpRoute(InternalCodec.PATH)).handler(d.internal()::handle);
    InternalSocket calls = new InternalSocket(d.internal(), node::ready);
    on(router.get(InternalCodec.PATH), m.httpRoute(InternalCodec.PATH)).handler(rc -> {
      if (!rc.request().canUpgradeToWebSocket()) {
        rc.fail(ApiException.invalid(null, InternalCodec.PATH + " takes a POST or a WebSocket upgrade request"));
        return;
      }
      toWebSocket(rc, streams, ws -> calls.serve(ws, stillAdmin(rc, tokens)));
    });
    if (d.firingPush() != null) {
      on(router.post(FiringPush.PATH).handler(BodyHandler.create(false).setBodyLimit(InternalCodec.MAX_BODY_BYTES)),
          m.httpRoute(FiringPush.PATH)).handler(d.firingPush()::handle);
      on(router.get(FiringPush.PATH), m.httpRoute(FiringPush.PATH)).handler(rc -> {
        if (!rc.request().canUpgradeToWebSocket()) {
          rc.fail(ApiException.invalid(null, FiringPush.PATH + " takes a POST or a WebSocket upgrade request"));
          return;
        }
        toWebSocket(rc, streams, ws -> d.firingPush().serve(ws, stillAdmin(rc, tokens)));
      });
    }

    router.route().failureHandler(ErrorResponses::handle);
    for (int status : new int[] {400, 401, 403, 404, 405, 413, 414, 415, 431, 500, 501, 503}) {
      router.errorHandler(status, rc -> ErrorResponses.status(rc, status));
    }
    return router;
  }

  private static void upgrade(RoutingContext rc, Deps d, Tokens tokens, TokenStreams streams) {
    if (!rc.request().canUpgradeToWebSocket()) {
      rc.fail(ApiException.invalid(null, "/v1/ws needs a WebSocket upgrade request"));
      return;
    }
    String origin = rc.request().getHeader(HttpHeaders.ORIGIN);
    if (!d.origins().allows(origin, rc.request().getHeader(HttpHeaders.HOST))) {
      rc.fail(new ApiException(403, "permission_denied",
          "Origin \"" + ErrorResponses.shorten(origin) + "\" is not allowed (see --allowed-origins)", null));
      return;
    }
    io.netty.channel.Channel channel = WsFlushes.consolidate(rc.request().connection());
    byte[] digest = rc.get(AuthHandler.DIGEST);
    WsCommands.Gate gate = digest == null ? null : op -> {
      // the role now: a re-read tokens file may have changed it since the upgrade
      Role now = tokens.roleOfDigest(digest);
      Role needed = Permissions.neededForCommand();
      if (now != null && now.allows(needed)) {
        return null;
      }
      return new WsCommands.Result(403, null, ErrorBody.detail("permission_denied", "the " + op.wire
          + " command needs a token of role " + needed.wire() + " or above; this token's role is "
          + (now == null ? "none (removed)" : now.wire()), null));
    };
    toWebSocket(rc, streams, ws -> d.webSocket().accept(ws, channel, gate));
  }

  /**
   * Whether the token {@code rc} was authorized with is an admin token now (a re-read tokens file may have changed
   * its role); always true without tokens.
   */
  private static java.util.function.BooleanSupplier stillAdmin(RoutingContext rc, Tokens tokens) {
    byte[] digest = rc.get(AuthHandler.DIGEST);
    if (digest == null) {
      return () -> true;
    }
    return () -> {
      Role now = tokens.roleOfDigest(digest);
      return now != null && now.allows(Role.ADMIN);
    };
  }

  /**
   * Upgrades {@code rc}'s request to a WebSocket, tracks it under the request's token (closed if the token is removed)
   * and hands it to {@code accept}; a failed upgrade fails the request if nothing was answered yet.
   */
  private static void toWebSocket(RoutingContext rc, TokenStreams streams, Handler<ServerWebSocket> accept) {
    byte[] digest = rc.get(AuthHandler.DIGEST);
    var connection = rc.request().connection();
    rc.request().toWebSocket().onComplete(ar -> {
      if (ar.succeeded()) {
        streams.track(digest, ar.result(), connection);
        accept.handle(ar.result());
      } else if (!rc.response().headWritten()) {
        rc.fail(ApiException.invalid(null, "WebSocket upgrade failed: " + ar.cause().getMessage()));
      }
    });
  }

  /**
   * Marks {@code r}'s requests as its own ({@link #tag}); on {@code /v1}, refuses query parameters and a body it does
   * not take ({@link RouteInputs}).
   */
  private static Route on(Route r, RouteMeters meters) {
    Set<String> params = RouteInputs.taken(r);
    if (params == null) {
      return r.handler(tag(meters));
    }
    boolean bodyTaken = RouteInputs.takesBody(r);
    return r.handler(rc -> {
      rc.put(ROUTE, meters);
      if (RouteInputs.check(rc, params, bodyTaken)) {
        rc.next();
      }
    });
  }

  /**
   * {@code handler} of route {@code method path}, the request first marked as the route's ({@link #tag}) and refused
   * if it has a query parameter (the single timer writes take none) or a body the route does not take
   * ({@link RouteInputs}).
   */
  private static Handler<RoutingContext> tagged(HttpMethod method, String path, Metrics m,
      Handler<RoutingContext> handler) {
    RouteMeters meters = m.httpRoute(path);
    boolean bodyTaken = RouteInputs.takesBody(method, path);
    return rc -> {
      rc.put(ROUTE, meters);
      if (RouteInputs.check(rc, Set.of(), bodyTaken)) {
        handler.handle(rc);
      }
    };
  }

  /** Marks the request as the route's, for its latency meter. */
  private static Handler<RoutingContext> tag(RouteMeters meters) {
    return rc -> {
      rc.put(ROUTE, meters);
      rc.next();
    };
  }
}
