package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.StoreSettings;
import io.tickwheel.core.store.TopicCount;
import io.tickwheel.server.scheduler.WriteOutcome.TopicChanged;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Topic pauses: which topics are paused, durably ({@link StoreSettings#setTopicPaused}, loaded at recovery), and the
 * topic listing.
 *
 * <p>While a topic is paused, no timer of it fires: the {@link FireLoop} parks each one that comes due
 * ({@link PendingTimers#park}) instead of recording it; nothing is scanned at pause time. On resume the parked timers
 * are armed again, at most {@value #REARM_PER_TASK} per event-loop task, with their due times unchanged: the next
 * turns hand them to {@link io.tickwheel.core.model.Schedule#onDue}, so their missed due times follow their
 * {@code misfire} rule (a {@code once} timer fires late). A firing already being recorded when the pause is written
 * still completes.
 *
 * <p>The per-topic counts of the listing: with two tiers ({@link PendingTimers#windowed()}) the store's
 * ({@link DueIndex#topicCounts}: every stored timer, near or far, held ones too), else the pending timers' in memory.
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail, except {@link #info} and
 * {@link #list}, which fail with the store's failure when its counts could not be read.
 */
final class TopicPauses {

  /** Most paused topics kept (each costs a store record and memory). */
  static final int MAX_PAUSED_TOPICS = 10_000;
  /** Parked timers armed again per event-loop task on a topic's resume. */
  static final int REARM_PER_TASK = 10_000;

  private final Context owner;
  private final StoreSettings store;
  private final PendingTimers pending;
  private final Set<String> paused = new HashSet<>();
  /** Where the per-topic counts come from with two tiers; {@code null}: from memory. */
  private final DueIndex counts;

  /** @param counts the store's counts when timers beyond a window stay in the store, else {@code null} */
  TopicPauses(Context owner, StoreSettings store, PendingTimers pending, DueIndex counts) {
    this.owner = owner;
    this.store = store;
    this.pending = pending;
    this.counts = counts;
  }

  /** Loads the paused topics from the store (recovery, before the timers). */
  Future<Void> recover() {
    return store.pausedTopics().map(topics -> {
      paused.clear();
      paused.addAll(topics);
      return null;
    });
  }

  /** Whether {@code topic} is paused. */
  boolean isPaused(String topic) {
    return !paused.isEmpty() && paused.contains(topic);
  }

  /** How many topics are paused. */
  int pausedCount() {
    return paused.size();
  }

  /** See {@link Scheduler#pauseTopic}. */
  Future<WriteOutcome> pause(String topic) {
    if (!paused.contains(topic) && paused.size() >= MAX_PAUSED_TOPICS) {
      return Future.succeededFuture(new Refusal.TooManyPausedTopics(MAX_PAUSED_TOPICS));
    }
    return store.setTopicPaused(topic, true).transform(ar -> {
      if (ar.failed()) {
        return Future.succeededFuture(Refusal.ofStoreFailure(ar.cause(), true));
      }
      paused.add(topic);
      return changed(topic);
    });
  }

  /** See {@link Scheduler#resumeTopic}. */
  Future<WriteOutcome> resume(String topic) {
    return store.setTopicPaused(topic, false).transform(ar -> {
      if (ar.failed()) {
        return Future.succeededFuture(Refusal.ofStoreFailure(ar.cause(), true));
      }
      paused.remove(topic);
      rearm(topic);
      return changed(topic);
    });
  }

  /** The answer to a pause or resume that was applied: the topic's state (its count from memory if unreadable). */
  private Future<WriteOutcome> changed(String topic) {
    return info(topic).transform(ar -> Future.succeededFuture(new TopicChanged(ar.succeeded() ? ar.result()
        : new TopicInfo(topic, pending.topicCount(topic), isPaused(topic)))));
  }

  /** See {@link Scheduler#applyPausedTopics}. */
  void apply(Set<String> clusterPaused) {
    List<String> resumed = new ArrayList<>();
    for (String t : paused) {
      if (!clusterPaused.contains(t)) {
        resumed.add(t);
      }
    }
    paused.addAll(clusterPaused);
    for (String t : resumed) {
      paused.remove(t);
      rearm(t);
    }
  }

  /** Arms the parked timers of {@code topic} again, a bounded number per task, unless it was paused again. */
  private void rearm(String topic) {
    if (isPaused(topic)) {
      return;
    }
    List<Timer> back = pending.unpark(topic, REARM_PER_TASK);
    back.forEach(pending::arm);
    if (back.size() == REARM_PER_TASK) {
      owner.runOnContext(v -> rearm(topic));
    }
  }

  /** The state of {@code topic} now. */
  Future<TopicInfo> info(String topic) {
    if (counts == null) {
      return Future.succeededFuture(new TopicInfo(topic, pending.topicCount(topic), isPaused(topic)));
    }
    return counts.topicCount(topic).map(n -> new TopicInfo(topic, n, isPaused(topic)));
  }

  /**
   * Topics with pending timers or paused, ordered by name, strictly after {@code after} (or from the start), at most
   * {@code limit} (at most {@link DueIndex#MAX_DUE_LIMIT} with two tiers).
   */
  Future<List<TopicInfo>> list(String after, int limit) {
    if (counts == null) {
      return Future.succeededFuture(fromMemory(after, limit));
    }
    int max = Math.min(limit, DueIndex.MAX_DUE_LIMIT);
    return counts.topicCounts(after, max).map(page -> {
      // the store's page is the first max topics with timers after `after`: a paused topic beyond its last one
      // either has no timers (the page was short) or sorts after every topic of a full page, so it is cut
      TreeMap<String, Long> merged = new TreeMap<>();
      for (TopicCount c : page) {
        merged.put(c.topic(), c.count());
      }
      for (String t : paused) {
        if (after == null || t.compareTo(after) > 0) {
          merged.putIfAbsent(t, 0L);
        }
      }
      List<TopicInfo> out = new ArrayList<>(Math.min(max, merged.size()));
      for (var e : merged.entrySet()) {
        if (out.size() == max) {
          break;
        }
        out.add(new TopicInfo(e.getKey(), e.getValue(), isPaused(e.getKey())));
      }
      return out;
    });
  }

  private List<TopicInfo> fromMemory(String after, int limit) {
    Set<String> names = new HashSet<>(pending.topics());
    names.addAll(paused);
    List<String> sorted = new ArrayList<>(names.size());
    for (String n : names) {
      if (after == null || n.compareTo(after) > 0) {
        sorted.add(n);
      }
    }
    sorted.sort(null);
    List<TopicInfo> out = new ArrayList<>(Math.min(limit, sorted.size()));
    for (int i = 0; i < sorted.size() && out.size() < limit; i++) {
      String t = sorted.get(i);
      out.add(new TopicInfo(t, pending.topicCount(t), isPaused(t)));
    }
    return out;
  }
}
