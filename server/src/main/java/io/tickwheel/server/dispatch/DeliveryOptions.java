package io.tickwheel.server.dispatch;

import io.tickwheel.core.store.Retention;

/**
 * Limits and timings of callback delivery. Immutable.
 *
 * @param maxPending          deliveries held pending at once (in the wheel or in flight); a firing's delivery beyond
 *                            it is recorded {@code dead} with error {@code queue_full} at once (never dropped
 *                            silently; {@code POST /v1/deliveries/{id}/retry} re-queues it when there is room)
 * @param maxPendingBytes     the most memory those held deliveries may take, bytes (their firings' payloads, plus a
 *                            fixed overhead each): beyond it a new delivery is {@code queue_full} as well
 * @param perHostConcurrency  attempts in flight at once to one host:port (also its connection pool size)
 * @param perHostQueue        attempts waiting for a slot of one host; when full, an attempt is postponed by
 *                            {@code postponeMs} (not used up)
 * @param postponeMs          how long an attempt waits when its host's queue is full, ms
 * @param breakerFailures     consecutive failed attempts (no answer, 5xx, 429) to one host that open its breaker
 * @param breakerOpenMs       how long an open breaker postpones that host's attempts (not used up) before one trial
 * @param connectTimeoutMs    the longest TCP (and TLS) connect, ms; an attempt's own {@code timeoutMs} bounds it too
 * @param maxAttemptsPerTurn  attempts started per event-loop turn (the rest are started on the next turns)
 * @param retention           finished (succeeded or dead) records kept: the newest {@code maxCount}, at most
 *                            {@code maxAgeMs} old
 * @param trimIntervalMs      how often finished records are trimmed, ms
 * @param maxIdleHosts        hosts with nothing in flight or queued whose state (a breaker's failure count) is
 *                            remembered: each is forgotten after {@code breakerOpenMs} idle, and beyond this many the
 *                            longest idle ones are forgotten at once (a host with work is always remembered; there
 *                            are at most {@code maxPending} of those)
 */
public record DeliveryOptions(int maxPending, long maxPendingBytes, int perHostConcurrency, int perHostQueue, long postponeMs,
    int breakerFailures, long breakerOpenMs, int connectTimeoutMs, int maxAttemptsPerTurn, Retention retention,
    long trimIntervalMs, int maxIdleHosts) {

  public DeliveryOptions {
    positive("maxPending", maxPending);
    positive("maxPendingBytes", maxPendingBytes);
    positive("perHostConcurrency", perHostConcurrency);
    positive("perHostQueue", perHostQueue);
    positive("postponeMs", postponeMs);
    positive("breakerFailures", breakerFailures);
    positive("breakerOpenMs", breakerOpenMs);
    positive("connectTimeoutMs", connectTimeoutMs);
    positive("maxAttemptsPerTurn", maxAttemptsPerTurn);
    positive("trimIntervalMs", trimIntervalMs);
    positive("maxIdleHosts", maxIdleHosts);
    java.util.Objects.requireNonNull(retention, "retention");
  }

  /**
   * 100,000 pending in at most 256 MiB; 32 in flight and 10,000 waiting per host; 1 s postponement; the breaker opens after 10
   * consecutive failures for 30 s; 5 s connect; 1,000 attempts started per turn; 100,000 finished records kept
   * for at most 7 days, trimmed every 10 s; at most 10,000 idle hosts remembered.
   */
  public static DeliveryOptions defaults() {
    return new DeliveryOptions(100_000, 256L << 20, 32, 10_000, 1000, 10, 30_000, 5000, 1000,
        new Retention(100_000, 7L * 24 * 3600 * 1000), 10_000, 10_000);
  }

  public DeliveryOptions withMaxPending(int n) {
    return new DeliveryOptions(n, maxPendingBytes, perHostConcurrency, perHostQueue, postponeMs, breakerFailures, breakerOpenMs,
        connectTimeoutMs, maxAttemptsPerTurn, retention, trimIntervalMs, maxIdleHosts);
  }

  public DeliveryOptions withMaxPendingBytes(long n) {
    return new DeliveryOptions(maxPending, n, perHostConcurrency, perHostQueue, postponeMs, breakerFailures,
        breakerOpenMs, connectTimeoutMs, maxAttemptsPerTurn, retention, trimIntervalMs, maxIdleHosts);
  }

  public DeliveryOptions withPerHost(int concurrency, int queue) {
    return new DeliveryOptions(maxPending, maxPendingBytes, concurrency, queue, postponeMs, breakerFailures, breakerOpenMs,
        connectTimeoutMs, maxAttemptsPerTurn, retention, trimIntervalMs, maxIdleHosts);
  }

  public DeliveryOptions withBreaker(int failures, long openMs) {
    return new DeliveryOptions(maxPending, maxPendingBytes, perHostConcurrency, perHostQueue, postponeMs, failures, openMs,
        connectTimeoutMs, maxAttemptsPerTurn, retention, trimIntervalMs, maxIdleHosts);
  }

  public DeliveryOptions withTrimIntervalMs(long ms) {
    return new DeliveryOptions(maxPending, maxPendingBytes, perHostConcurrency, perHostQueue, postponeMs,
        breakerFailures, breakerOpenMs, connectTimeoutMs, maxAttemptsPerTurn, retention, ms, maxIdleHosts);
  }

  public DeliveryOptions withMaxIdleHosts(int n) {
    return new DeliveryOptions(maxPending, maxPendingBytes, perHostConcurrency, perHostQueue, postponeMs,
        breakerFailures, breakerOpenMs, connectTimeoutMs, maxAttemptsPerTurn, retention, trimIntervalMs, n);
  }

  private static void positive(String name, long v) {
    if (v < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, was " + v);
    }
  }
}
