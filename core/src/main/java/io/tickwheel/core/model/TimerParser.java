package io.tickwheel.core.model;

import static io.tickwheel.core.model.ValidationException.shown;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.CallbackUrl;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import com.fasterxml.jackson.core.JsonParser;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates a client's timer JSON against the contract and {@link Limits}, producing a {@link TimerSpec}.
 * Every rejection is a {@link ValidationException} whose message names the field and the bad value.
 *
 * <p>Unknown fields are rejected. The server-added fields {@code nextDueAt}, {@code firings}, {@code createdAt},
 * {@code upcoming} and {@code paused} are read-only: accepted and ignored, so a client may send back what it read.
 *
 * <p>Explicit defaults are the same as absent fields, so that clients generated from the OpenAPI document (which may
 * send every field they know) are accepted: a field whose value is JSON {@code null} is absent; and on a timer that is
 * not {@code cron}, {@code timeZone} equal to {@value #DEFAULT_TIME_ZONE_NAME}, {@code dstGap} equal to {@code auto}
 * and {@code dstOverlap} equal to {@code auto} (each exactly that string, the documented default) are ignored. Any
 * other value of a field that does not apply to the kind is refused, since it would change what the client meant
 * ({@code periodMs} on a {@code once} timer, another {@code timeZone}, a {@code cron}, an {@code endAt}).
 *
 * <p>Calendar fields (with {@link #TimerParser(Limits, boolean) calendars} on): {@code cron}, {@code timeZone} (an IANA zone id, default {@code UTC}), {@code dstGap},
 * {@code dstOverlap} only with kind {@code cron}; {@code callback} (an object: {@code url}, {@code timeoutMs}, {@code maxAttempts}, {@code minBackoffMs} with
 * {@code maxBackoffMs}; ranges in {@link Callback}) with all; {@code endAt} (epoch ms or ISO-8601, not before the first due time)
 * with the periodic kinds; {@code jitterMs} (0..{@link Jitter#MAX_JITTER_MS}) with all. A cron expression that has no
 * time within {@link #CRON_MUST_FIRE_WITHIN_YEARS} years of its start is refused.
 *
 * <p>Stateless and thread safe.
 */
public final class TimerParser {

  /**
   * Pattern of a timer id: 1..200 of {@code [A-Za-z0-9._:-]}, not only dots ({@code .} and {@code ..} are path
   * segments that URL paths normalise away, so such an id could not be addressed as {@code /v1/timers/{id}}).
   * {@link #isId} checks the same rule without a regex.
   */
  public static final Pattern ID = Pattern.compile("(?!\\.+$)[A-Za-z0-9._:-]{1,200}");
  /** The id rule as error messages state it. */
  public static final String ID_RULE = "[A-Za-z0-9._:-]{1,200}, not only dots";
  /** Longest id, in characters. */
  public static final int MAX_ID_LENGTH = 200;
  /** The topic of a timer that names none. */
  public static final String DEFAULT_TOPIC = "default";
  /** The {@code timeZone} of a cron timer that names none, as written on the wire. */
  public static final String DEFAULT_TIME_ZONE_NAME = "UTC";
  /** The zone of a cron timer that names none: the region {@code UTC} (its id is {@value #DEFAULT_TIME_ZONE_NAME}). */
  public static final ZoneId DEFAULT_TIME_ZONE = ZoneId.of(DEFAULT_TIME_ZONE_NAME);

  /** A cron expression must have a time within this many years of its start. */
  public static final int CRON_MUST_FIRE_WITHIN_YEARS = 5;

  private static final Set<String> CALLBACK_FIELDS = Set.of(
      "url", "timeoutMs", "maxAttempts", "minBackoffMs", "maxBackoffMs");

  private final Limits limits;
  private final boolean calendars;
  private final AddressPolicy addresses;

  /**
   * A parser without the calendar fields: they are unknown fields and {@code cron} an unknown kind, exactly as
   * before they existed. This stays the server's parser until its stores persist {@link Timer.Extras} (issue 17,
   * second part), so that no timer is accepted with fields a store would drop.
   */
  public TimerParser(Limits limits) {
    this(limits, false);
  }

  /**
   * @param calendars whether kind {@code cron} and the calendar fields ({@code cron}, {@code timeZone},
   *                  {@code dstGap}, {@code dstOverlap}, {@code endAt}, {@code jitterMs}) are accepted
   */
  public TimerParser(Limits limits, boolean calendars) {
    this(limits, calendars, AddressPolicy.STRICT);
  }

  /**
   * @param calendars as {@link #TimerParser(Limits, boolean)}; the {@code callback} field comes with them
   * @param addresses which literal callback hosts are refused ({@link AddressPolicy#refusedHost})
   */
  public TimerParser(Limits limits, boolean calendars, AddressPolicy addresses) {
    this.limits = limits;
    this.calendars = calendars;
    this.addresses = java.util.Objects.requireNonNull(addresses, "addresses");
  }

  /** The limits it checks against. */
  public Limits limits() {
    return limits;
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
    return parse(fields(body), nowMs);
  }

  /** The fields of a decoded body, to {@link #parse(TimerFields, long) validate}. */
  public TimerFields fields(JsonObject body) {
    return TimerFields.of(body, calendars);
  }

  /**
   * Reads a timer object straight from a token stream, without a JSON tree: the same fields {@link #fields} finds in
   * the decoded object (see {@link TimerStreamReader} for how the payload is copied).
   *
   * @param p   a parser whose current token is the object's {@code START_OBJECT}; left at its {@code END_OBJECT}
   * @param src the bytes {@code p} reads, from offset 0, or {@code null}
   * @throws IOException if the text is not valid JSON (a repeated key included, when {@code p} detects them)
   */
  public TimerFields read(JsonParser p, byte[] src) throws IOException {
    return TimerStreamReader.read(p, src, calendars);
  }

  /**
   * Validates a timer definition read by {@link #fields} or {@link #read}.
   *
   * @param nowMs the acceptance time, epoch ms (to check {@code at} against the horizon)
   */
  public TimerSpec parse(TimerFields body, long nowMs) {
    String unknown = body.unknown();
    if (unknown != null) {
      throw new ValidationException(unknown, "unknown field '" + shown(unknown) + "'");
    }
    String id = str(body.get(TimerFields.ID), "id");
    if (id != null) {
      checkId(id);
    }
    String topic = str(body.get(TimerFields.TOPIC), "topic");
    if (topic == null) {
      topic = DEFAULT_TOPIC;
    } else {
      TopicRule.check("topic", topic);
      topic = Topics.canonical(topic);
    }
    String kindName = str(body.get(TimerFields.KIND), "kind");
    Kind kind = Kind.ONCE;
    if (kindName != null) {
      kind = Kind.fromWire(kindName);
      if (kind == null || (kind == Kind.CRON && !calendars)) {
        throw new ValidationException("kind", "kind must be one of once, fixed-rate, fixed-delay"
            + (calendars ? ", cron" : "") + ", was \"" + shown(kindName) + "\"");
      }
    }
    Long delay = lng(body.get(TimerFields.DELAY_MS), "delayMs");
    if (delay != null && (delay < 0 || delay > limits.maxHorizonMs())) {
      throw new ValidationException("delayMs",
          "delayMs must be between 0 and " + limits.maxHorizonMs() + " (the horizon), was " + delay);
    }
    Long at = instant(body.get(TimerFields.AT), "at");
    if (at != null && delay != null) {
      throw new ValidationException("at", "at and delayMs are exclusive: send one of them");
    }
    if (at != null && at - nowMs > limits.maxHorizonMs()) {
      throw new ValidationException("at",
          "at must be at most " + limits.maxHorizonMs() + " ms ahead (the horizon), was " + at);
    }
    Long period = lng(body.get(TimerFields.PERIOD_MS), "periodMs");
    if (kind.hasPeriod()) {
      if (period == null) {
        throw new ValidationException("periodMs", "periodMs is required for kind " + kind.wireName());
      }
      if (period < limits.tickMs() || period > limits.maxHorizonMs()) {
        throw new ValidationException("periodMs", "periodMs must be between " + limits.tickMs()
            + " (the tick) and " + limits.maxHorizonMs() + ", was " + period);
      }
    } else {
      if (period != null) {
        throw new ValidationException("periodMs",
            "periodMs is not allowed for kind " + kind.wireName() + ", was " + period);
      }
      if (kind == Kind.ONCE && delay == null && at == null) {
        throw new ValidationException("delayMs", "a once timer needs delayMs or at");
      }
    }
    Long max = lng(body.get(TimerFields.MAX_FIRINGS), "maxFirings");
    if (max != null && max < 1) {
      throw new ValidationException("maxFirings", "maxFirings must be >= 1, was " + max);
    }
    String misfireName = str(body.get(TimerFields.MISFIRE), "misfire");
    Misfire misfire = Misfire.FIRE_ONCE;
    if (misfireName != null) {
      misfire = Misfire.fromWire(misfireName);
      if (misfire == null) {
        throw new ValidationException("misfire",
            "misfire must be one of fire-once, fire-all, skip, was \"" + shown(misfireName) + "\"");
      }
    }
    String payload = body.payloadText();
    if (payload != null) {
      int bytes = PayloadJson.utf8Length(payload);
      if (bytes > limits.maxPayloadBytes()) {
        throw new ValidationException("payload", "payload must be at most " + limits.maxPayloadBytes()
            + " bytes serialized, was " + bytes, true);
      }
    }
    ZonedCron cron = parseCron(body, kind);
    long jitter = 0;
    Long jitterMs = lng(body.get(TimerFields.JITTER_MS), "jitterMs");
    if (jitterMs != null) {
      if (jitterMs < 0 || jitterMs > Jitter.MAX_JITTER_MS) {
        throw new ValidationException("jitterMs",
            "jitterMs must be between 0 and " + Jitter.MAX_JITTER_MS + " (one hour), was " + jitterMs);
      }
      jitter = jitterMs;
    }
    long start = at != null ? at : delay != null ? nowMs + delay : period != null ? nowMs + period : nowMs + 1;
    if (cron != null) {
      long first = cron.atOrAfter(start);
      // within 365 days a year it is within the years for sure; the calendar arithmetic (a tenth of a microsecond
      // per timer, and garbage) only for a first time further out
      if (first - start > CRON_MUST_FIRE_WITHIN_YEARS * 365L * 86_400_000L && first > OffsetDateTime.ofInstant(
          Instant.ofEpochMilli(start), ZoneOffset.UTC).plusYears(CRON_MUST_FIRE_WITHIN_YEARS).toInstant().toEpochMilli()) {
        throw new ValidationException("cron", "cron never fires within " + CRON_MUST_FIRE_WITHIN_YEARS
            + " years in time zone " + cron.zone() + ", was \"" + shown(cron.expression()) + "\"");
      }
      if (first - nowMs > limits.maxHorizonMs()) {
        throw new ValidationException("cron", "cron first fires more than " + limits.maxHorizonMs()
            + " ms ahead (the horizon), was \"" + shown(cron.expression()) + "\"");
      }
      start = first;
    }
    long endAt = Timer.NO_END;
    Long end = instant(body.get(TimerFields.END_AT), "endAt");
    if (end != null) {
      if (!kind.periodic()) {
        throw new ValidationException("endAt", "endAt is only allowed for periodic kinds (fixed-rate, fixed-delay, "
            + "cron), not for kind " + kind.wireName() + ", was " + end);
      }
      if (end < start) {
        throw new ValidationException("endAt", "endAt must not be before the first due time " + start + ", was " + end);
      }
      endAt = end;
    }
    Callback callback = parseCallback(body.get(TimerFields.CALLBACK));
    return new TimerSpec(id, topic, kind, delay, at, period == null ? 0 : period,
        max == null ? 0 : max, misfire, payload, cron, endAt, jitter, callback);
  }

  /**
   * The optional {@code callback} object: {@code url} (required; absolute http or https, see {@link CallbackUrl}; a
   * literal host that {@link AddressPolicy} blocks, or {@code localhost}, is refused),
   * {@code timeoutMs}, {@code maxAttempts}, and {@code minBackoffMs} with {@code maxBackoffMs} (both or neither), in
   * the ranges of {@link Callback}. Messages name {@code callback.FIELD} and the bad value.
   */
  private Callback parseCallback(Object v) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject cb)) {
      throw new ValidationException("callback", "callback must be an object, was " + describe(v));
    }
    for (String name : cb.fieldNames()) {
      if (!CALLBACK_FIELDS.contains(name)) {
        throw new ValidationException("callback." + shown(name), "unknown field 'callback." + shown(name) + "'");
      }
    }
    String url = optString(cb, "url", "callback.url");
    if (url == null) {
      throw new ValidationException("callback.url", "callback.url is required");
    }
    String refused;
    try {
      refused = addresses.refusedHost(CallbackUrl.parse(url).host());
    } catch (IllegalArgumentException e) {
      throw new ValidationException("callback.url", "callback.url " + e.getMessage() + ", was \"" + shown(url) + "\"");
    }
    if (refused != null) {
      throw new ValidationException("callback.url", "callback.url must not point at a private or local address ("
          + refused + "; the server allows it with --webhook-allow-private or a --webhook-allow-cidr block), was \""
          + shown(url) + "\"");
    }
    long timeout = rangedLong(cb, "timeoutMs", Callback.MIN_TIMEOUT_MS, Callback.MAX_TIMEOUT_MS,
        Callback.DEFAULT_TIMEOUT_MS);
    long attempts = rangedLong(cb, "maxAttempts", Callback.MIN_ATTEMPTS, Callback.MAX_ATTEMPTS,
        Callback.DEFAULT_MAX_ATTEMPTS);
    Long min = optLong(cb, "minBackoffMs", "callback.minBackoffMs");
    Long max = optLong(cb, "maxBackoffMs", "callback.maxBackoffMs");
    if ((min == null) != (max == null)) {
      String missing = min == null ? "callback.minBackoffMs" : "callback.maxBackoffMs";
      throw new ValidationException(missing, "callback.minBackoffMs and callback.maxBackoffMs go together: send both "
          + "or neither (neither: the default schedule), " + missing + " is missing");
    }
    if (min != null) {
      if (min < Callback.MIN_BACKOFF_MS || min > Callback.MAX_BACKOFF_MS) {
        throw new ValidationException("callback.minBackoffMs", "callback.minBackoffMs must be between "
            + Callback.MIN_BACKOFF_MS + " and " + Callback.MAX_BACKOFF_MS + ", was " + min);
      }
      if (max < min || max > Callback.MAX_BACKOFF_MS) {
        throw new ValidationException("callback.maxBackoffMs", "callback.maxBackoffMs must be between "
            + "callback.minBackoffMs (" + min + ") and " + Callback.MAX_BACKOFF_MS + ", was " + max);
      }
    }
    return new Callback(url, (int) timeout, (int) attempts, min == null ? Callback.NO_BACKOFF : min,
        max == null ? Callback.NO_BACKOFF : max);
  }

  private static long rangedLong(JsonObject cb, String name, long lo, long hi, long dflt) {
    String field = "callback." + name;
    Long v = optLong(cb, name, field);
    if (v == null) {
      return dflt;
    }
    if (v < lo || v > hi) {
      throw new ValidationException(field, field + " must be between " + lo + " and " + hi + ", was " + v);
    }
    return v;
  }

  /** The calendar of a cron timer ({@code null} for other kinds, which may not carry its fields). */
  private static ZonedCron parseCron(TimerFields body, Kind kind) {
    String expression = str(body.get(TimerFields.CRON), "cron");
    String zoneName = str(body.get(TimerFields.TIME_ZONE), "timeZone");
    String gapName = str(body.get(TimerFields.DST_GAP), "dstGap");
    String overlapName = str(body.get(TimerFields.DST_OVERLAP), "dstOverlap");
    if (kind != Kind.CRON) {
      String[] names = {"cron", "timeZone", "dstGap", "dstOverlap"};
      String[] values = {expression, zoneName, gapName, overlapName};
      String[] defaults = {null, DEFAULT_TIME_ZONE_NAME, DstGap.AUTO.wireName(), DstOverlap.AUTO.wireName()};
      for (int i = 0; i < names.length; i++) {
        if (values[i] != null && !values[i].equals(defaults[i])) {
          throw new ValidationException(names[i], names[i] + " is only allowed for kind cron, not for kind "
              + kind.wireName() + ", was \"" + shown(values[i]) + "\"");
        }
      }
      return null;
    }
    if (expression == null) {
      throw new ValidationException("cron", "cron is required for kind cron");
    }
    ZoneId zone = DEFAULT_TIME_ZONE;
    if (zoneName != null) {
      try {
        zone = ZoneId.of(zoneName);
      } catch (DateTimeException e) {
        throw new ValidationException("timeZone",
            "timeZone must be an IANA time zone such as Europe/Paris, was \"" + shown(zoneName) + "\"");
      }
    }
    DstGap gap = DstGap.AUTO;
    if (gapName != null) {
      gap = DstGap.fromWire(gapName);
      if (gap == null) {
        throw new ValidationException("dstGap",
            "dstGap must be one of shift, skip, auto, was \"" + shown(gapName) + "\"");
      }
    }
    DstOverlap overlap = DstOverlap.AUTO;
    if (overlapName != null) {
      overlap = DstOverlap.fromWire(overlapName);
      if (overlap == null) {
        throw new ValidationException("dstOverlap",
            "dstOverlap must be one of once, twice, auto, was \"" + shown(overlapName) + "\"");
      }
    }
    try {
      return ZonedCron.of(expression, zone, gap, overlap);
    } catch (IllegalArgumentException e) {
      throw new ValidationException("cron", "cron is not a valid expression (" + shown(String.valueOf(e.getMessage()))
          + "), was \"" + shown(expression) + "\"");
    }
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
        throw new ValidationException(name, "unknown field '" + shown(name) + "' (touch takes only delayMs)");
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
   * Whether {@code s} is a valid timer id: it matches {@link #ID} ({@value #ID_RULE}). A character loop, not a
   * regex: this runs once or twice per request and per batch item.
   */
  public static boolean isId(String s) {
    return s != null && matches(s, MAX_ID_LENGTH, true) && !onlyDots(s);
  }

  private static boolean onlyDots(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != '.') {
        return false;
      }
    }
    return true;
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
          "id must match " + ID_RULE + ", was \"" + shown(String.valueOf(id)) + "\"");
    }
  }

  /** The string at {@code key}, or {@code null}; {@code field} is the name messages use (a dotted path). */
  private static String optString(JsonObject body, String key, String field) {
    return str(body.getValue(key), field);
  }

  /** {@code v} as a string, or {@code null}; {@code field} is the name messages use. */
  private static String str(Object v, String field) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof String)) {
      throw new ValidationException(field, field + " must be a string, was " + describe(v));
    }
    return (String) v;
  }

  static Long optLong(JsonObject body, String field) {
    return optLong(body, field, field);
  }

  private static Long optLong(JsonObject body, String key, String field) {
    return lng(body.getValue(key), field);
  }

  /** {@code v} as an integer, or {@code null}; {@code field} is the name messages use. */
  private static Long lng(Object v, String field) {
    return v == null ? null : toLong(field, v);
  }

  private static Long toLong(String field, Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger) {
      throw new ValidationException(field, field + " is out of range, was " + shown(v.toString()));
    }
    if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
      if (!(v instanceof BigDecimal) && !Double.isFinite(((Number) v).doubleValue())) {
        throw new ValidationException(field, field + " is out of range, was " + shown(v.toString()));
      }
      try {
        return new BigDecimal(v.toString()).longValueExact();
      } catch (ArithmeticException e) {
        throw new ValidationException(field, field + " must be an integer, was " + shown(v.toString()));
      }
    }
    throw new ValidationException(field, field + " must be an integer, was " + describe(v));
  }

  static Long optInstant(JsonObject body, String field) {
    return instant(body.getValue(field), field);
  }

  /** {@code v} as epoch ms (an integer or an ISO-8601 instant), or {@code null}. */
  private static Long instant(Object v, String field) {
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
          throw new ValidationException(field,
              field + " must be epoch milliseconds or an ISO-8601 instant, was \"" + shown(s) + "\"");
        } catch (ArithmeticException e2) {
          throw new ValidationException(field, field + " is out of range, was \"" + shown(s) + "\"");
        }
      } catch (ArithmeticException e) {
        throw new ValidationException(field, field + " is out of range, was \"" + shown(s) + "\"");
      }
    } else {
      at = toLong(field, v);
    }
    if (at < 0) {
      throw new ValidationException(field, field + " must be >= 0 (epoch ms), was " + at);
    }
    return at;
  }

  static String describe(Object v) {
    if (v instanceof String s) {
      return "\"" + shown(s) + "\"";
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
    return shown(String.valueOf(v));
  }
}
