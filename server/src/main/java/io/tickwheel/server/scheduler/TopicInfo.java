package io.tickwheel.server.scheduler;

/**
 * One topic as {@code GET /v1/topics} shows it. Immutable.
 *
 * @param topic   the topic's name
 * @param pending its pending timers, both tiers: armed, paused or held back by the topic's pause, and the far ones
 *                kept in the store beyond the window (with a window every stored timer counts, one whose write or
 *                firing is in flight at that moment too; without one such a timer is not counted)
 * @param paused  whether the topic is paused (none of its timers fires)
 */
public record TopicInfo(String topic, long pending, boolean paused) {}
