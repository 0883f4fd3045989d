package io.tickwheel.client;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * A timer's callback (contract, "Callbacks"): every firing of the timer is also POSTed to {@link #url()}, signed as
 * Standard Webhooks v1, and retried until a 2xx answer or {@link #maxAttempts()} attempts. Fields left unset take
 * the server's defaults (timeout 10,000 ms, 8 attempts, the contract's retry schedule 5 s … 10 h); the server
 * validates every field and answers {@code 400 invalid_argument} naming it ({@code callback.url},
 * {@code callback.timeoutMs}, …): a loopback or private address is refused unless the server runs with
 * {@code --webhook-allow-private}.
 *
 * <p>Immutable, thread safe. Build one with {@link #to(String)}.
 */
public final class Callback {

  private final String url;
  private final Long timeoutMs;
  private final Integer maxAttempts;
  private final Long minBackoffMs;
  private final Long maxBackoffMs;

  private Callback(String url, Long timeoutMs, Integer maxAttempts, Long minBackoffMs, Long maxBackoffMs) {
    this.url = Objects.requireNonNull(url, "url");
    this.timeoutMs = timeoutMs;
    this.maxAttempts = maxAttempts;
    this.minBackoffMs = minBackoffMs;
    this.maxBackoffMs = maxBackoffMs;
  }

  /** A callback to {@code url} ({@code http} or {@code https}) with the server's defaults for everything else. */
  public static Callback to(String url) {
    return new Callback(url, null, null, null, null);
  }

  /**
   * The callback of a timer as the server answered it ({@code {"url","timeoutMs","maxAttempts","minBackoffMs"?,
   * "maxBackoffMs"?}}).
   *
   * @throws IllegalArgumentException when {@code json} has no string {@code url}
   */
  public static Callback fromJson(JsonObject json) {
    Object url = json.getValue("url");
    if (!(url instanceof String u)) {
      throw new IllegalArgumentException("a callback needs a string url, was " + json.encode());
    }
    return new Callback(u, json.getLong("timeoutMs"), json.getInteger("maxAttempts"), json.getLong("minBackoffMs"),
        json.getLong("maxBackoffMs"));
  }

  /** This callback with an attempt timeout of {@code timeoutMs} milliseconds (the server takes 1,000..30,000). */
  public Callback timeoutMs(long timeoutMs) {
    return new Callback(url, timeoutMs, maxAttempts, minBackoffMs, maxBackoffMs);
  }

  /** This callback with at most {@code maxAttempts} attempts per firing (the server takes 1..20). */
  public Callback maxAttempts(int maxAttempts) {
    return new Callback(url, timeoutMs, maxAttempts, minBackoffMs, maxBackoffMs);
  }

  /**
   * This callback with its own retry backoff: the n-th retry waits {@code min(maxMs, minMs·2^(n-1))} ±20 %,
   * milliseconds, instead of the contract's schedule. The server refuses {@code minMs > maxMs}.
   */
  public Callback backoffMs(long minMs, long maxMs) {
    return new Callback(url, timeoutMs, maxAttempts, minMs, maxMs);
  }

  public String url() {
    return url;
  }

  /** The attempt timeout, milliseconds, or null for the server's default. */
  public Long timeoutMs() {
    return timeoutMs;
  }

  /** The most attempts per firing, or null for the server's default. */
  public Integer maxAttempts() {
    return maxAttempts;
  }

  /** The first retry's backoff, milliseconds, or null for the contract's schedule. */
  public Long minBackoffMs() {
    return minBackoffMs;
  }

  /** The largest retry backoff, milliseconds, or null for the contract's schedule. */
  public Long maxBackoffMs() {
    return maxBackoffMs;
  }

  /** The contract's JSON; fields never set are absent. */
  public JsonObject toJson() {
    JsonObject o = new JsonObject().put("url", url);
    if (timeoutMs != null) {
      o.put("timeoutMs", timeoutMs);
    }
    if (maxAttempts != null) {
      o.put("maxAttempts", maxAttempts);
    }
    if (minBackoffMs != null) {
      o.put("minBackoffMs", minBackoffMs);
    }
    if (maxBackoffMs != null) {
      o.put("maxBackoffMs", maxBackoffMs);
    }
    return o;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Callback c && toJson().equals(c.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return "Callback" + toJson().encode();
  }
}
