package io.tickwheel.core.model;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One shared {@code String} instance per topic name, so that a million pending timers of a handful of topics do not
 * hold a million copies of the same few strings (each copy is two objects, about 50 bytes, that the garbage
 * collector copies while they are young). The parser and the stores' decoders pass every topic through
 * {@link #canonical}.
 *
 * <p>Bounded: at most {@link #MAX_TOPICS} names are kept; once full, further names are returned as given (correct,
 * just not shared). Thread safe.
 */
public final class Topics {

  /** Most topic names kept. */
  public static final int MAX_TOPICS = 10_000;

  private static final ConcurrentHashMap<String, String> NAMES = new ConcurrentHashMap<>();

  private Topics() {}

  /** The shared instance equal to {@code topic} (itself if it is the first, or if the table is full). */
  public static String canonical(String topic) {
    String known = NAMES.get(topic);
    if (known != null) {
      return known;
    }
    if (NAMES.size() >= MAX_TOPICS) {
      return topic;
    }
    known = NAMES.putIfAbsent(topic, topic);
    return known != null ? known : topic;
  }
}
