package io.tickwheel.server.push;

import io.tickwheel.core.model.TopicRule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topics one subscriber receives, each with the seq it applies after: a topic subscribed without
 * {@code from} only brings firings newer than the latest seq at the time it was added, even when the subscriber
 * is still replaying older firings of its other topics. {@code "*"} (all topics) is kept as its own entry.
 *
 * <p>Not thread safe: owner context only.
 */
final class TopicFilter {

  /** The wildcard topic: every topic. */
  static final String ALL = TopicRule.ALL;

  private final Map<String, Long> since = new HashMap<>();
  private long allSince = -1;

  /** Adds topics (or {@link #ALL}) that apply to firings with {@code seq > afterSeq}; keeps existing ones as they are. */
  void add(Collection<String> topics, long afterSeq) {
    for (String t : topics) {
      if (ALL.equals(t)) {
        if (allSince < 0) {
          allSince = afterSeq;
        }
      } else {
        since.putIfAbsent(t, afterSeq);
      }
    }
  }

  /** How many of {@code topics} are not entries yet (what {@link #add} would add). */
  int countNew(Collection<String> topics) {
    int n = 0;
    for (String t : topics) {
      if (ALL.equals(t) ? allSince < 0 : !since.containsKey(t)) {
        n++;
      }
    }
    return n;
  }

  /** Removes topics (or {@link #ALL}); absent ones are ignored. */
  void remove(Collection<String> topics) {
    for (String t : topics) {
      if (ALL.equals(t)) {
        allSince = -1;
      } else {
        since.remove(t);
      }
    }
  }

  boolean isEmpty() {
    return allSince < 0 && since.isEmpty();
  }

  boolean all() {
    return allSince >= 0;
  }

  /** The named topics (without {@link #ALL}). */
  Collection<String> named() {
    return since.keySet();
  }

  /** How many entries, {@link #ALL} included. */
  int size() {
    return since.size() + (allSince >= 0 ? 1 : 0);
  }

  /** Whether a firing of {@code topic} with {@code seq} is for this subscriber. */
  boolean matches(String topic, long seq) {
    if (allSince >= 0 && seq > allSince) {
      return true;
    }
    Long s = since.get(topic);
    return s != null && seq > s;
  }

  /** The entries, sorted, {@code "*"} first when present: what replies report. */
  List<String> sorted() {
    List<String> out = new ArrayList<>(size());
    if (allSince >= 0) {
      out.add(ALL);
    }
    List<String> named = new ArrayList<>(since.keySet());
    named.sort(null);
    out.addAll(named);
    return out;
  }
}
