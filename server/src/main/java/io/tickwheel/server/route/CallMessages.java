package io.tickwheel.server.route;

import io.vertx.core.buffer.Buffer;

/**
 * The binary messages of the calls between nodes over a WebSocket ({@code GET} {@link InternalCodec#PATH} with an
 * upgrade), each call and each answer one message, so that a node's calls to one owner share one connection, many in
 * flight at once, answered in any order:
 * <ul>
 *   <li>a call: its id (8 bytes, big-endian, chosen by the caller, unique among its calls in flight on the socket),
 *       then the body a {@code POST} of it would carry ({@link InternalCodec#encode(InternalCall)});</li>
 *   <li>an answer: the call's id (8 bytes), the status a {@code POST} would be answered with (2 bytes, unsigned), its
 *       {@code Retry-After} seconds (4 bytes; 0 for none), then that answer's body (an {@link InternalAnswer}'s JSON
 *       for 200, else the API's error body).</li>
 * </ul>
 * A call's message is at most {@link #MAX_CALL_BYTES}; a larger call goes as a {@code POST}. Stateless.
 */
public final class CallMessages {

  /** Bytes before a call's body: its id. */
  public static final int CALL_HEAD_BYTES = 8;
  /** Bytes before an answer's body: the call's id, the status, the {@code Retry-After} seconds. */
  public static final int ANSWER_HEAD_BYTES = 14;
  /** Most bytes of one call's message: the receiving node's WebSocket message limit. */
  public static final int MAX_CALL_BYTES = io.tickwheel.server.wire.BodyLimit.MAX_WEBSOCKET_MESSAGE_BYTES;
  /**
   * Most bytes of one answer's message the caller takes: an answer to a call of at most {@link #MAX_CALL_BYTES}
   * (the timers it names, each with its whole state) or to a single call (one timer and its payload, a page of
   * topics) stays well under it. The socket is closed on a larger one.
   */
  public static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

  private CallMessages() {}

  /** The message of call {@code id} with {@code body}. */
  public static Buffer call(long id, Buffer body) {
    return Buffer.buffer(CALL_HEAD_BYTES + body.length()).appendLong(id).appendBuffer(body);
  }

  /** The message answering call {@code id}: {@code status} (100..999), {@code retryAfter} seconds, {@code body}. */
  public static Buffer answer(long id, int status, int retryAfter, Buffer body) {
    if (status < 100 || status > 999) {
      throw new IllegalArgumentException("status " + status + " is not an HTTP status");
    }
    return Buffer.buffer(ANSWER_HEAD_BYTES + body.length()).appendLong(id).appendUnsignedShort(status)
        .appendInt(Math.max(0, retryAfter)).appendBuffer(body);
  }

  /** A call's id; {@code message} is at least {@link #CALL_HEAD_BYTES} long. */
  public static long id(Buffer message) {
    return message.getLong(0);
  }

  /** A call's body. */
  public static Buffer callBody(Buffer message) {
    return message.slice(CALL_HEAD_BYTES, message.length());
  }

  /**
   * An answer message read: the call's id and what a {@code POST} would have been answered.
   *
   * @throws IllegalArgumentException if it is shorter than {@link #ANSWER_HEAD_BYTES} or its status is not one
   */
  static Read read(Buffer message) {
    if (message.length() < ANSWER_HEAD_BYTES) {
      throw new IllegalArgumentException("an answer message starts with " + ANSWER_HEAD_BYTES + " bytes (id, status,"
          + " Retry-After); this one has " + message.length());
    }
    int status = message.getUnsignedShort(8);
    if (status < 100 || status > 999) {
      throw new IllegalArgumentException("an answer's status must be 100..999, was " + status);
    }
    return new Read(message.getLong(0), new Forwarder.Answer(status, message.slice(ANSWER_HEAD_BYTES,
        message.length()), Math.max(0, message.getInt(10))));
  }

  /** An answer message: the call's id and the answer. */
  record Read(long id, Forwarder.Answer answer) {}
}
