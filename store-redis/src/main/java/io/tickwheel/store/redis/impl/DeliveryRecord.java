package io.tickwheel.store.redis.impl;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.store.FiringRequest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The Redis value of a delivery: its JSON ({@link DeliveryJson}), or, as {@code fire.lua} first stores it with its
 * firing, the fresh form {@code "N\n" + template + "\n" + topic + "\n" + payload segment}, where the template is
 * the pending delivery without what only the script knows (seq, topic, payload). Stateless.
 */
final class DeliveryRecord {

  private DeliveryRecord() {
  }

  /**
   * The storage form of the pending delivery of {@code q}'s firing, without what only the script knows (seq, topic,
   * payload): fire.lua stores it as {@code "N\n" + template + "\n" + topic + "\n" + payload segment}.
   */
  static String template(FiringRequest q) {
    Firing f = new Firing(1, q.id(), "-", q.firingsBefore() + 1, q.dueAt(), q.firedAt(), null, q.nominalAt());
    return new String(DeliveryJson.encode(Delivery.pending(f, q.callback())), StandardCharsets.UTF_8);
  }

  /** A stored delivery: the storage form, or fire.lua's fresh form (see {@link #template}). */
  static Delivery decode(long seq, byte[] raw) {
    if (raw.length < 2 || raw[0] != 'N' || raw[1] != '\n') {
      return DeliveryJson.decode(raw);
    }
    int a = indexOf(raw, 2);
    int b = indexOf(raw, a + 1);
    if (a < 0 || b < 0) {
      throw new IllegalArgumentException("delivery " + seq + ": a fresh record without its three parts");
    }
    Delivery t = DeliveryJson.decode(Arrays.copyOfRange(raw, 2, a));
    String topic = new String(raw, a + 1, b - a - 1, StandardCharsets.UTF_8);
    Firing tf = t.firing();
    Firing f = new Firing(seq, tf.id(), topic, tf.firing(), tf.dueAt(), tf.firedAt(),
        TimerRecord.payloadOf(raw, b + 1), tf.nominalAt());
    return Delivery.pending(f, t.callback());
  }

  private static int indexOf(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
