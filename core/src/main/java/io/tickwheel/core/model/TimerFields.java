package io.tickwheel.core.model;

import io.vertx.core.json.JsonObject;

/**
 * A timer body's fields as read, before {@link TimerParser#parse(TimerFields, long)} validates them: each known field's
 * value as Vert.x's JSON decoding yields it ({@code String}, {@code Integer}/{@code Long}/{@code BigInteger},
 * {@code Double}, {@code Boolean}, {@code JsonObject}, {@code JsonArray}; {@code null} for absent or JSON
 * {@code null}), the payload as compact JSON text (or its decoded value, encoded on demand), and the first unknown
 * field name. Read from a decoded {@code JsonObject} ({@link TimerParser#fields}) or straight from a JSON token stream
 * ({@link TimerParser#read}); both yield the same fields for the same text.
 *
 * <p>Not thread safe; one body, read once.
 */
public final class TimerFields {

  static final int ID = 0;
  static final int TOPIC = 1;
  static final int KIND = 2;
  static final int DELAY_MS = 3;
  static final int AT = 4;
  static final int PERIOD_MS = 5;
  static final int MAX_FIRINGS = 6;
  static final int MISFIRE = 7;
  static final int CRON = 8;
  static final int TIME_ZONE = 9;
  static final int DST_GAP = 10;
  static final int DST_OVERLAP = 11;
  static final int END_AT = 12;
  static final int JITTER_MS = 13;
  static final int CALLBACK = 14;
  static final int PAYLOAD = 15;
  private static final int COUNT = 16;

  /** {@link #index}: a field that is not a timer's. */
  static final int UNKNOWN = -1;
  /** {@link #index}: a server-added field, accepted and ignored. */
  static final int READ_ONLY = -2;

  private final Object[] values = new Object[COUNT];
  /** The payload as compact JSON text, when read as text; else {@link #values}' payload is its decoded value. */
  private String payloadText;
  private String unknown;

  TimerFields() {}

  /**
   * The slot of field {@code name}: {@link #UNKNOWN}, {@link #READ_ONLY}, or its index. The calendar fields (and the
   * read-only ones that come with them) are known only with {@code calendars}.
   */
  static int index(String name, boolean calendars) {
    int i = switch (name) {
      case "id" -> ID;
      case "topic" -> TOPIC;
      case "kind" -> KIND;
      case "delayMs" -> DELAY_MS;
      case "at" -> AT;
      case "periodMs" -> PERIOD_MS;
      case "maxFirings" -> MAX_FIRINGS;
      case "misfire" -> MISFIRE;
      case "payload" -> PAYLOAD;
      case "nextDueAt", "firings", "createdAt" -> READ_ONLY;
      default -> UNKNOWN;
    };
    if (i != UNKNOWN || !calendars) {
      return i;
    }
    return switch (name) {
      case "cron" -> CRON;
      case "timeZone" -> TIME_ZONE;
      case "dstGap" -> DST_GAP;
      case "dstOverlap" -> DST_OVERLAP;
      case "endAt" -> END_AT;
      case "jitterMs" -> JITTER_MS;
      case "callback" -> CALLBACK;
      case "upcoming", "paused" -> READ_ONLY;
      default -> UNKNOWN;
    };
  }

  /** The fields of a decoded body ({@code calendars}: whether the calendar fields are known). */
  static TimerFields of(JsonObject body, boolean calendars) {
    TimerFields f = new TimerFields();
    for (var e : body) {       // insertion order: the first unknown name is the first in the text
      int i = index(e.getKey(), calendars);
      if (i >= 0) {
        f.values[i] = body.getValue(e.getKey());   // wraps a Map or List as JsonObject or JsonArray
      } else if (i == UNKNOWN && f.unknown == null) {
        f.unknown = e.getKey();
      }
    }
    return f;
  }

  /** The value of slot {@code i}, or {@code null}. */
  Object get(int i) {
    return values[i];
  }

  void set(int i, Object value) {
    values[i] = value;
    if (i == PAYLOAD) {
      payloadText = null;
    }
  }

  /** Sets the payload as its compact JSON text. */
  void payloadText(String text) {
    values[PAYLOAD] = null;
    payloadText = text;
  }

  /** The payload as compact JSON text, or {@code null} if absent. */
  String payloadText() {
    if (payloadText != null) {
      return payloadText;
    }
    Object v = values[PAYLOAD];
    return v == null ? null : PayloadJson.encode(v);
  }

  /** The first field name that is not a timer's, or {@code null}. */
  String unknown() {
    return unknown;
  }

  void unknown(String name) {
    if (unknown == null) {
      unknown = name;
    }
  }
}
