package io.tickwheel.server.push;

import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.wire.PushNotices;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A {@code /v1/ws} subscriber: the client protocol (subscribe, unsubscribe, ping) on top of a {@link Subscriber}
 * stream. Firings and replies are text messages, gathered per event-loop task into one write ({@link WsTextFrames});
 * a firing's JSON and its UTF-8 bytes are built once per publish and shared by every socket it goes to.
 *
 * <p>Client messages are aggregated from their frames here, so the size bound holds before anything is buffered:
 * a message over {@link PushOptions#maxWsFrameBytes} closes the socket with 1009. A single frame over the HTTP
 * server's own {@code maxWebSocketFrameSize} is refused by the decoder; that too is answered with close 1009
 * (a malformed frame with the decoder's code, 1002 or 1007) rather than a dropped connection. Binary messages get
 * an error reply. A bad message gets {@code {"type":"error","code":"invalid_argument","message":…,"field":…}} and the
 * socket stays open.
 *
 * <p>Not thread safe: owner context only.
 */
final class WsSubscriber extends Subscriber {

  /** Close code: the client did not keep up; it should reconnect and resume with {@code from}. */
  static final short CLOSE_TRY_AGAIN_LATER = 1013;
  /** Close code: a client message was over the size limit. */
  static final short CLOSE_TOO_BIG = 1009;
  /** Close code: the server is stopping. */
  static final short CLOSE_GOING_AWAY = 1001;
  /** Close code: the firing log could not be read. */
  static final short CLOSE_INTERNAL_ERROR = 1011;

  static final String SLOW_REASON = "subscriber too slow, resume with from";

  private static final String PONG = new JsonObject().put("type", "pong").encode();

  private final ServerWebSocket ws;
  private final WsTextFrames frames;
  private final int maxMessageBytes;
  private final int maxInFlight;
  /** Checks each write command before it runs, or {@code null}. */
  private final WsCommands.Gate gate;
  /** Write commands sent and not yet answered. */
  private int inFlight;
  /** Whether reading is paused: {@link #maxInFlight} commands in flight, or results waiting for the socket. */
  private boolean readPaused;
  /** Bytes of the message being received (its frames so far); {@code -1} between messages. */
  private int messageBytes = -1;
  private Buffer messageText;
  private boolean messageBinary;

  /** @param channel the socket's Netty channel, or {@code null}: then messages go through Vert.x one by one */
  WsSubscriber(FiringHub hub, ServerWebSocket ws, io.netty.channel.Channel channel, WsCommands.Gate gate) {
    super(hub, hub.metrics.ws);
    this.ws = ws;
    this.frames = new WsTextFrames(ws, channel, this::onWritable);
    this.maxMessageBytes = hub.options.maxWsFrameBytes();
    this.maxInFlight = hub.options.maxCommandsInFlight();
    this.gate = gate;
  }

  /** Installs the handlers; messages are processed from then on (or once the socket is resumed). */
  void start() {
    ws.frameHandler(this::onFrame);
    ws.drainHandler(v -> onWritable());
    ws.closeHandler(v -> {
      frames.discard();
      transportEnded();
    });
    ws.exceptionHandler(this::onException);
  }

  /** The socket can take more: what waits goes out, and reading resumes if it waited for room. */
  private void onWritable() {
    flush();
    readMore();
  }

  /**
   * A frame the decoder refused: over the server's {@code maxWebSocketFrameSize} (1009) or malformed (its close
   * code, 1002 or 1007). Answered with that close code instead of a dropped connection.
   */
  private void onException(Throwable t) {
    if (t instanceof CorruptedWebSocketFrameException bad && state() != State.CLOSED && !ws.isClosed()) {
      terminate();
      WebSocketCloseStatus status = bad.closeStatus();
      String reason = bad.getMessage() != null && bad.getMessage().length() <= 120 ? bad.getMessage()
          : status.reasonText();
      frames.flush();
      ws.close((short) status.code(), reason);
      return;
    }
    FiringHub.LOG.log(System.Logger.Level.DEBUG, "WebSocket subscriber error", t);
  }

  // ---- client messages ----

  private void onFrame(WebSocketFrame frame) {
    if (state() == State.CLOSED) {
      return;
    }
    if (frame.isText() || frame.isBinary()) {
      messageBytes = 0;
      messageBinary = frame.isBinary();
      messageText = null;
    } else if (!frame.isContinuation() || messageBytes < 0) {
      return; // ping, pong, close: Vert.x answers them
    }
    Buffer data = frame.binaryData();
    messageBytes += data.length();
    if (messageBytes > maxMessageBytes) {
      terminate();
      frames.flush();
      ws.close(CLOSE_TOO_BIG, "message over " + maxMessageBytes + " bytes");
      return;
    }
    if (!messageBinary) {
      if (frame.isFinal() && messageText == null) {
        messageBytes = -1;
        onText(data.getBytes());
        return;
      }
      messageText = messageText == null ? Buffer.buffer(data.length() * 2).appendBuffer(data)
          : messageText.appendBuffer(data);
    }
    if (frame.isFinal()) {
      messageBytes = -1;
      Buffer text = messageText;
      messageText = null;
      if (messageBinary) {
        sendControl(PushNotices.error("invalid_argument", null, "binary messages are not supported: send JSON text"));
      } else {
        onText(text.getBytes());
      }
    }
  }

  /** A text message, its UTF-8 bytes (not changed afterwards). */
  private void onText(byte[] utf8) {
    WsRequest request;
    try {
      request = WsRequest.parse(utf8, hub.commands);
    } catch (ValidationException e) {
      sendControl(PushNotices.error("invalid_argument", e.field(), e.getMessage()));
      return;
    }
    if (request instanceof WsRequest.Ping) {
      sendControl(PONG);
    } else if (request instanceof WsRequest.Subscribe s) {
      subscribe(s.topics(), s.from());
    } else if (request instanceof WsRequest.Unsubscribe u) {
      unsubscribe(u.topics());
    } else if (request instanceof WsRequest.Command c) {
      execute(c);
    }
  }

  // ---- write commands ----

  /**
   * Runs a write command; its result goes out when the scheduler answers (possibly after results of later
   * commands). At {@link PushOptions#maxCommandsInFlight} unanswered commands, or while results wait beyond the
   * socket's write queue, the socket is paused: the client's further messages wait in TCP until results drain.
   */
  private void execute(WsRequest.Command c) {
    inFlight++;
    WsCommands.Result refused = gate == null ? null : gate.refuse(c.op());
    Handler<WsCommands.Result> answered = r -> {
      inFlight--;
      if (state() != State.CLOSED && !ws.isClosed()) {
        sendControl(result(c.ref(), r));
        readMore();
      }
    };
    if (refused != null) {
      answered.handle(refused);
    } else {
      hub.commands.execute(c.op(), c.args(), answered);
    }
    if (inFlight >= maxInFlight || backlogged()) {
      readPaused = true;
      ws.pause();
    }
  }

  /** Resumes reading once commands in flight are under the cap and no result waits for the socket. */
  private void readMore() {
    if (readPaused && inFlight < maxInFlight && !backlogged() && state() != State.CLOSED) {
      readPaused = false;
      ws.resume();
    }
  }

  /**
   * The result message of command {@code ref}: built once, the timer appended in place ({@link TimerJson#append});
   * written to the socket's buffer as UTF-8 from the builder ({@link WsTextFrames#write(CharSequence)}).
   */
  static StringBuilder result(String ref, WsCommands.Result r) {
    Timer t = r.timer();
    StringBuilder sb = new StringBuilder(64 + ref.length() + (t == null ? 0 : 192 + (t.payload() == null ? 0
        : t.payload().length())))
        .append("{\"type\":\"result\",\"ref\":");
    TimerJson.appendString(sb, ref).append(",\"status\":").append(r.status());
    if (t != null) {
      TimerJson.append(sb.append(",\"timer\":"), t);
    }
    if (r.error() != null) {
      sb.append(",\"error\":").append(r.error().encode());
    }
    return sb.append('}');
  }

  private void subscribe(List<String> add, String fromText) {
    int total = topics.size() + topics.countNew(add);
    if (total > FiringHub.MAX_TOPICS_PER_SUBSCRIBER) {
      sendControl(PushNotices.error("invalid_argument", "topics", "a socket may subscribe to at most "
          + FiringHub.MAX_TOPICS_PER_SUBSCRIBER + " topics, this would make " + total));
      return;
    }
    if (fromText != null) {
      if (!topics.isEmpty()) {
        sendControl(PushNotices.error("invalid_argument", "from", "from is only accepted while nothing is subscribed on this socket"
            + " (subscribed: " + topics.sorted() + "); unsubscribe first or use another socket"));
        return;
      }
      long[] from;
      try {
        from = hub.parseFrom("from", fromText);
      } catch (ValidationException e) {
        sendControl(PushNotices.error("invalid_argument", "from", e.getMessage()));
        return;
      }
      topics.add(add, hub.feed.clustered() ? 0 : from[0]);
      hub.reindex(this);
      if (sendControl(subscribed())) {
        startReplay(from);
      }
      return;
    }
    boolean fresh = topics.isEmpty();
    topics.add(add, hub.stamp());
    hub.reindex(this);
    if (sendControl(subscribed()) && fresh) {
      startLive(null);
    }
  }

  private void unsubscribe(List<String> remove) {
    topics.remove(remove);
    hub.reindex(this);
    if (topics.isEmpty()) {
      stop();
    }
    sendControl(new JsonObject().put("type", "unsubscribed").put("topics", new JsonArray(topics.sorted())).encode());
  }

  /** The answer to a subscribe: the socket's topics and the hub's position now ({@code seq} on a single node). */
  private String subscribed() {
    JsonObject o = new JsonObject().put("type", "subscribed").put("topics", new JsonArray(topics.sorted()));
    if (!hub.feed.clustered()) {
      o.put("seq", hub.latestSeq());
    }
    return o.put("cursor", hub.latestCursor()).encode();
  }

  // ---- transport ----

  /** A ping if nothing waits for the socket (clients answer with a pong, so both directions see traffic). */
  @Override
  void heartbeat() {
    if (state() != State.CLOSED && !backlogged() && !transportClosed()) {
      frames.flush();
      ws.writePing(Buffer.buffer());
    }
  }

  @Override
  boolean transportClosed() {
    return ws.isClosed();
  }

  @Override
  boolean transportFull() {
    try {
      return frames.full() || ws.writeQueueFull();
    } catch (IllegalStateException closed) {
      return true;
    }
  }

  @Override
  void writeFiring(EncodedFiring e) {
    frames.write(e.utf8());
  }

  /** A control message: a {@code String}, or a {@code StringBuilder} (a command's result) not changed afterwards. */
  @Override
  void writeControl(Object message) {
    frames.write((CharSequence) message);
  }

  @Override
  int controlSize(Object message) {
    return ((CharSequence) message).length();
  }

  @Override
  Object gapNotice(int partition, long fromSeq, long toSeq) {
    return hub.feed.clustered() ? PushNotices.gap(partition, fromSeq, toSeq) : PushNotices.gap(fromSeq, toSeq);
  }

  @Override
  void closeSlowTransport() {
    frames.flush();
    ws.close(CLOSE_TRY_AGAIN_LATER, SLOW_REASON);
  }

  @Override
  void closeFailedTransport(Throwable cause) {
    FiringHub.LOG.log(System.Logger.Level.WARNING, "Replay failed, closing WebSocket subscriber", cause);
    if (!ws.isClosed()) {
      frames.flush();
      ws.writeTextMessage(PushNotices.error("unavailable", null, "the firing log could not be read: " + cause.getMessage()
          + "; reconnect and resume with from"));
      ws.close(CLOSE_INTERNAL_ERROR, "firing log unavailable");
    }
  }

  @Override
  Future<Void> closeShutdownTransport() {
    frames.flush();
    return ws.isClosed() ? Future.succeededFuture() : ws.close(CLOSE_GOING_AWAY, "server shutting down");
  }
}
