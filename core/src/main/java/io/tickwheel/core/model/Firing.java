package io.tickwheel.core.model;

import java.util.Objects;

/**
 * One recorded firing, as kept in the firing log and pushed to subscribers.
 *
 * @param seq     position in the store's firing log: strictly increasing, starting at 1
 * @param id      the timer's id
 * @param topic   the timer's topic
 * @param firing  1 for the first firing of the timer, 2 for the second, …
 * @param dueAt   the due time this firing is for, epoch ms
 * @param firedAt when the server fired it, epoch ms ({@code >= dueAt})
 * @param payload the timer's payload as JSON text, or {@code null}
 * @param nominalAt the nominal (un-jittered) time of {@code dueAt}, epoch ms ({@code <= dueAt}; equal to it for a
 *                timer without jitter)
 */
public record Firing(long seq, String id, String topic, long firing, long dueAt, long firedAt, String payload,
    long nominalAt) {

  /** A firing of a timer without jitter: its nominal time is its due time. */
  public Firing(long seq, String id, String topic, long firing, long dueAt, long firedAt, String payload) {
    this(seq, id, topic, firing, dueAt, firedAt, payload, dueAt);
  }

  public Firing {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(topic, "topic");
  }

  /** This firing with its log position. */
  public Firing withSeq(long s) {
    return new Firing(s, id, topic, firing, dueAt, firedAt, payload, nominalAt);
  }
}
