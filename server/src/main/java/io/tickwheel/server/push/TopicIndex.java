package io.tickwheel.server.push;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Subscribers by topic, plus the list of those that take every topic, so a publish visits only the subscribers
 * that want the firing: O(matching subscribers), never a scan of all of them. A wildcard subscriber is listed
 * only under the wildcard, so it is visited once per firing.
 *
 * <p>Not thread safe: owner context only. Must not be changed while {@link #topic}/{@link #wildcard} sets are
 * being iterated (the hub defers removals during a publish).
 */
final class TopicIndex {

  private final Map<String, Set<Subscriber>> byTopic = new HashMap<>();
  private final Set<Subscriber> wildcard = new LinkedHashSet<>();
  private final Map<Subscriber, List<String>> keysOf = new IdentityHashMap<>();

  /** Lists {@code s} under what its filter now holds, replacing where it was listed before. */
  void update(Subscriber s, TopicFilter filter) {
    remove(s);
    if (filter.isEmpty()) {
      return;
    }
    if (filter.all()) {
      wildcard.add(s);
      keysOf.put(s, List.of(TopicFilter.ALL));
      return;
    }
    List<String> keys = new ArrayList<>(filter.named());
    for (String t : keys) {
      byTopic.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(s);
    }
    keysOf.put(s, keys);
  }

  /** Unlists {@code s} everywhere; a no-op when it is not listed. */
  void remove(Subscriber s) {
    List<String> keys = keysOf.remove(s);
    if (keys == null) {
      return;
    }
    for (String t : keys) {
      if (TopicFilter.ALL.equals(t)) {
        wildcard.remove(s);
      } else {
        Set<Subscriber> set = byTopic.get(t);
        if (set != null && set.remove(s) && set.isEmpty()) {
          byTopic.remove(t);
        }
      }
    }
  }

  /** Subscribers listed under exactly {@code topic} (not the wildcard ones); read-only view. */
  Set<Subscriber> topic(String topic) {
    Set<Subscriber> set = byTopic.get(topic);
    return set == null ? Collections.emptySet() : set;
  }

  /** Subscribers of every topic; read-only use. */
  Set<Subscriber> wildcard() {
    return wildcard;
  }

  /** The named topics with at least one subscriber (a copy). */
  Set<String> named() {
    return Set.copyOf(byTopic.keySet());
  }

  /** How many distinct topics have at least one subscriber. */
  int topics() {
    return byTopic.size();
  }
}
