package io.tickwheel.client;

import io.vertx.core.json.JsonObject;

/**
 * A timer as the server answered it: the fields it was created with plus the server's {@code nextDueAt},
 * {@code firings}, {@code createdAt} and, for periodic timers, {@code upcoming}. Fields this class has no accessor
 * for (added by a later server) are in {@link #json()}.
 *
 * <p>Immutable, thread safe ({@link #json()} returns a copy).
 */
public final class TimerInfo {

  private final JsonObject json;

  private TimerInfo(JsonObject json) {
    this.json = json;
  }

  /** Wraps the server's timer JSON (copied). */
  public static TimerInfo fromJson(JsonObject json) {
    return new TimerInfo(json.copy());
  }

  /**
   * Wraps the server's timer JSON without copying it: the caller hands {@code json} over and neither changes it nor
   * lets anyone else hold it afterwards (as with a timer object just parsed from an answer). Then the result is as
   * immutable as one from {@link #fromJson}.
   */
  public static TimerInfo adopt(JsonObject json) {
    return new TimerInfo(json);
  }

  public String id() {
    return json.getString("id");
  }

  public String topic() {
    return json.getString("topic");
  }

  /** {@code once}, {@code fixed-rate}, {@code fixed-delay} or a kind added later (e.g. {@code cron}). */
  public String kind() {
    return json.getString("kind");
  }

  /** The countdown a touch restarts, milliseconds; null if the server did not send it. */
  public Long delayMs() {
    return json.getLong("delayMs");
  }

  /** The period of a periodic timer, milliseconds, or null. */
  public Long periodMs() {
    return json.getLong("periodMs");
  }

  public Integer maxFirings() {
    return json.getInteger("maxFirings");
  }

  public String misfire() {
    return json.getString("misfire");
  }

  /** The cron expression of a {@code cron} timer, or null. */
  public String cron() {
    return json.getString("cron");
  }

  /** The IANA zone of a {@code cron} timer's expression, or null for other kinds. */
  public String timeZone() {
    return json.getString("timeZone");
  }

  /** A cron timer's daylight-saving gap rule as configured ({@code shift}, {@code skip}, {@code auto}), or null. */
  public String dstGap() {
    return json.getString("dstGap");
  }

  /** A cron timer's daylight-saving overlap rule as configured ({@code once}, {@code twice}, {@code auto}), or null. */
  public String dstOverlap() {
    return json.getString("dstOverlap");
  }

  /** Epoch milliseconds after which nothing is due, or null. */
  public Long endAt() {
    return json.getLong("endAt");
  }

  /** The jitter bound, milliseconds, or null. */
  public Long jitterMs() {
    return json.getLong("jitterMs");
  }

  /** Whether the timer is paused (it fires no more until resumed). */
  public boolean paused() {
    return json.getBoolean("paused", false);
  }

  /** Its callback, or null. */
  public Callback callback() {
    JsonObject c = json.getJsonObject("callback");
    return c == null ? null : Callback.fromJson(c);
  }

  /** A periodic timer's next due times (epoch ms, at most 5, as they stood when answered); empty for others. */
  public java.util.List<Long> upcoming() {
    io.vertx.core.json.JsonArray a = json.getJsonArray("upcoming");
    if (a == null) {
      return java.util.List.of();
    }
    java.util.List<Long> due = new java.util.ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      due.add(a.getLong(i));
    }
    return java.util.List.copyOf(due);
  }

  /** The next due time, epoch milliseconds. */
  public long nextDueAt() {
    return json.getLong("nextDueAt", 0L);
  }

  /** Firings so far. */
  public long firings() {
    return json.getLong("firings", 0L);
  }

  /** When the server accepted the timer, epoch milliseconds. */
  public long createdAt() {
    return json.getLong("createdAt", 0L);
  }

  /** The payload: a JsonObject, JsonArray, String, Number, Boolean, or null for none. */
  public Object payload() {
    Object p = json.getValue("payload");
    return p instanceof JsonObject o ? o.copy() : p instanceof io.vertx.core.json.JsonArray a ? a.copy() : p;
  }

  /** The whole answer, copied. */
  public JsonObject json() {
    return json.copy();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TimerInfo t && json.equals(t.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "TimerInfo" + json.encode();
  }
}
