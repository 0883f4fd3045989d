package io.tickwheel.server.scheduler;

/**
 * One topic as {@code GET /v1/topics} shows it. Immutable.
 *
 * @param topic   the topic's name
 * @param pending its pending timers (armed, paused or held back by the topic's pause; a timer whose write or firing
 *                is in flight at that moment is not counted)
 * @param paused  whether the topic is paused (none of its timers fires)
 */
public record TopicInfo(String topic, long pending, boolean paused) {}
