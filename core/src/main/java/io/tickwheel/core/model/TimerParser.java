package io.tickwheel.core.model;

import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates a client's timer JSON against the contract and {@link Limits}, producing a {@link TimerSpec}.
 * Every rejection is a {@link ValidationException} whose message names the field and the bad value.
 *
 * <p>Unknown fields are rejected. The server-added fields {@code nextDueAt}, {@code firings} and
 * {@code createdAt} are read-only: accepted and ignored, so a client may send back what it read.
 *
 * <p>Stateless and thread safe.
 */
public final class TimerParser {

  /** Pattern of a timer id; {@link #isId} checks the same rule without a regex. */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,200}");
  /** Longest id, in characters. */
  public static final int MAX_ID_LENGTH = 200;
  /** The topic of a timer that names none. */
  public static final String DEFAULT_TOPIC = "default";

  private static final Set<String> FIELDS = Set.of(
      "id", "topic", "kind", "delayMs", "at", "periodMs", "maxFirings", "misfire", "payload",
      "nextDueAt", "firings", "createdAt");
  private static final int SHOWN = 60;

  private final Limits limits;

  public TimerParser(Limits limits) {
    this.limits = limits;
  }

  /**
   * Validates a timer definition.
   *
   * @param body  the parsed JSON body
   * @param nowMs the acceptance time, epoch ms (to check {@code at} against the horizon)
   */
  public TimerSpec parse(JsonObject body, long nowMs) {
    if (body == null) {
      throw new ValidationException(null, "the body must be a JSON object");
    }
    for (String name : body.fieldNames()) {
      if (!FIELDS.contains(name)) {
        throw new ValidationException(name, "unknown field '" + shorten(name) + "'");
      }
    }
    String id = optString(body, "id");
    if (id != null) {
      checkId(id);
    }
    String topic = optString(body, "topic");
    if (topic == null) {
      topic = DEFAULT_TOPIC;
    } else {
      TopicRule.check("topic", topic);
      topic = Topics.canonical(topic);
    }
    String kindName = optString(body, "kind");
    Kind kind = Kind.ONCE;
    if (kindName != null) {
      kind = Kind.fromWire(kindName);
      if (kind == null) {
        throw new ValidationException("kind",
            "kind must be one of once, fixed-rate, fixed-delay, was \"" + shorten(kindName) + "\"");
      }
    }
    Long delay = optLong(body, "delayMs");
    if (delay != null && (delay < 0 || delay > limits.maxHorizonMs())) {
      throw new ValidationException("delayMs",
          "delayMs must be between 0 and " + limits.maxHorizonMs() + " (the horizon), was " + delay);
    }
    Long at = optAt(body);
    if (at != null && delay != null) {
      throw new ValidationException("at", "at and delayMs are exclusive: send one of them");
    }
    if (at != null && at - nowMs > limits.maxHorizonMs()) {
      throw new ValidationException("at",
          "at must be at most " + limits.maxHorizonMs() + " ms ahead (the horizon), was " + at);
    }
    Long period = optLong(body, "periodMs");
    if (kind.periodic()) {
      if (period == null) {
        throw new ValidationException("periodMs", "periodMs is required for kind " + kind.wireName());
      }
      if (period < limits.tickMs() || period > limits.maxHorizonMs()) {
        throw new ValidationException("periodMs", "periodMs must be between " + limits.tickMs()
            + " (the tick) and " + limits.maxHorizonMs() + ", was " + period);
      }
    } else {
      if (period != null) {
        throw new ValidationException("periodMs", "periodMs is not allowed for kind once, was " + period);
      }
      if (delay == null && at == null) {
        throw new ValidationException("delayMs", "a once timer needs delayMs or at");
      }
    }
    Long max = optLong(body, "maxFirings");
    if (max != null && max < 1) {
      throw new ValidationException("maxFirings", "maxFirings must be >= 1, was " + max);
    }
    String misfireName = optString(body, "misfire");
    Misfire misfire = Misfire.FIRE_ONCE;
    if (misfireName != null) {
      misfire = Misfire.fromWire(misfireName);
      if (misfire == null) {
        throw new ValidationException("misfire",
            "misfire must be one of fire-once, fire-all, skip, was \"" + shorten(misfireName) + "\"");
      }
    }
    String payload = null;
    Object payloadValue = body.getValue("payload");
    if (payloadValue != null) {
      payload = PayloadJson.encode(payloadValue);
      int bytes = PayloadJson.utf8Length(payload);
      if (bytes > limits.maxPayloadBytes()) {
        throw new ValidationException("payload", "payload must be at most " + limits.maxPayloadBytes()
            + " bytes serialized, was " + bytes, true);
      }
    }
    return new TimerSpec(id, topic, kind, delay, at, period == null ? 0 : period,
        max == null ? 0 : max, misfire, payload);
  }

  /**
   * Validates the optional body of a touch: {@code {"delayMs": n}} or empty.
   *
   * @return the override delay, or {@code null} to use the timer's own countdown
   */
  public Long parseTouch(JsonObject body) {
    if (body == null) {
      return null;
    }
    for (String name : body.fieldNames()) {
      if (!"delayMs".equals(name)) {
        throw new ValidationException(name, "unknown field '" + shorten(name) + "' (touch takes only delayMs)");
      }
    }
    Long delay = optLong(body, "delayMs");
    if (delay != null && (delay < 0 || delay > limits.maxHorizonMs())) {
      throw new ValidationException("delayMs",
          "delayMs must be between 0 and " + limits.maxHorizonMs() + " (the horizon), was " + delay);
    }
    return delay;
  }

  /**
   * Whether {@code s} is a valid timer id: it matches {@link #ID}, {@code [A-Za-z0-9._:-]{1,200}}. A character
   * loop, not a regex: this runs once or twice per request and per batch item.
   */
  public static boolean isId(String s) {
    return s != null && matches(s, MAX_ID_LENGTH, true);
  }

  private static boolean matches(String s, int maxLength, boolean colon) {
    int n = s.length();
    if (n == 0 || n > maxLength) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-' || (colon && c == ':');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Throws unless {@code id} is a valid timer id. */
  public static void checkId(String id) {
    if (!isId(id)) {
      throw new ValidationException("id",
          "id must match [A-Za-z0-9._:-]{1,200}, was \"" + shorten(String.valueOf(id)) + "\"");
    }
  }

  private static String optString(JsonObject body, String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String)) {
      throw new ValidationException(field, field + " must be a string, was " + describe(v));
    }
    return (String) v;
  }

  private static Long optLong(JsonObject body, String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    return toLong(field, v);
  }

  private static Long toLong(String field, Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger) {
      throw new ValidationException(field, field + " is out of range, was " + shorten(v.toString()));
    }
    if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
      if (!(v instanceof BigDecimal) && !Double.isFinite(((Number) v).doubleValue())) {
        throw new ValidationException(field, field + " is out of range, was " + shorten(v.toString()));
      }
      try {
        return new BigDecimal(v.toString()).longValueExact();
      } catch (ArithmeticException e) {
        throw new ValidationException(field, field + " must be an integer, was " + shorten(v.toString()));
      }
    }
    throw new ValidationException(field, field + " must be an integer, was " + describe(v));
  }

  private static Long optAt(JsonObject body) {
    Object v = body.getValue("at");
    if (v == null) {
      return null;
    }
    long at;
    if (v instanceof String s) {
      try {
        at = OffsetDateTime.parse(s).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        try {
          at = Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e2) {
          throw new ValidationException("at",
              "at must be epoch milliseconds or an ISO-8601 instant, was \"" + shorten(s) + "\"");
        } catch (ArithmeticException e2) {
          throw new ValidationException("at", "at is out of range, was \"" + shorten(s) + "\"");
        }
      } catch (ArithmeticException e) {
        throw new ValidationException("at", "at is out of range, was \"" + shorten(s) + "\"");
      }
    } else {
      at = toLong("at", v);
    }
    if (at < 0) {
      throw new ValidationException("at", "at must be >= 0 (epoch ms), was " + at);
    }
    return at;
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "\"" + shorten(s) + "\"";
    }
    if (v instanceof JsonObject) {
      return "an object";
    }
    if (v instanceof io.vertx.core.json.JsonArray) {
      return "an array";
    }
    if (v instanceof Boolean b) {
      return b.toString();
    }
    return shorten(String.valueOf(v));
  }

  private static String shorten(String s) {
    return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "…";
  }
}
