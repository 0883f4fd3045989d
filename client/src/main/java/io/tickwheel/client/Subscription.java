package io.tickwheel.client;

import io.vertx.core.Future;

/**
 * A live subscription made by {@link TickwheelClient#subscribe}: it keeps one WebSocket of its own, reconnects
 * with the client's backoff whenever that socket closes (server restart, {@code 1013} slow consumer, network), and
 * resumes after the last firing it delivered, so its handler sees each firing still retained by the server once,
 * in the server's order.
 *
 * <p>A subscribe the server answers with an error (a bad topic name, a {@code from} after its latest seq) is retried
 * with the same backoff, as a close is: check topic names before subscribing.
 *
 * <p>Thread safe: every method may be called from any thread.
 */
public interface Subscription {

  /**
   * Completes once the server first confirmed the subscription ({@code {"type":"subscribed"}}); from then on
   * every firing of the topics is delivered. Fails if the subscription is closed first.
   */
  Future<Void> subscribed();

  /** The seq of the last firing delivered to the handler, or of the server's latest firing at subscribe time. */
  long lastSeq();

  /** The cursor of the last firing delivered, or null when the server sends none. */
  String lastCursor();

  /** How many times the socket was re-established after the first. */
  long reconnects();

  /** Stops the subscription: no firing is delivered after the returned future completes. Idempotent. */
  Future<Void> close();
}
