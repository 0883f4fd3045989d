package io.tickwheel.core.model;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * Reads one line of {@code POST /v1/import}: a timer with its whole state, as {@link TimerJson#appendExport} writes
 * it, into the {@link Timer} to store. Stateless and thread safe.
 *
 * <p>The definition (every field a client may send) is validated by the API's own {@link TimerParser}, with its
 * field-naming messages; the state fields are then checked here:
 * <ul>
 *   <li>{@code id}: required (a line creates or replaces its timer).</li>
 *   <li>{@code nextDueAt} (epoch ms, within the horizon from now; in the past is allowed: it fires at once, a periodic
 *       timer then following its {@code misfire}); without it the line is taken as {@code PUT} takes its body (first
 *       due time from {@code delayMs}/{@code at}).</li>
 *   <li>{@code nominalAt}: the un-jittered time of {@code nextDueAt}, only for a timer with {@code jitterMs}, at most
 *       {@code nextDueAt}; default {@code nextDueAt}.</li>
 *   <li>{@code firings} ({@code >= 0}, below {@code maxFirings} when set and 0 for a {@code once} timer: a timer
 *       that fired them all has ended),
 *       {@code createdAt} ({@code >= 0}, default now), {@code paused} (boolean, default false).</li>
 *   <li>{@code delayMs} is kept as the countdown a touch restarts; {@code upcoming} is ignored (it is computed).</li>
 * </ul>
 */
public final class TimerImport {

  private static final Set<String> STATE = Set.of("nextDueAt", "nominalAt", "firings", "createdAt", "paused",
      "upcoming");

  private TimerImport() {}

  /**
   * The timer a line stands for, generation {@code generation} (the caller gives the next one when it replaces).
   *
   * @param parser the API's parser (calendars on)
   * @param line   the line's JSON object
   * @param nowMs  the import's time, epoch ms
   * @throws ValidationException naming the field and the bad value
   */
  public static Timer read(TimerParser parser, JsonObject line, long nowMs, long generation) {
    if (line == null) {
      throw new ValidationException(null, "a line must be a JSON object");
    }
    Object idValue = line.getValue("id");
    if (idValue == null) {
      throw new ValidationException("id", "an imported timer needs its id");
    }
    Long next = TimerParser.optLong(line, "nextDueAt");
    if (next == null) {
      if (line.containsKey("nominalAt")) {
        throw new ValidationException("nominalAt", "nominalAt needs nextDueAt");
      }
      TimerSpec spec = parser.parse(stateless(line), nowMs);
      return withState(line, Schedule.accept(spec, nowMs, generation), nowMs);
    }
    long horizon = parser.limits().maxHorizonMs();
    if (next < 0 || next - nowMs > horizon) {
      throw new ValidationException("nextDueAt", "nextDueAt must be epoch ms between 0 and " + horizon
          + " ms ahead (the horizon), was " + next);
    }
    Long delay = TimerParser.optLong(line, "delayMs");
    if (delay != null && (delay < 0 || delay > horizon)) {
      throw new ValidationException("delayMs",
          "delayMs must be between 0 and " + horizon + " (the horizon), was " + delay);
    }
    Long nominalAt = TimerParser.optLong(line, "nominalAt");
    long nominal = nominalAt == null ? next : nominalAt;
    if (nominal < 0 || nominal > next) {
      throw new ValidationException("nominalAt", "nominalAt must be between 0 and nextDueAt (" + next + "), was "
          + nominal);
    }
    // the definition, validated as the API validates it, its first due time being the stored nominal one
    JsonObject def = stateless(line);
    def.remove("delayMs");
    def.remove("at");
    def.put("at", nominal);
    TimerSpec spec = parser.parse(def, nowMs);
    if (nominalAt != null && spec.jitterMs() == 0 && nominal != next) {
      throw new ValidationException("nominalAt", "nominalAt differs from nextDueAt (" + next
          + ") on a timer without jitterMs, was " + nominal);
    }
    Timer accepted = Schedule.accept(spec, nowMs, generation);
    Timer t = new Timer(accepted.id(), accepted.topic(), accepted.kind(), delay != null ? delay : accepted.delayMs(),
        accepted.periodMs(), accepted.maxFirings(), accepted.misfire(), accepted.payload(), accepted.createdAt(),
        accepted.nextDueAt(), 0, generation, accepted.extras()).withDue(nominal, next);
    return withState(line, t, nowMs);
  }

  /** {@code line} without the state fields, for the parser. */
  private static JsonObject stateless(JsonObject line) {
    JsonObject def = line.copy();
    for (String f : STATE) {
      def.remove(f);
    }
    return def;
  }

  /** {@code t} with the line's {@code firings}, {@code createdAt} and {@code paused}. */
  private static Timer withState(JsonObject line, Timer t, long nowMs) {
    Long firings = TimerParser.optLong(line, "firings");
    if (firings != null && firings < 0) {
      throw new ValidationException("firings", "firings must be >= 0, was " + firings);
    }
    long f = firings == null ? 0 : firings;
    if (t.kind() == Kind.ONCE && f > 0) {
      throw new ValidationException("firings", "firings must be 0 for a once timer: one that fired has ended, was "
          + f);
    }
    if (t.maxFirings() > 0 && f >= t.maxFirings()) {
      throw new ValidationException("firings", "firings must be below maxFirings (" + t.maxFirings()
          + "): a timer that fired them all has ended, was " + f);
    }
    Long created = TimerParser.optLong(line, "createdAt");
    if (created != null && created < 0) {
      throw new ValidationException("createdAt", "createdAt must be >= 0 (epoch ms), was " + created);
    }
    Object paused = line.getValue("paused");
    if (paused != null && !(paused instanceof Boolean)) {
      throw new ValidationException("paused", "paused must be true or false, was " + TimerParser.describe(paused));
    }
    Timer out = new Timer(t.id(), t.topic(), t.kind(), t.delayMs(), t.periodMs(), t.maxFirings(), t.misfire(),
        t.payload(), created == null ? nowMs : created, t.nextDueAt(), f, t.generation(), t.extras());
    return out.withPaused(Boolean.TRUE.equals(paused));
  }
}
