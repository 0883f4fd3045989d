package io.tickwheel.core.model;

import java.util.Objects;

/**
 * An accepted timer: its definition and its progress. Immutable.
 *
 * <p>All times are epoch milliseconds, all durations milliseconds.
 *
 * @param id         unique key, {@code [A-Za-z0-9._:-]{1,200}}
 * @param topic      subscribers filter on it, {@code [A-Za-z0-9._-]{1,100}}
 * @param kind       how it repeats
 * @param delayMs    the countdown a {@code touch} restarts for a {@code once} timer (its first delay,
 *                   or {@code at - createdAt} for one given {@code at}); informational for periodic timers
 * @param periodMs   the period of a periodic timer; {@code 0} for {@code once}
 * @param maxFirings the timer ends after this many firings; {@code 0} means unlimited
 * @param misfire    the misfire rule (used by {@code fixed-rate} only)
 * @param payload    the client's payload as JSON text, or {@code null}; stores keep it, the wheel's
 *                   in-memory copy may drop it (see {@link #withoutPayload()})
 * @param createdAt  when the timer was accepted (or last replaced)
 * @param nextDueAt  when it fires next
 * @param firings    how many times it has fired so far
 * @param generation bumped whenever the timer is replaced or touched; a firing is recorded only against
 *                   the generation and firing count it was computed from (see {@code FiringRequest})
 */
public record Timer(
    String id,
    String topic,
    Kind kind,
    long delayMs,
    long periodMs,
    long maxFirings,
    Misfire misfire,
    String payload,
    long createdAt,
    long nextDueAt,
    long firings,
    long generation) {

  public Timer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(misfire, "misfire");
  }

  /** This timer with another due time. */
  public Timer withNextDueAt(long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings, generation);
  }

  /** This timer after one more firing, next due at {@code dueAt}. */
  public Timer fired(long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings + 1, generation);
  }

  /** This timer re-armed by a touch: next due at {@code dueAt}, next generation. */
  public Timer touched(long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings, generation + 1);
  }

  /** This timer with another generation (used when a replace takes over an existing id). */
  public Timer withGeneration(long gen) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, nextDueAt, firings, gen);
  }

  /**
   * This timer with another payload (JSON text or {@code null}); this very timer when {@code json} is the string it
   * already holds (the same instance: no copy, and a store that keeps the object keeps sharing it).
   */
  public Timer withPayload(String json) {
    if (json == payload) {
      return this;
    }
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, json, createdAt, nextDueAt, firings, generation);
  }

  /** This timer without its payload: the lean copy kept in memory. */
  public Timer withoutPayload() {
    return payload == null ? this : withPayload(null);
  }

  /** Whether it ends after the firing that makes {@code firings} reach {@code n}. */
  public boolean endsAfterFiring(long n) {
    return kind == Kind.ONCE || (maxFirings > 0 && n >= maxFirings);
  }
}
