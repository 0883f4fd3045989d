package io.tickwheel.store.rocksdb;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The RocksDB store's compact binary encoding of {@link Timer} and {@link Firing} (a version byte, fixed-width
 * numbers, length-prefixed UTF-8 strings). Decoding a record written by a newer, unknown version throws
 * {@link IllegalArgumentException}. Thread safe (stateless).
 */
final class Codec {

  private static final byte TIMER_V1 = 1;
  private static final byte FIRING_V1 = 1;
  private static final Kind[] KINDS = Kind.values();
  private static final Misfire[] MISFIRES = Misfire.values();

  private Codec() {}

  /** Encodes a timer, payload included. */
  static byte[] encodeTimer(Timer t) {
    byte[] id = utf8(t.id());
    byte[] topic = utf8(t.topic());
    byte[] payload = t.payload() == null ? null : utf8(t.payload());
    ByteBuffer b = ByteBuffer.allocate(1 + 1 + 1 + 8 * 7 + 4 + id.length + 4 + topic.length + 4
        + (payload == null ? 0 : payload.length));
    b.put(TIMER_V1).put((byte) t.kind().ordinal()).put((byte) t.misfire().ordinal());
    b.putLong(t.delayMs()).putLong(t.periodMs()).putLong(t.maxFirings()).putLong(t.createdAt())
        .putLong(t.nextDueAt()).putLong(t.firings()).putLong(t.generation());
    putBytes(b, id);
    putBytes(b, topic);
    putBytes(b, payload);
    return b.array();
  }

  /** Decodes what {@link #encodeTimer} wrote. */
  static Timer decodeTimer(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    byte v = b.get();
    if (v != TIMER_V1) {
      throw new IllegalArgumentException("unknown timer record version " + v);
    }
    Kind kind = KINDS[b.get()];
    Misfire misfire = MISFIRES[b.get()];
    long delay = b.getLong();
    long period = b.getLong();
    long max = b.getLong();
    long created = b.getLong();
    long due = b.getLong();
    long firings = b.getLong();
    long gen = b.getLong();
    String id = getString(b);
    String topic = Topics.canonical(getString(b));
    String payload = getString(b);
    return new Timer(id, topic, kind, delay, period, max, misfire, payload, created, due, firings, gen);
  }

  /** Encodes a firing, seq and payload included. */
  static byte[] encodeFiring(Firing f) {
    byte[] id = utf8(f.id());
    byte[] topic = utf8(f.topic());
    byte[] payload = f.payload() == null ? null : utf8(f.payload());
    ByteBuffer b = ByteBuffer.allocate(1 + 8 * 4 + 4 + id.length + 4 + topic.length + 4
        + (payload == null ? 0 : payload.length));
    b.put(FIRING_V1).putLong(f.seq()).putLong(f.firing()).putLong(f.dueAt()).putLong(f.firedAt());
    putBytes(b, id);
    putBytes(b, topic);
    putBytes(b, payload);
    return b.array();
  }

  /** Decodes what {@link #encodeFiring} wrote. */
  static Firing decodeFiring(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    byte v = b.get();
    if (v != FIRING_V1) {
      throw new IllegalArgumentException("unknown firing record version " + v);
    }
    long seq = b.getLong();
    long n = b.getLong();
    long due = b.getLong();
    long fired = b.getLong();
    String id = getString(b);
    String topic = getString(b);
    String payload = getString(b);
    return new Firing(seq, id, topic, n, due, fired, payload);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void putBytes(ByteBuffer b, byte[] bytes) {
    if (bytes == null) {
      b.putInt(-1);
    } else {
      b.putInt(bytes.length).put(bytes);
    }
  }

  private static String getString(ByteBuffer b) {
    int len = b.getInt();
    if (len < 0) {
      return null;
    }
    String s = new String(b.array(), b.arrayOffset() + b.position(), len, StandardCharsets.UTF_8);
    b.position(b.position() + len);
    return s;
  }
}
