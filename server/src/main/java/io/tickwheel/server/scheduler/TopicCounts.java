package io.tickwheel.server.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * How many pending timers each topic has: the counts behind {@code GET /v1/topics}. A topic is present only while it
 * has at least one timer, so the map is bounded by the number of topics in use (at most one per pending timer).
 *
 * <p>What counts is up to the caller ({@link PendingTimers}: armed, paused and parked timers).
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class TopicCounts {

  private final HashMap<String, long[]> counts = new HashMap<>();

  /** One timer more in {@code topic}. */
  void add(String topic) {
    long[] c = counts.get(topic);
    if (c == null) {
      counts.put(topic, new long[] {1});
    } else {
      c[0]++;
    }
  }

  /** One timer less in {@code topic}; the topic is forgotten at zero. */
  void remove(String topic) {
    long[] c = counts.get(topic);
    if (c != null && --c[0] <= 0) {
      counts.remove(topic);
    }
  }

  /** The count of {@code topic}, 0 if it has none. */
  long of(String topic) {
    long[] c = counts.get(topic);
    return c == null ? 0 : c[0];
  }

  /** The topics that have timers (a copy, unordered). */
  List<String> topics() {
    return new ArrayList<>(counts.keySet());
  }

  /** How many topics have timers. */
  int size() {
    return counts.size();
  }
}
