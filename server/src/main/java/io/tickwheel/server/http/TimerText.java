package io.tickwheel.server.http;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;

/**
 * Writes a timer as the API shows it, as JSON text: the same fields, order and values as
 * {@link TimerJson#toJson(Timer)} (plus {@code upcoming} for periodic timers), without building a {@code JsonObject} and without parsing the payload again (it is
 * stored as JSON text and copied as is). Ids, topics, kinds, misfire and DST policy names and zone ids are from
 * restricted alphabets and need no escaping; a cron expression is escaped. This is the hot path of the batch call (10,000 timers per answer).
 *
 * <p>Stateless, thread safe.
 */
final class TimerText {

  private TimerText() {}

  /**
   * Appends the timer's JSON object to {@code sb}: {@link TimerJson#toJson(Timer)}'s fields, then, for a periodic
   * timer, {@code upcoming}: its next {@value Schedule#UPCOMING} due times as they stand ({@link Schedule#upcoming};
   * empty while paused).
   */
  static StringBuilder append(StringBuilder sb, Timer t) {
    sb.append("{\"id\":\"").append(t.id())
        .append("\",\"topic\":\"").append(t.topic())
        .append("\",\"kind\":\"").append(t.kind().wireName())
        .append("\",\"delayMs\":").append(t.delayMs());
    if (t.kind().hasPeriod()) {
      sb.append(",\"periodMs\":").append(t.periodMs());
    }
    if (t.kind().periodic()) {
      sb.append(",\"misfire\":\"").append(t.misfire().wireName()).append('"');
    }
    ZonedCron cron = t.cron();
    if (cron != null) {
      // the expression is free text (validated by the cron library, not by alphabet): escaped; zone ids and policy
      // names are [A-Za-z0-9/_+-]
      sb.append(",\"cron\":");
      appendString(sb, cron.expression());
      sb.append(",\"timeZone\":\"").append(cron.zone().getId())
          .append("\",\"dstGap\":\"").append(cron.gap().wireName())
          .append("\",\"dstOverlap\":\"").append(cron.overlap().wireName()).append('"');
    }
    if (t.maxFirings() > 0) {
      sb.append(",\"maxFirings\":").append(t.maxFirings());
    }
    if (t.endAt() != Timer.NO_END) {
      sb.append(",\"endAt\":").append(t.endAt());
    }
    if (t.jitterMs() > 0) {
      sb.append(",\"jitterMs\":").append(t.jitterMs());
    }
    if (t.paused()) {
      sb.append(",\"paused\":true");
    }
    Callback cb = t.callback();
    if (cb != null) {
      // the URL is validated (no whitespace, no controls) but may hold quotes or backslashes only escaped: escaped
      sb.append(",\"callback\":{\"url\":").append(Json.encode(cb.url()))
          .append(",\"timeoutMs\":").append(cb.timeoutMs())
          .append(",\"maxAttempts\":").append(cb.maxAttempts());
      if (cb.hasBackoff()) {
        sb.append(",\"minBackoffMs\":").append(cb.minBackoffMs())
            .append(",\"maxBackoffMs\":").append(cb.maxBackoffMs());
      }
      sb.append('}');
    }
    if (t.payload() != null) {
      sb.append(",\"payload\":").append(t.payload());
    }
    sb.append(",\"nextDueAt\":").append(t.nextDueAt())
        .append(",\"firings\":").append(t.firings())
        .append(",\"createdAt\":").append(t.createdAt());
    if (t.kind().periodic()) {
      sb.append(",\"upcoming\":[");
      long[] next = Schedule.upcoming(t);
      for (int i = 0; i < next.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(next[i]);
      }
      sb.append(']');
    }
    return sb.append('}');
  }

  /**
   * Appends {@code s} as a JSON string. A text of printable ASCII without {@code "} and {@code \\} (every cron
   * expression the parser accepts in practice) needs no escaping and is copied between quotes; any other goes through
   * the JSON library. (Encoding it with the library every time cost about a tenth of a cron batch answer's CPU.)
   */
  static void appendString(StringBuilder sb, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        sb.append(Json.encode(s));
        return;
      }
    }
    sb.append('"').append(s).append('"');
  }

  /** The timer's JSON as a buffer. */
  static Buffer buffer(Timer t) {
    return Buffer.buffer(append(new StringBuilder(160 + (t.payload() == null ? 0 : t.payload().length())), t).toString());
  }
}
