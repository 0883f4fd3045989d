package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.StoreSettings;
import io.tickwheel.server.scheduler.WriteOutcome.TopicChanged;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
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

  TopicPauses(Context owner, StoreSettings store, PendingTimers pending) {
    this.owner = owner;
    this.store = store;
    this.pending = pending;
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
      return Future.succeededFuture(new TopicChanged(info(topic)));
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
      return Future.succeededFuture(new TopicChanged(info(topic)));
    });
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
  TopicInfo info(String topic) {
    return new TopicInfo(topic, pending.topicCount(topic), isPaused(topic));
  }

  /**
   * Topics with pending timers or paused, ordered by name, strictly after {@code after} (or from the start), at most
   * {@code limit}.
   */
  List<TopicInfo> list(String after, int limit) {
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
      out.add(info(sorted.get(i)));
    }
    return out;
  }
}
