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
    private Object payload;

    private Builder() {}

    /** {@code [A-Za-z0-9._:-]{1,200}}. */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    /** {@code [A-Za-z0-9._-]{1,100}}; the server's default is {@code "default"}. */
    public Builder topic(String topic) {
      this.topic = topic;
      return this;
    }

    /** {@code once} (the server's default), {@code fixed-rate} or {@code fixed-delay}. */
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

    /** {@code fire-once} (default), {@code fire-all} or {@code skip}, for {@code fixed-rate}. */
    public Builder misfire(String misfire) {
      this.misfire = misfire;
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
    return Objects.hash(id, topic, kind, delayMs, at, periodMs, maxFirings, misfire);
  }
}
