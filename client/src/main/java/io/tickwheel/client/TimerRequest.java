package io.tickwheel.client;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * A timer definition as the client sends it ({@code schedule} or {@code put}): the contract's fields, each optional
 * here; the server validates them and answers {@code 400 invalid_argument} naming the field. Build one with
 * {@link #builder()}.
 *
 * <p>Immutable, thread safe; {@link #toJson()} returns a fresh object each time.
 */
public final class TimerRequest {

  private final String id;
  private final String topic;
  private final String kind;
  private final Long delayMs;
  private final Long at;
  private final Long periodMs;
  private final Integer maxFirings;
  private final String misfire;
  private final String cron;
  private final String timeZone;
  private final String dstGap;
  private final String dstOverlap;
  private final Long endAt;
  private final Long jitterMs;
  private final Callback callback;
  private final Object payload;

  private TimerRequest(Builder b) {
    this.id = b.id;
    this.topic = b.topic;
    this.kind = b.kind;
    this.delayMs = b.delayMs;
    this.at = b.at;
    this.periodMs = b.periodMs;
    this.maxFirings = b.maxFirings;
    this.misfire = b.misfire;
    this.cron = b.cron;
    this.timeZone = b.timeZone;
    this.dstGap = b.dstGap;
    this.dstOverlap = b.dstOverlap;
    this.endAt = b.endAt;
    this.jitterMs = b.jitterMs;
    this.callback = b.callback;
    this.payload = b.payload;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The timer's id, or null (then {@code schedule} lets the server generate one; {@code put} needs one). */
  public String id() {
    return id;
  }

  public String topic() {
    return topic;
  }

  public String kind() {
    return kind;
  }

  public Long delayMs() {
    return delayMs;
  }

  public Long at() {
    return at;
  }

  public Long periodMs() {
    return periodMs;
  }

  public Integer maxFirings() {
    return maxFirings;
  }

  public String misfire() {
    return misfire;
  }

  /** The cron expression of a {@code cron} timer, or null. */
  public String cron() {
    return cron;
  }

  /** The IANA zone a {@code cron} expression is read in, or null (the server's default: {@code UTC}). */
  public String timeZone() {
    return timeZone;
  }

  /** {@code shift}, {@code skip} or {@code auto} for a cron timer, or null (the server's default: {@code auto}). */
  public String dstGap() {
    return dstGap;
  }

  /** {@code once}, {@code twice} or {@code auto} for a cron timer, or null (the server's default: {@code auto}). */
  public String dstOverlap() {
    return dstOverlap;
  }

  /** Epoch milliseconds after which a periodic timer has nothing due, or null. */
  public Long endAt() {
    return endAt;
  }

  /** The largest deterministic delay added to each due time, milliseconds, or null. */
  public Long jitterMs() {
    return jitterMs;
  }

  /** Where each firing is also POSTed, or null. */
  public Callback callback() {
    return callback;
  }

  /** The payload as given: a JsonObject, JsonArray, String, Number, Boolean, or null for none. */
  public Object payload() {
    return payload;
  }

  /** The timer as the contract's JSON; fields never set are absent. */
  public JsonObject toJson() {
    JsonObject o = new JsonObject();
    putIf(o, "id", id);
    putIf(o, "topic", topic);
    putIf(o, "kind", kind);
    putIf(o, "delayMs", delayMs);
    putIf(o, "at", at);
    putIf(o, "periodMs", periodMs);
    putIf(o, "maxFirings", maxFirings);
    putIf(o, "misfire", misfire);
    putIf(o, "cron", cron);
    putIf(o, "timeZone", timeZone);
    putIf(o, "dstGap", dstGap);
    putIf(o, "dstOverlap", dstOverlap);
    putIf(o, "endAt", endAt);
    putIf(o, "jitterMs", jitterMs);
    if (callback != null) {
      o.put("callback", callback.toJson());
    }
    if (payload != null) {
      o.put("payload", payload instanceof JsonObject j ? j.copy()
          : payload instanceof io.vertx.core.json.JsonArray a ? a.copy() : payload);
    }
    return o;
  }

  private static void putIf(JsonObject o, String name, Object value) {
    if (value != null) {
      o.put(name, value);
    }
  }

  @Override
  public String toString() {
    return "TimerRequest" + toJson().encode();
  }

  /** Fluent, not thread safe; {@link #build()} copies what was set. */
  public static final class Builder {
    private String id;
    private String topic;
    private String kind;
    private Long delayMs;
    private Long at;
    private Long periodMs;
    private Integer maxFirings;
    private String misfire;
    private String cron;
    private String timeZone;
    private String dstGap;
    private String dstOverlap;
    private Long endAt;
    private Long jitterMs;
    private Callback callback;
    private Object payload;

    private Builder() {}

    /** {@code [A-Za-z0-9._:-]{1,200}}, not only dots. */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    /** {@code [A-Za-z0-9._-]{1,100}}; the server's default is {@code "default"}. */
    public Builder topic(String topic) {
      this.topic = topic;
      return this;
    }

    /** {@code once} (the server's default), {@code fixed-rate}, {@code fixed-delay} or {@code cron}. */
    public Builder kind(String kind) {
      this.kind = kind;
      return this;
    }

    /** First firing this many milliseconds after the server accepts the timer; exclusive with {@link #at}. */
    public Builder delayMs(long delayMs) {
      this.delayMs = delayMs;
      return this;
    }

    /** First firing at this instant, epoch milliseconds; exclusive with {@link #delayMs}. */
    public Builder at(long epochMs) {
      this.at = epochMs;
      return this;
    }

    /** Period in milliseconds, for {@code fixed-rate} and {@code fixed-delay} only. */
    public Builder periodMs(long periodMs) {
      this.periodMs = periodMs;
      return this;
    }

    /** The timer ends after this many firings (at least 1). */
    public Builder maxFirings(int maxFirings) {
      this.maxFirings = maxFirings;
      return this;
    }

    /** {@code fire-once} (default), {@code fire-all} or {@code skip}, for {@code fixed-rate} and {@code cron}. */
    public Builder misfire(String misfire) {
      this.misfire = misfire;
      return this;
    }

    /**
     * A {@code cron} timer's expression: 5 fields (minute first) or 6 (seconds first); names, ranges, steps,
     * {@code L}, {@code W}, {@code #}, {@code @daily} and the like. Sets {@link #kind} to {@code cron}. With
     * {@link #delayMs} or {@link #at}: the first firing is the first matching time at or after that. An expression
     * that never fires within 5 years is refused ({@code 400} naming {@code cron}).
     */
    public Builder cron(String expression) {
      this.cron = expression;
      this.kind = "cron";
      return this;
    }

    /** The IANA zone the cron expression is read in (the server's default: {@code UTC}). */
    public Builder timeZone(String zoneId) {
      this.timeZone = zoneId;
      return this;
    }

    /** As {@link #timeZone(String)} with {@code zone.getId()}. */
    public Builder timeZone(java.time.ZoneId zone) {
      return timeZone(zone.getId());
    }

    /**
     * A local time skipped by a daylight-saving change: {@code shift} (fires once, at the end of the gap),
     * {@code skip}, or {@code auto} (the default: {@code shift} for a fixed hour field, {@code skip} for {@code *}
     * or a step).
     */
    public Builder dstGap(String dstGap) {
      this.dstGap = dstGap;
      return this;
    }

    /**
     * A local time repeated by a daylight-saving change: {@code once} (its first occurrence), {@code twice}, or
     * {@code auto} (the default: {@code once} for a fixed hour field, {@code twice} for {@code *} or a step).
     */
    public Builder dstOverlap(String dstOverlap) {
      this.dstOverlap = dstOverlap;
      return this;
    }

    /** A periodic timer has nothing due after this instant, epoch milliseconds. */
    public Builder endAt(long epochMs) {
      this.endAt = epochMs;
      return this;
    }

    /**
     * Moves each due time later by a deterministic amount in {@code [0, jitterMs)} derived from the id and the due
     * time (0..3,600,000 ms); firings then carry their un-jittered {@link Firing#nominalAt()}.
     */
    public Builder jitterMs(long jitterMs) {
      this.jitterMs = jitterMs;
      return this;
    }

    /** Each firing is also POSTed to this callback (null: none). */
    public Builder callback(Callback callback) {
      this.callback = callback;
      return this;
    }

    /**
     * Any JSON value returned in every firing (at most 64 KiB serialized, checked by the server): a
     * {@code JsonObject}, {@code JsonArray}, String, Number or Boolean; JSON objects and arrays are copied.
     */
    public Builder payload(Object payload) {
      if (payload instanceof JsonObject j) {
        this.payload = j.copy();
      } else if (payload instanceof io.vertx.core.json.JsonArray a) {
        this.payload = a.copy();
      } else if (payload == null || payload instanceof String || payload instanceof Number
          || payload instanceof Boolean) {
        this.payload = payload;
      } else {
        throw new IllegalArgumentException("payload must be a JsonObject, JsonArray, String, Number or Boolean, was "
            + payload.getClass().getName());
      }
      return this;
    }

    public TimerRequest build() {
      return new TimerRequest(this);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TimerRequest t && toJson().equals(t.toJson());
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, topic, kind, delayMs, at, periodMs, maxFirings, misfire, cron, timeZone, endAt);
  }
}
