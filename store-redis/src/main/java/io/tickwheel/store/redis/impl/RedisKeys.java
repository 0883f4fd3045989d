package io.tickwheel.store.redis.impl;

import io.tickwheel.core.delivery.DeliveryState;
import java.util.List;

/**
 * The Redis keys of one store. All of a store's own keys start with one hash tag ({@code {PREFIX}:} on a single
 * node, {@code {PREFIX:p:P}:} for partition {@code P} of a cluster), so on a Redis Cluster they live in one slot and
 * every multi-key script runs atomically on one master; the settings keys are under the shared prefix (the
 * cluster's, on a partition store). The lists are the {@code KEYS} of the scripts, in the order the scripts read
 * them. Immutable.
 */
public final class RedisKeys {

  /** Hash, id → timer record. */
  final String timersKey;
  /** Sorted set, the due index. */
  final String dueKey;
  /** String, the last seq. */
  final String seqKey;
  /** Stream, the firing log. */
  final String log;
  /** Set, the paused topics. */
  final String pausedTopicsKey;
  /** String, the webhook secret. */
  final String webhookSecretKey;
  /** Hash, seq → delivery record. */
  final String deliveriesKey;
  /** Per {@link DeliveryState} (by ordinal), the sorted set of its seqs. */
  final String[] deliveryStateKeys;
  /** Sorted set, every delivery's seq. */
  final String allDeliveriesKey;
  /** String, the seq where the delivery trim's age check stopped (see {@code trim_deliveries.lua}). */
  final String deliveryTrimAtKey;
  /** Hash, topic → its stored timers, and field {@code *paused} → the paused ones (see {@code counts.lua}). */
  final String topicCountsKey;
  /** Sorted set, all scores 0: the topics with stored timers (see {@code counts.lua}). */
  final String topicsKey;
  /** Hash, empty but inside a large createAbsent's transaction: the records it keeps (see {@code create_absent_keep.lua}). */
  final String createAbsentKeepKey;
  /** The keys of the timer scripts: records, due index, per-topic counts, topic names. */
  final List<String> timerKeys;
  /** The keys of {@code fire.lua}. */
  final List<String> fireKeys;
  /** The keys of {@code trim.lua}. */
  final List<String> logKey;
  /** The keys of {@code trim_deliveries.lua}. */
  final List<String> trimDeliveriesKeys;

  /** The last-seq key of the store whose own keys start with {@code prefix} (hash tag and colon included). */
  public static String seqKey(String prefix) {
    return prefix + "seq";
  }

  /**
   * @param prefix       the prefix of the store's own keys, hash tag and colon included ({@code {tw}:})
   * @param sharedPrefix the prefix of the settings keys ({@code prefix} on a single node)
   */
  public RedisKeys(String prefix, String sharedPrefix) {
    this.timersKey = prefix + "timers";
    this.dueKey = prefix + "due";
    this.seqKey = seqKey(prefix);
    this.log = prefix + "log";
    this.pausedTopicsKey = sharedPrefix + "paused-topics";
    this.webhookSecretKey = sharedPrefix + "webhook-secret";
    this.topicCountsKey = prefix + "topic-counts";
    this.topicsKey = prefix + "topics";
    this.timerKeys = List.of(timersKey, dueKey, topicCountsKey, topicsKey);
    this.createAbsentKeepKey = prefix + "create-absent-keep";
    this.deliveriesKey = prefix + "dlv";
    this.deliveryStateKeys = new String[DeliveryState.values().length];
    for (DeliveryState st : DeliveryState.values()) {
      deliveryStateKeys[st.ordinal()] = prefix + "dlv:" + st.wire();
    }
    this.allDeliveriesKey = prefix + "dlv:all";
    this.deliveryTrimAtKey = prefix + "dlv:trim-at";
    this.trimDeliveriesKeys = List.of(deliveriesKey, deliveryStateKeys[DeliveryState.SUCCEEDED.ordinal()],
        deliveryStateKeys[DeliveryState.DEAD.ordinal()], allDeliveriesKey, deliveryTrimAtKey);
    this.fireKeys = List.of(timersKey, dueKey, seqKey, log, deliveriesKey,
        deliveryStateKeys[DeliveryState.PENDING.ordinal()], allDeliveriesKey, topicCountsKey, topicsKey);
    this.logKey = List.of(log);
  }
}
