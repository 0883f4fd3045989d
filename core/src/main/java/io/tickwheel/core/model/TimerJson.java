package io.tickwheel.core.model;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The JSON shapes of the contract: a timer as the API answers it, and a firing as subscribers receive it.
 * Thread safe (stateless).
 */
public final class TimerJson {

  private TimerJson() {}

  /**
   * A timer as the API shows it: the client's fields plus {@code nextDueAt}, {@code firings},
   * {@code createdAt}. {@code periodMs} appears for fixed-rate and fixed-delay timers, {@code misfire} for every
   * periodic kind, {@code cron}, {@code timeZone}, {@code dstGap}, {@code dstOverlap} for cron timers,
   * {@code maxFirings}, {@code endAt}, {@code jitterMs} when set, {@code paused} when true, {@code callback} (see
   * {@link #callbackJson}) and {@code payload} when present. ({@code upcoming} is not part of it: it is computed per response, see {@link Schedule#upcoming}.)
   */
  public static JsonObject toJson(Timer t) {
    JsonObject o = new JsonObject()
        .put("id", t.id())
        .put("topic", t.topic())
        .put("kind", t.kind().wireName())
        .put("delayMs", t.delayMs());
    if (t.kind().hasPeriod()) {
      o.put("periodMs", t.periodMs());
    }
    if (t.kind().periodic()) {
      o.put("misfire", t.misfire().wireName());
    }
    if (t.cron() != null) {
      o.put("cron", t.cron().expression());
      o.put("timeZone", t.cron().zone().getId());
      o.put("dstGap", t.cron().gap().wireName());
      o.put("dstOverlap", t.cron().overlap().wireName());
    }
    if (t.maxFirings() > 0) {
      o.put("maxFirings", t.maxFirings());
    }
    if (t.endAt() != Timer.NO_END) {
      o.put("endAt", t.endAt());
    }
    if (t.jitterMs() > 0) {
      o.put("jitterMs", t.jitterMs());
    }
    if (t.paused()) {
      o.put("paused", true);
    }
    if (t.callback() != null) {
      o.put("callback", callbackJson(t.callback()));
    }
    if (t.payload() != null) {
      o.put("payload", Json.decodeValue(t.payload()));
    }
    o.put("nextDueAt", t.nextDueAt());
    o.put("firings", t.firings());
    o.put("createdAt", t.createdAt());
    return o;
  }

  /**
   * A callback as the API shows it: {@code url}, {@code timeoutMs}, {@code maxAttempts} always (defaults filled in),
   * {@code minBackoffMs} and {@code maxBackoffMs} when set.
   */
  public static JsonObject callbackJson(io.tickwheel.core.callback.Callback c) {
    JsonObject o = new JsonObject()
        .put("url", c.url())
        .put("timeoutMs", c.timeoutMs())
        .put("maxAttempts", c.maxAttempts());
    if (c.hasBackoff()) {
      o.put("minBackoffMs", c.minBackoffMs()).put("maxBackoffMs", c.maxBackoffMs());
    }
    return o;
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
