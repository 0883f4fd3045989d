package io.tickwheel.client.impl;

import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * One WebSocket command of the client: its op and fields, whether it may be written again after a disconnect, its
 * deadline, and the promise its {@code result} message completes. Not thread safe: the client's context only.
 */
final class Command {
  final String op;
  final JsonObject fields;
  /** Written again on a new connection if the old one closed before its answer (put, touch, cancel). */
  final boolean retryable;
  /** {@link System#nanoTime()} after which it fails with {@code timeout}. */
  final long deadlineNanos;
  /** Completed with the server's {@code {"type":"result",…}} message, or failed with a TickwheelException. */
  final Promise<JsonObject> promise = Promise.promise();
  /** True while written on the current connection and not answered (false again once requeued for a retry). */
  boolean written;

  Command(String op, JsonObject fields, boolean retryable, long deadlineNanos) {
    this.op = op;
    this.fields = fields;
    this.retryable = retryable;
    this.deadlineNanos = deadlineNanos;
  }

  /** The text frame for this command with {@code ref}. */
  String frame(String ref) {
    JsonObject o = new JsonObject().put("op", op).put("ref", ref);
    for (var e : fields) {
      o.put(e.getKey(), e.getValue());
    }
    return o.encode();
  }

  boolean expired(long nowNanos) {
    return nowNanos - deadlineNanos >= 0;
  }

  boolean done() {
    return promise.future().isComplete();
  }
}
