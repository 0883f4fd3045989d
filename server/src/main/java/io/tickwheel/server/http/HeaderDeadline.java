package io.tickwheel.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.tickwheel.server.wire.ErrorBody;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The deadline for a request's headers on one HTTP/1.x connection (against clients that send them byte by byte to
 * hold the connection, "slowloris"): the headers must have arrived {@code timeoutMs} after the first byte of the
 * request, or after the connection opened for its first request. Past it, the connection gets {@code 408} with the
 * error body and is closed. Waiting between requests of a kept-alive connection is the idle timeout's business, and
 * a request's body is not covered.
 *
 * <p>Two Netty handlers share the state: one before Vert.x's {@code httpDecoder} sees bytes arrive, one after it sees
 * the decoded request start ({@link HttpRequest}) and end ({@link LastHttpContent}). Once the connection stops being
 * HTTP/1.x (a WebSocket or h2c upgrade removes the decoder), both remove themselves. Every method runs on the
 * channel's event loop; not thread safe otherwise.
 */
final class HeaderDeadline {

  static final String RAW = "tickwheel-header-deadline-raw";
  static final String DECODED = "tickwheel-header-deadline";
  private static final String DECODER = "httpDecoder";
  private static final String VERTX_HANDLER = "handler";
  private static final System.Logger LOG = System.getLogger(HeaderDeadline.class.getName());

  private final long timeoutMs;
  private ChannelHandlerContext raw;
  private ScheduledFuture<?> timer;
  private boolean inRequest;

  private HeaderDeadline(long timeoutMs) {
    this.timeoutMs = timeoutMs;
  }

  /**
   * Installs the deadline on {@code ch} (a Vert.x HTTP/1.x server connection) and arms it for the first request.
   * Returns {@code false}, installing nothing, if the pipeline is not one (HTTP/2).
   */
  static boolean install(Channel ch, long timeoutMs) {
    ChannelPipeline p = ch.pipeline();
    if (p.get(DECODER) == null || p.get(VERTX_HANDLER) == null || p.get(RAW) != null) {
      return false;
    }
    HeaderDeadline d = new HeaderDeadline(timeoutMs);
    p.addBefore(DECODER, RAW, d.new Bytes());
    p.addBefore(VERTX_HANDLER, DECODED, d.new Decoded());
    d.arm();
    return true;
  }

  private void arm() {
    if (timer == null && raw != null && raw.channel().isActive()) {
      timer = raw.executor().schedule(this::expire, timeoutMs, TimeUnit.MILLISECONDS);
    }
  }

  private void disarm() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void expire() {
    timer = null;
    if (inRequest || raw == null || !raw.channel().isActive()) {
      return;
    }
    LOG.log(System.Logger.Level.DEBUG, () -> "closing " + raw.channel().remoteAddress()
        + ": request headers not received within " + timeoutMs + " ms (--header-timeout-ms)");
    byte[] body = ErrorBody.of("invalid_argument", "request headers not received within " + timeoutMs
        + " ms (--header-timeout-ms)", null).encode().getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncontent-length: " + body.length
        + "\r\nconnection: close\r\n\r\n";
    // written from before the HTTP codec: the bytes go out as they are
    raw.writeAndFlush(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void remove(ChannelPipeline p) {
    disarm();
    if (p.get(RAW) != null) {
      p.remove(RAW);
    }
    if (p.get(DECODED) != null) {
      p.remove(DECODED);
    }
  }

  /** Before the decoder: a request's first byte arms the deadline. */
  private final class Bytes extends ChannelInboundHandlerAdapter {
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      raw = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (ctx.pipeline().get(DECODER) == null) {
        remove(ctx.pipeline()); // upgraded: no more HTTP/1.x requests on this connection
      } else if (!inRequest) {
        arm();
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      disarm();
      ctx.fireChannelInactive();
    }
  }

  /** After the decoder: the headers are in once the request starts; the next request's bytes re-arm. */
  private final class Decoded extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest) {
        inRequest = true;
        disarm();
      }
      if (msg instanceof LastHttpContent) {
        inRequest = false;
      }
      ctx.fireChannelRead(msg);
    }
  }
}
