package io.tickwheel.server.http;

import io.netty.channel.Channel;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.security.TlsMaterial;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP server every start path listens with: its options, and what is decided per connection before any route.
 * <ul>
 *   <li>The idle timeout ({@code --idle-timeout-ms}): a connection that reads and writes nothing for that long is
 *       closed. Event streams and WebSockets stay open through their heartbeats (the firing hub's comment and ping,
 *       the wheel stream's frames), which come well within it.</li>
 *   <li>The header deadline ({@code --header-timeout-ms}, {@link HeaderDeadline}): 408 and close.</li>
 *   <li>The connection cap ({@code --max-connections}): a request on a connection opened beyond it is answered 503
 *       {@code unavailable} with {@code Retry-After: 1}, and the connection closed. Reaching the cap, and falling
 *       back below it, are logged.</li>
 *   <li>With {@code --tls-cert}, TLS only: a plain HTTP request gets no HTTP answer (the handshake fails).</li>
 *   <li>Without {@code --token} or {@code --tokens-file}, only {@code Host} values naming this server ({@link HostCheck}): others get 421
 *       {@code permission_denied}.</li>
 * </ul>
 * HTTP/1.1 only: with cleartext HTTP/2 (h2c) on, Vert.x would make the connection (and call the connection handler
 * that counts it and sets its header deadline) only once a first request arrived.
 *
 * <p>Connections and requests are handled on the server's context (the verticle's event loop); the counts are not
 * shared with other threads.
 */
public final class HttpEdge {

  private static final System.Logger LOG = System.getLogger(HttpEdge.class.getName());

  private final ServerConfig cfg;
  private final HostCheck hosts;
  private final Set<HttpConnection> refused = new HashSet<>();
  private int open;
  private boolean full;
  /** The last {@code Host} header {@link #hosts} allowed (it always will: the check is pure), or {@code null}. */
  private String lastAllowedHost;

  private HttpEdge(ServerConfig cfg) {
    this.cfg = cfg;
    this.hosts = !cfg.tokensRequired() ? new HostCheck(cfg.host(), cfg.cluster().advertise()) : null;
  }

  /**
   * How often event streams and WebSockets idle get a heartbeat: the firing hub's {@value
   * io.tickwheel.server.push.FiringHub#SSE_HEARTBEAT_MS} ms, or a third of the idle timeout if that is shorter.
   */
  public static long heartbeatMs(ServerConfig cfg) {
    return Math.min(io.tickwheel.server.push.FiringHub.SSE_HEARTBEAT_MS, cfg.idleTimeoutMs() / 3);
  }

  /** The options of the server {@code cfg} asks for, over plain HTTP. */
  public static HttpServerOptions options(ServerConfig cfg) {
    return options(cfg, null);
  }

  /** The options of the server {@code cfg} asks for: with {@code tls} (not {@code null}), HTTPS and WSS only. */
  public static HttpServerOptions options(ServerConfig cfg, TlsMaterial tls) {
    HttpServerOptions o = options0(cfg);
    if (tls != null) {
      o.setSsl(true).setKeyCertOptions(tls.keyCertOptions());
    }
    return o;
  }

  private static HttpServerOptions options0(ServerConfig cfg) {
    return new HttpServerOptions()
        .setHost(cfg.host())
        .setPort(cfg.port())
        .setIdleTimeout((int) Math.min(Integer.MAX_VALUE, cfg.idleTimeoutMs()))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setHttp2ClearTextEnabled(false)
        .setMaxWebSocketMessageSize(io.tickwheel.server.wire.BodyLimit.MAX_WEBSOCKET_MESSAGE_BYTES);
  }

  /**
   * The HTTP server {@code cfg} asks for (not yet listening; HTTPS with {@code tls}, else plain), passing the requests it accepts to {@code requests}.
   * Call on the context that is to own it.
   */
  public static HttpServer create(Vertx vertx, ServerConfig cfg, TlsMaterial tls,
      Handler<HttpServerRequest> requests) {
    HttpEdge edge = new HttpEdge(cfg);
    return vertx.createHttpServer(options(cfg, tls))
        .connectionHandler(edge::connected)
        .requestHandler(req -> edge.handle(req, requests));
  }

  /** Open connections now (the ones beyond the cap included, until they close). */
  int open() {
    return open;
  }

  private void connected(HttpConnection c) {
    open++;
    if (open > cfg.maxConnections()) {
      refused.add(c);
      if (!full) {
        full = true;
        LOG.log(System.Logger.Level.WARNING, cfg.maxConnections() + " connections open (--max-connections): "
            + "requests on new connections are answered 503 until some close");
      }
    }
    Runnable closed = () -> {
      open--;
      refused.remove(c);
      if (full && open < cfg.maxConnections()) {
        full = false;
        LOG.log(System.Logger.Level.INFO, "below " + cfg.maxConnections() + " connections again "
            + "(--max-connections): new connections are served");
      }
    };
    if (c instanceof io.vertx.core.net.impl.ConnectionBase base) {
      // the channel's close future, not the connection's single close handler (which others may set)
      Channel ch = base.channel();
      ch.closeFuture().addListener(f -> closed.run());
      if (ch.eventLoop().inEventLoop()) {
        HeaderDeadline.install(ch, cfg.headerTimeoutMs());
      } else {
        ch.eventLoop().execute(() -> HeaderDeadline.install(ch, cfg.headerTimeoutMs()));
      }
    } else {
      c.closeHandler(v -> closed.run());
    }
  }

  private void handle(HttpServerRequest req, Handler<HttpServerRequest> requests) {
    if (refused.contains(req.connection())) {
      refuse(req, 503, "unavailable", "the server has its maximum of " + cfg.maxConnections()
          + " connections open (--max-connections); retry later");
      return;
    }
    String host = req.getHeader(HttpHeaders.HOST);
    if (hosts != null && !(host != null && host.equals(lastAllowedHost)) && !allowsHost(host)) {
      refuse(req, 421, "permission_denied", "Host \"" + ErrorResponses.shorten(host) + "\" does not name this "
          + "server: without --token it answers only localhost, loopback addresses, its --host and its "
          + "--advertise host (set --token to serve other names)");
      return;
    }
    requests.handle(req);
  }

  /** {@link HostCheck#allows}, the last {@code Host} allowed kept: most requests repeat it. */
  private boolean allowsHost(String host) {
    if (!hosts.allows(host)) {
      return false;
    }
    lastAllowedHost = host;
    return true;
  }

  private static void refuse(HttpServerRequest req, int status, String code, String message) {
    req.response().setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .putHeader(HttpHeaders.CONNECTION, "close");
    if (status == 503) {
      req.response().putHeader("Retry-After", "1");
    }
    req.response().end(ErrorBody.of(code, message, null).toBuffer()).onComplete(v -> req.connection().close());
  }
}
