package io.tickwheel.server.push;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.vertx.core.http.ServerWebSocket;

/**
 * The text messages of one {@code /v1/ws} socket, gathered per event-loop task into one buffer of encoded WebSocket
 * frames and written to the socket's Netty channel in one write.
 *
 * <p>Vert.x's {@code writeTextMessage} costs a promise, an outbound-queue entry, a pipeline write and a frame encoding
 * per message: with 100,000 firings a second to one subscriber that was a quarter of the owner event loop. Here a
 * message is a header (RFC 6455 §5.2: FIN, opcode text, unmasked, the payload length in 1, 3 or 9 bytes) and its
 * UTF-8 bytes appended to a pooled buffer; the buffer goes down the pipeline once, at the end of the current
 * event-loop task (or once it holds {@value #WRITE_AT} bytes). A raw buffer passes the WebSocket frame encoder
 * untouched, and a frame with RSV1 clear is a valid uncompressed message also where permessage-deflate was agreed.
 *
 * <p>Order: every message of the subscriber goes through here, so they leave in the order written. Before Vert.x
 * writes anything itself on this socket (a close frame, a message over {@value #MAX_GATHERED} bytes, which Vert.x
 * splits into frames the client's frame limit accepts) {@link #flush} hands over what is gathered first.
 *
 * <p>Back-pressure: the gathered bytes are at most {@value #WRITE_AT} plus one message. What is written bypasses
 * Vert.x's outbound queue, so {@code ws.writeQueueFull()} and its drain handler do not see it: {@link #full()} is the
 * channel's own writability (Netty's write-buffer water marks over its outbound buffer), and the {@code onWritable}
 * callback runs when the channel becomes writable again (a handler at the head of the pipeline).
 *
 * <p>Without a Netty channel (a socket that is not Vert.x's own), or off the channel's event loop, messages go
 * through {@code writeTextMessage} as before. Not thread safe: the socket's event loop only.
 */
final class WsTextFrames {

  /** Messages longer than this (UTF-8 bytes) are written by Vert.x, which splits them into frames. */
  static final int MAX_GATHERED = 16 * 1024;
  /** Gathered bytes beyond which the buffer is written at once. */
  static final int WRITE_AT = 64 * 1024;

  private final ServerWebSocket ws;
  private final Channel channel;
  private ByteBuf gathered;
  private boolean writeScheduled;
  private final Runnable endOfTask = this::endOfTask;
  /** Buffers written to the channel (tests; written on the event loop only, before the write). */
  volatile long writes;

  /**
   * @param channel    the socket's Netty channel, or {@code null} to write every message through Vert.x
   * @param onWritable called on the event loop when the channel turns writable again after {@link #full()}
   */
  WsTextFrames(ServerWebSocket ws, Channel channel, Runnable onWritable) {
    this.ws = ws;
    this.channel = channel;
    if (channel != null) {
      channel.pipeline().addFirst(new io.netty.channel.ChannelInboundHandlerAdapter() {
        @Override
        public void channelWritabilityChanged(io.netty.channel.ChannelHandlerContext ctx) {
          ctx.fireChannelWritabilityChanged();
          if (ctx.channel().isWritable()) {
            onWritable.run();
          }
        }
      });
    }
  }

  /** Whether the channel's outbound buffer is over its high water mark (what was written here counts in it). */
  boolean full() {
    return channel != null && !channel.isWritable();
  }

  /** Sends {@code text} as one text message. */
  void write(String text) {
    if (channel == null || !channel.eventLoop().inEventLoop() || text.length() > MAX_GATHERED) {
      flush();
      ws.writeTextMessage(text);
      return;
    }
    write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * Sends {@code text} as one text message, encoded as UTF-8 straight into the gathered buffer (no {@code String} or
   * byte array in between). {@code text} is not changed afterwards.
   */
  void write(CharSequence text) {
    if (text instanceof String s) {
      write(s);
      return;
    }
    if (channel == null || !channel.eventLoop().inEventLoop() || text.length() > MAX_GATHERED) {
      flush();
      ws.writeTextMessage(text.toString());
      return;
    }
    int n = io.netty.buffer.ByteBufUtil.utf8Bytes(text);
    if (n > MAX_GATHERED) {
      flush();
      ws.writeTextMessage(text.toString());
      return;
    }
    header(n, n);
    io.netty.buffer.ByteBufUtil.reserveAndWriteUtf8(gathered, text, n);
    gathered();
  }

  /** Sends {@code utf8} (valid UTF-8, at most {@link #MAX_GATHERED} bytes, not changed afterwards) as one text message. */
  void write(byte[] utf8) {
    if (channel == null || !channel.eventLoop().inEventLoop() || utf8.length > MAX_GATHERED) {
      flush();
      ws.writeTextMessage(new String(utf8, java.nio.charset.StandardCharsets.UTF_8));
      return;
    }
    header(utf8.length, utf8.length);
    gathered.writeBytes(utf8);
    gathered();
  }

  /** Starts a text frame of {@code n} bytes in the gathered buffer (made if need be, sized for {@code hint}). */
  private void header(int n, int hint) {
    if (gathered == null) {
      gathered = channel.alloc().buffer(Math.max(1024, Math.min(WRITE_AT, 16 * (hint + 4))));
    }
    gathered.writeByte(0x81);                       // FIN, text
    if (n < 126) {
      gathered.writeByte(n);
    } else {                                        // n <= MAX_GATHERED < 65536
      gathered.writeByte(126);
      gathered.writeShort(n);
    }
  }

  /** After a message was gathered: written now if the buffer is large, else at the end of the task. */
  private void gathered() {
    if (gathered.readableBytes() >= WRITE_AT) {
      flush();
    } else if (!writeScheduled) {
      writeScheduled = true;
      try {
        channel.eventLoop().execute(endOfTask);
      } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
        writeScheduled = false;
        flush();
      }
    }
  }

  /** Writes what is gathered to the channel now (before Vert.x writes on this socket, and at the end of a task). */
  void flush() {
    ByteBuf b = gathered;
    if (b == null) {
      return;
    }
    gathered = null;
    writes++;
    if (channel.isActive()) {
      channel.writeAndFlush(b, channel.voidPromise());
    } else {
      b.release();
    }
  }

  private void endOfTask() {
    writeScheduled = false;
    flush();
  }

  /** Drops what is gathered (the socket is gone). */
  void discard() {
    if (gathered != null) {
      gathered.release();
      gathered = null;
    }
  }
}
