package io.tickwheel.store.rocksdb;

import java.nio.charset.StandardCharsets;

/**
 * The key layout (RocksDB's default bytewise comparator orders every family):
 * <ul>
 *   <li>{@code timers}: the id as UTF-8 → {@code Codec.encodeTimer}.</li>
 *   <li>{@code due}: {@code dueAt} as 8 big-endian bytes with the sign bit flipped (so negative times sort
 *       first), then the id as UTF-8 → the topic as UTF-8 (so a topic-filtered listing reads only the
 *       timers it returns). For the ASCII ids the API admits, byte order of the id equals
 *       {@link String#compareTo} order, hence the listing order of {@code TimerCursor}.</li>
 *   <li>{@code firings}: {@code seq} as 8 big-endian bytes → {@code Codec.encodeFiring}.</li>
 *   <li>{@code meta}: {@code "lastSeq"} → 8 big-endian bytes; {@code "pausedTopic:"} + topic as UTF-8 → empty, one
 *       key per paused topic (a prefix scan lists them); {@code "webhookSecret"} → the secret's text as UTF-8;
 *       {@code "timerCount"} → 8 big-endian bytes, the number of records in {@code timers} (written with every
 *       group that changes it; counted once at open when a database from before it lacks it); {@code "topicCount:"} +
 *       topic as UTF-8 → 8 big-endian bytes, the records in {@code timers} of that topic (a key only while it has
 *       one), and {@code "pausedCount"} → 8 big-endian bytes, the paused ones (both written with every group that
 *       changes them, counted once at open when a database from before them lacks {@code "pausedCount"}).</li>
 * </ul>
 */
final class Keys {

  static final byte[] LAST_SEQ = "lastSeq".getBytes(StandardCharsets.US_ASCII);
  /** The {@code meta} key of the number of stored timers. */
  static final byte[] TIMER_COUNT = "timerCount".getBytes(StandardCharsets.US_ASCII);
  /**
   * The {@code meta} key of the number of paused stored timers; its presence also says the per-topic counts
   * ({@link #topicCount}) are kept (both are counted once at open when a database from before them lacks it).
   */
  static final byte[] PAUSED_COUNT = "pausedCount".getBytes(StandardCharsets.US_ASCII);
  /** The prefix of the {@code meta} keys of the per-topic counts of stored timers. */
  static final byte[] TOPIC_COUNT = "topicCount:".getBytes(StandardCharsets.US_ASCII);
  /** The {@code meta} key of the webhook secret (its text as UTF-8). */
  static final byte[] WEBHOOK_SECRET = "webhookSecret".getBytes(StandardCharsets.US_ASCII);
  /** The prefix of the {@code meta} keys of paused topics. */
  static final byte[] PAUSED_TOPIC = "pausedTopic:".getBytes(StandardCharsets.US_ASCII);

  private Keys() {}

  static byte[] id(String id) {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] due(long dueAt, String id) {
    return due(dueAt, id(id));
  }

  static byte[] due(long dueAt, byte[] id) {
    byte[] k = new byte[8 + id.length];
    putLong(k, 0, dueAt ^ Long.MIN_VALUE);
    System.arraycopy(id, 0, k, 8, id.length);
    return k;
  }

  static long dueAtOf(byte[] dueKey) {
    return getLong(dueKey, 0) ^ Long.MIN_VALUE;
  }

  static String idOfDue(byte[] dueKey) {
    return new String(dueKey, 8, dueKey.length - 8, StandardCharsets.UTF_8);
  }

  /** The {@code meta} key saying {@code topic} is paused. */
  static byte[] pausedTopic(String topic) {
    byte[] t = topic.getBytes(StandardCharsets.UTF_8);
    byte[] k = new byte[PAUSED_TOPIC.length + t.length];
    System.arraycopy(PAUSED_TOPIC, 0, k, 0, PAUSED_TOPIC.length);
    System.arraycopy(t, 0, k, PAUSED_TOPIC.length, t.length);
    return k;
  }

  /** The {@code meta} key of the number of stored timers of {@code topic}. */
  static byte[] topicCount(String topic) {
    byte[] t = topic.getBytes(StandardCharsets.UTF_8);
    byte[] k = new byte[TOPIC_COUNT.length + t.length];
    System.arraycopy(TOPIC_COUNT, 0, k, 0, TOPIC_COUNT.length);
    System.arraycopy(t, 0, k, TOPIC_COUNT.length, t.length);
    return k;
  }

  /** Whether {@code key} is a per-topic count key of the {@code meta} family. */
  static boolean isTopicCount(byte[] key) {
    return key.length > TOPIC_COUNT.length
        && java.util.Arrays.equals(key, 0, TOPIC_COUNT.length, TOPIC_COUNT, 0, TOPIC_COUNT.length);
  }

  /** The topic of a per-topic count key. */
  static String topicOfCount(byte[] key) {
    return new String(key, TOPIC_COUNT.length, key.length - TOPIC_COUNT.length, StandardCharsets.UTF_8);
  }

  /** Whether {@code key} is a paused-topic key of the {@code meta} family. */
  static boolean isPausedTopic(byte[] key) {
    return key.length >= PAUSED_TOPIC.length
        && java.util.Arrays.equals(key, 0, PAUSED_TOPIC.length, PAUSED_TOPIC, 0, PAUSED_TOPIC.length);
  }

  /** The topic of a paused-topic key. */
  static String topicOfPaused(byte[] key) {
    return new String(key, PAUSED_TOPIC.length, key.length - PAUSED_TOPIC.length, StandardCharsets.UTF_8);
  }

  /** Delivery records in the {@code meta} family: {@code "dlv:" + u64(seq)}. */
  static final byte[] DELIVERY = "dlv:".getBytes(StandardCharsets.US_ASCII);
  /**
   * The state index of deliveries: {@code "dlvs:" + state ordinal + u64(seq)} → the delivery's {@code updatedAt} as 8
   * big-endian bytes ({@link #indexedUpdatedAt}; empty in databases written before it, read as unknown).
   */
  static final byte[] DELIVERY_STATE = "dlvs:".getBytes(StandardCharsets.US_ASCII);
  /** Per-state delivery counts: {@code "dlvn:" + state ordinal}, u64 values. */
  static final byte[] DELIVERY_COUNT = "dlvn:".getBytes(StandardCharsets.US_ASCII);

  static byte[] delivery(long seq) {
    byte[] k = new byte[DELIVERY.length + 8];
    System.arraycopy(DELIVERY, 0, k, 0, DELIVERY.length);
    putLong(k, DELIVERY.length, seq);
    return k;
  }

  static boolean isDelivery(byte[] key) {
    return key.length == DELIVERY.length + 8 && java.util.Arrays.equals(key, 0, DELIVERY.length, DELIVERY, 0,
        DELIVERY.length);
  }

  static byte[] deliveryState(int state, long seq) {
    byte[] k = new byte[DELIVERY_STATE.length + 9];
    System.arraycopy(DELIVERY_STATE, 0, k, 0, DELIVERY_STATE.length);
    k[DELIVERY_STATE.length] = (byte) state;
    putLong(k, DELIVERY_STATE.length + 1, seq);
    return k;
  }

  static boolean isDeliveryState(byte[] key, int state) {
    return key.length == DELIVERY_STATE.length + 9 && key[DELIVERY_STATE.length] == (byte) state
        && java.util.Arrays.equals(key, 0, DELIVERY_STATE.length, DELIVERY_STATE, 0, DELIVERY_STATE.length);
  }

  static long seqOfDeliveryState(byte[] key) {
    return getLong(key, DELIVERY_STATE.length + 1);
  }

  /** The value of a delivery's state index entry: its {@code updatedAt}. */
  static byte[] deliveryStateValue(long updatedAt) {
    return u64(updatedAt);
  }

  /** The {@code updatedAt} a state index entry's value holds, or {@link Long#MIN_VALUE} for an older, empty one. */
  static long indexedUpdatedAt(byte[] value) {
    return value != null && value.length == 8 ? getLong(value, 0) : Long.MIN_VALUE;
  }

  static byte[] deliveryCount(int state) {
    byte[] k = new byte[DELIVERY_COUNT.length + 1];
    System.arraycopy(DELIVERY_COUNT, 0, k, 0, DELIVERY_COUNT.length);
    k[DELIVERY_COUNT.length] = (byte) state;
    return k;
  }

  static byte[] seq(long seq) {
    return u64(seq);
  }

  static long seqOf(byte[] key) {
    return getLong(key, 0);
  }

  static byte[] u64(long v) {
    byte[] b = new byte[8];
    putLong(b, 0, v);
    return b;
  }

  static long getLong(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xff);
    }
    return v;
  }

  private static void putLong(byte[] b, int off, long v) {
    for (int i = 7; i >= 0; i--) {
      b[off + i] = (byte) v;
      v >>>= 8;
    }
  }
}
