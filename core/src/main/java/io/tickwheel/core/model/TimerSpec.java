package io.tickwheel.core.model;

/**
 * A validated timer definition as a client sent it, before acceptance gives it due times.
 * Produced by {@link TimerParser}; turned into a {@link Timer} by {@link Schedule#accept}.
 *
 * @param id         the requested id, or {@code null} to let the server generate one
 * @param topic      the topic ({@code "default"} when not sent)
 * @param kind       the kind ({@code once} when not sent)
 * @param delayMs    first firing this long after acceptance, or {@code null}
 * @param atMs       first firing at this instant (epoch ms), or {@code null}; exclusive with {@code delayMs}
 * @param periodMs   the period of a periodic timer, {@code 0} for {@code once}
 * @param maxFirings {@code 0} for unlimited
 * @param misfire    the misfire rule
 * @param payload    JSON text, or {@code null}
 */
public record TimerSpec(
    String id,
    String topic,
    Kind kind,
    Long delayMs,
    Long atMs,
    long periodMs,
    long maxFirings,
    Misfire misfire,
    String payload) {

  /** This definition with the id the server chose (or the path's). */
  public TimerSpec withId(String newId) {
    return new TimerSpec(newId, topic, kind, delayMs, atMs, periodMs, maxFirings, misfire, payload);
  }
}
