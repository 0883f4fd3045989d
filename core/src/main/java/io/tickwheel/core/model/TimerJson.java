package io.tickwheel.core.model;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.ZonedCron;
import io.vertx.core.json.Json;

/**
 * The JSON shapes of the contract, written as text: a timer as the API answers it (and with its whole state, as
 * nodes pass it to each other), and a firing as subscribers receive it. Thread safe (stateless).
 */
public final class TimerJson {

  private TimerJson() {}

  /**
   * Appends a timer as the API shows it: {@code id}, {@code topic}, {@code kind}, {@code delayMs}; {@code periodMs} for
   * fixed-rate and fixed-delay timers, {@code misfire} for every periodic kind, {@code cron}, {@code timeZone},
   * {@code dstGap}, {@code dstOverlap} for cron timers, {@code maxFirings}, {@code endAt}, {@code jitterMs} when set,
   * {@code paused} when true, {@code callback} ({@code url}, {@code timeoutMs}, {@code maxAttempts}, and
   * {@code minBackoffMs}, {@code maxBackoffMs} when set) and {@code payload} when present; then {@code nextDueAt},
   * {@code firings}, {@code createdAt}; and for a periodic timer {@code upcoming}: its next {@value Schedule#UPCOMING}
   * due times as they stand ({@link Schedule#upcoming}; empty while paused). Fields in this order.
   *
   * <p>The one timer writer: HTTP answers, batch answers (10,000 timers each), WebSocket command answers and the calls
   * between nodes ({@link #appendState}) all use it. It writes text directly, without building a JSON tree and without
   * parsing the payload again (it is stored as JSON text and copied as is). Ids, topics, kinds, misfire and DST
   * policy names and zone ids are from restricted alphabets and need no escaping; a cron expression and a callback
   * URL are escaped.
   *
   * @return {@code sb}
   */
  public static StringBuilder append(StringBuilder sb, Timer t) {
    return write(sb, t, false);
  }

  /**
   * Appends a timer with all its state, as the calls between nodes carry it: {@link #append}'s fields without
   * {@code upcoming} (computed, not state), then {@code generation} and {@code nominalAt}, from which the receiving
   * node rebuilds the same {@link Timer}.
   *
   * @return {@code sb}
   */
  public static StringBuilder appendState(StringBuilder sb, Timer t) {
    return write(sb, t, true);
  }

  /**
   * Appends a timer as {@code GET /v1/export} writes it, one NDJSON line's object: {@link #append}'s fields without
   * {@code upcoming} (computed, not state), {@code paused} always, and {@code nominalAt} when the timer has jitter (the
   * nominal time of {@code nextDueAt}, which the jitter offset cannot be undone from). What {@link TimerImport} reads
   * back into the same timer (its generation aside).
   *
   * @return {@code sb}
   */
  public static StringBuilder appendExport(StringBuilder sb, Timer t) {
    write(sb, t, null);
    sb.setLength(sb.length() - 1);
    if (!t.paused()) {
      sb.append(",\"paused\":false");
    }
    if (t.jitterMs() > 0) {
      sb.append(",\"nominalAt\":").append(t.nominalAt());
    }
    return sb.append('}');
  }

  private static StringBuilder write(StringBuilder sb, Timer t, Boolean state) {
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
      // zone ids and policy names are [A-Za-z0-9/_+-]
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
      sb.append(",\"callback\":");
      appendCallback(sb, cb);
    }
    if (t.payload() != null) {
      sb.append(",\"payload\":").append(t.payload());
    }
    sb.append(",\"nextDueAt\":").append(t.nextDueAt())
        .append(",\"firings\":").append(t.firings())
        .append(",\"createdAt\":").append(t.createdAt());
    if (state == null) {
      return sb.append('}');          // the export's: neither state nor upcoming
    }
    if (state) {
      sb.append(",\"generation\":").append(t.generation()).append(",\"nominalAt\":").append(t.nominalAt());
    } else if (t.kind().periodic()) {
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
   * Appends a callback as the API shows it: {@code url}, {@code timeoutMs}, {@code maxAttempts} always (defaults
   * filled in), {@code minBackoffMs} and {@code maxBackoffMs} when set.
   *
   * @return {@code sb}
   */
  public static StringBuilder appendCallback(StringBuilder sb, Callback cb) {
    // the URL is validated (no whitespace, no controls) but may hold quotes or backslashes: escaped
    sb.append("{\"url\":");
    appendString(sb, cb.url());
    sb.append(",\"timeoutMs\":").append(cb.timeoutMs())
        .append(",\"maxAttempts\":").append(cb.maxAttempts());
    if (cb.hasBackoff()) {
      sb.append(",\"minBackoffMs\":").append(cb.minBackoffMs())
          .append(",\"maxBackoffMs\":").append(cb.maxBackoffMs());
    }
    return sb.append('}');
  }

  /**
   * Appends {@code s} as a JSON string, exactly as the JSON library writes it. A text of printable ASCII without
   * {@code "} and {@code \\} (every cron expression and most URLs) needs no escaping and is copied between quotes; any
   * other goes through the library.
   *
   * @return {@code sb}
   */
  public static StringBuilder appendString(StringBuilder sb, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return sb.append(Json.encode(s));
      }
    }
    return sb.append('"').append(s).append('"');
  }

  /**
   * A firing as pushed to subscribers:
   * {@code {"type":"fired","seq","id","topic","firing","dueAt","nominalAt","firedAt","payload"}} ({@code nominalAt}:
   * the un-jittered time of {@code dueAt}, equal to it without jitter), built as text so the
   * payload (already JSON) is not parsed again.
   */
  public static String firingJson(Firing f) {
    StringBuilder sb = new StringBuilder(128 + (f.payload() == null ? 0 : f.payload().length()));
    return appendFiringFields(sb, f).append('}').toString();
  }

  /**
   * Appends {@link #firingJson}'s text without its closing brace, so a caller can add fields (the push adds
   * {@code partition} and {@code cursor}) without copying the payload again.
   *
   * @return {@code sb}
   */
  public static StringBuilder appendFiringFields(StringBuilder sb, Firing f) {
    return sb.append("{\"type\":\"fired\",\"seq\":").append(f.seq())
        .append(",\"id\":\"").append(f.id()).append('"')          // ids and topics are [A-Za-z0-9._:-]: no escaping
        .append(",\"topic\":\"").append(f.topic()).append('"')
        .append(",\"firing\":").append(f.firing())
        .append(",\"dueAt\":").append(f.dueAt())
        .append(",\"nominalAt\":").append(f.nominalAt())
        .append(",\"firedAt\":").append(f.firedAt())
        .append(",\"payload\":").append(f.payload() == null ? "null" : f.payload());
  }
}
