package io.tickwheel.server.route;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerSpec;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;

/**
 * The JSON of forwarded calls, both ways. A {@link TimerSpec} is sent as the timer body the API takes (so the owner
 * parses and validates it as it would the client's; {@code delayMs} then counts from the owner's acceptance, later by
 * the forward's latency, never earlier). A timer comes back as the API shows it plus the two fields a forwarded answer
 * adds ({@code generation}, {@code nominalAt}; see {@code TimersApi}), from which {@link #timer} rebuilds the owner's
 * {@link Timer}, so this node renders exactly what the owner would.
 *
 * <p>Stateless, thread safe.
 */
public final class TimerWire {

  /** The request header that marks a call forwarded by another node (its value: that node's id). */
  public static final String FORWARDED = "X-Tickwheel-Forwarded";

  private TimerWire() {}

  /** The body of a create or put for {@code spec}. */
  public static StringBuilder appendSpec(StringBuilder sb, TimerSpec s) {
    // defaults (topic "default", kind once, misfire fire-once) are left out: a forwarded body is no larger than the
    // client's, so it stays under the receiving node's body limit
    sb.append('{');
    if (s.id() != null) {
      field(sb).append("\"id\":\"").append(s.id()).append('"');              // ids and topics need no escaping
    }
    if (!"default".equals(s.topic())) {
      field(sb).append("\"topic\":\"").append(s.topic()).append('"');
    }
    if (s.kind() != Kind.ONCE) {
      field(sb).append("\"kind\":\"").append(s.kind().wireName()).append('"');
    }
    if (s.delayMs() != null) {
      field(sb).append("\"delayMs\":").append(s.delayMs());
    }
    if (s.atMs() != null) {
      field(sb).append("\"at\":").append(s.atMs());
    }
    if (s.kind().hasPeriod()) {
      field(sb).append("\"periodMs\":").append(s.periodMs());
    }
    if (s.misfire() != Misfire.FIRE_ONCE) {
      field(sb).append("\"misfire\":\"").append(s.misfire().wireName()).append('"');
    }
    if (s.maxFirings() > 0) {
      field(sb).append("\"maxFirings\":").append(s.maxFirings());
    }
    ZonedCron c = s.cron();
    if (c != null) {
      field(sb).append("\"cron\":").append(Json.encode(c.expression()))
          .append(",\"timeZone\":\"").append(c.zone().getId())
          .append("\",\"dstGap\":\"").append(c.gap().wireName())
          .append("\",\"dstOverlap\":\"").append(c.overlap().wireName()).append('"');
    }
    if (s.endAt() != Timer.NO_END) {
      field(sb).append("\"endAt\":").append(s.endAt());
    }
    if (s.jitterMs() > 0) {
      field(sb).append("\"jitterMs\":").append(s.jitterMs());
    }
    Callback cb = s.callback();
    if (cb != null) {
      field(sb).append("\"callback\":");
      appendCallback(sb, cb);
    }
    if (s.payload() != null) {
      field(sb).append("\"payload\":").append(s.payload());
    }
    return sb.append('}');
  }

  private static void appendCallback(StringBuilder sb, Callback cb) {
    sb.append("{\"url\":").append(Json.encode(cb.url()))
        .append(",\"timeoutMs\":").append(cb.timeoutMs())
        .append(",\"maxAttempts\":").append(cb.maxAttempts());
    if (cb.hasBackoff()) {
      sb.append(",\"minBackoffMs\":").append(cb.minBackoffMs()).append(",\"maxBackoffMs\":").append(cb.maxBackoffMs());
    }
    sb.append('}');
  }

  /** {@code sb} after the separator its next field needs. */
  private static StringBuilder field(StringBuilder sb) {
    return sb.charAt(sb.length() - 1) == '{' ? sb : sb.append(',');
  }

  /**
   * The owner's timer from a forwarded answer's timer object.
   *
   * @throws IllegalArgumentException if it is not one (a node of another version, a bug)
   */
  public static Timer timer(JsonObject j) {
    try {
      Kind kind = Kind.fromWire(j.getString("kind"));
      if (kind == null) {
        throw new IllegalArgumentException("unknown kind " + j.getString("kind"));
      }
      String m = j.getString("misfire");
      Misfire misfire = m == null ? Misfire.FIRE_ONCE : Misfire.fromWire(m);
      ZonedCron cron = null;
      if (j.getString("cron") != null) {
        cron = ZonedCron.of(j.getString("cron"), ZoneId.of(j.getString("timeZone")),
            DstGap.fromWire(j.getString("dstGap")), DstOverlap.fromWire(j.getString("dstOverlap")));
      }
      Object payload = j.getValue("payload");
      JsonObject c = j.getJsonObject("callback");
      Callback callback = c == null ? null : new Callback(c.getString("url"), c.getInteger("timeoutMs"),
          c.getInteger("maxAttempts"), c.getLong("minBackoffMs", Callback.NO_BACKOFF),
          c.getLong("maxBackoffMs", Callback.NO_BACKOFF));
      Timer.Extras extras = new Timer.Extras(cron, j.getLong("endAt", Timer.NO_END), j.getLong("jitterMs", 0L),
          j.getBoolean("paused", false), j.getLong("nominalAt", 0L), callback);
      return new Timer(j.getString("id"), j.getString("topic"), kind, j.getLong("delayMs"), j.getLong("periodMs", 0L),
          j.getLong("maxFirings", 0L), misfire, payload == null ? null : Json.encode(payload), j.getLong("createdAt"),
          j.getLong("nextDueAt"), j.getLong("firings"), j.getLong("generation", 0L), extras);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a forwarded timer: " + e.getMessage(), e);
    }
  }
}
