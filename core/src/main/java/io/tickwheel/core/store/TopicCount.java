package io.tickwheel.core.store;

/**
 * How many timers a store keeps of one topic ({@link DueIndex#topicCounts}). Immutable.
 *
 * @param topic the topic's name
 * @param count its stored timers, {@code >= 1}
 */
public record TopicCount(String topic, long count) {}
