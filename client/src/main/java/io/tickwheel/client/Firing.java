package io.tickwheel.client;

import io.vertx.core.json.JsonObject;

/**
 * One firing as pushed by the server: {@code {"type":"fired","seq","id","topic","firing","dueAt","firedAt",
 * "payload"}} and, where the server sends them, {@code cursor}, {@code partition} and {@code nominalAt}.
 *
 * <p>Immutable, thread safe ({@link #json()} returns a copy).
 */
public final class Firing {

  private final JsonObject json;

  private Firing(JsonObject json) {
    this.json = json;
  }

  /** Wraps a firing message (not copied: the caller hands it over). */
  public static Firing fromJson(JsonObject json) {
    return new Firing(json);
  }

  /** The firing's place in the firing log (strictly increasing per store, or per partition in a cluster). */
  public long seq() {
    return json.getLong("seq", 0L);
  }

  /** The opaque resume cursor, or null when the server does not send one (then {@link #seq()} resumes). */
  public String cursor() {
    return json.getString("cursor");
  }

  public String id() {
    return json.getString("id");
  }

  public String topic() {
    return json.getString("topic");
  }

  /** Which firing of its timer this is, from 1. */
  public long firing() {
    return json.getLong("firing", 0L);
  }

  /** The due time, epoch milliseconds. */
  public long dueAt() {
    return json.getLong("dueAt", 0L);
  }

  /**
   * The un-jittered time of {@link #dueAt()}, epoch milliseconds: equal to it unless the timer has {@code jitterMs}
   * (then {@code dueAt} is this plus the timer's deterministic jitter). {@link #dueAt()} when the server sent none.
   */
  public long nominalAt() {
    return json.getLong("nominalAt", dueAt());
  }

  /** In a cluster, the partition of the timer ({@link #seq()} counts per partition); null on a single node. */
  public Integer partition() {
    return json.getInteger("partition");
  }

  /** When the server fired it, epoch milliseconds (never before {@link #dueAt()}). */
  public long firedAt() {
    return json.getLong("firedAt", 0L);
  }

  /** The timer's payload, or null. */
  public Object payload() {
    Object p = json.getValue("payload");
    return p instanceof JsonObject o ? o.copy() : p instanceof io.vertx.core.json.JsonArray a ? a.copy() : p;
  }

  /** The whole message, copied. */
  public JsonObject json() {
    return json.copy();
  }

  @Override
  public String toString() {
    return "Firing" + json.encode();
  }
}
