package io.tickwheel.store.rocksdb;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
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
 *
 * <h2>Versions</h2>
 * Both versions are written today and both are read, so data directories of earlier releases keep working and a
 * plain timer costs what it always did:
 * <ul>
 *   <li>Timer version 1: a timer without {@link Timer#extras()}. Version 2: the version 1 body, then the extras:
 *       a flags byte ({@link #HAS_CRON}, {@link #PAUSED}, {@link #HAS_END}, {@link #HAS_JITTER}), then only the
 *       fields the flags announce: the cron expression, zone id, gap and overlap policies as configured (wire names,
 *       {@code auto} included) as strings; {@code endAt}; {@code jitterMs} and {@code nominalAt}; the callback
 *       ({@link #HAS_CALLBACK}): its URL as a string, {@code timeoutMs} and {@code maxAttempts} as ints, and with
 *       {@link #HAS_BACKOFF} {@code minBackoffMs} and {@code maxBackoffMs} as longs. Records written before callbacks
 *       existed have neither flag and read as before. Version 3: version 2 with a callback; the version differs
 *       only so that a release that knows version 2 alone refuses such a record instead of dropping the callback
 *       (it would ignore the flags it does not know).</li>
 *   <li>Firing version 1: a firing whose nominal time is its due time (decoded with {@code nominalAt = dueAt}).
 *       Version 2: the version 1 body, then {@code nominalAt}.</li>
 * </ul>
 */
final class Codec {

  private static final byte TIMER_V1 = 1;
  private static final byte TIMER_V2 = 2;
  private static final byte TIMER_V3 = 3;
  private static final byte FIRING_V1 = 1;
  private static final byte FIRING_V2 = 2;
  /** Extras flags (timer version 2). */
  static final int HAS_CRON = 1;
  static final int PAUSED = 2;
  static final int HAS_END = 4;
  static final int HAS_JITTER = 8;
  static final int HAS_CALLBACK = 16;
  static final int HAS_BACKOFF = 32;
  private static final Kind[] KINDS = Kind.values();
  private static final Misfire[] MISFIRES = Misfire.values();

  /** Most calendars whose encoded strings {@link #calendarBytes} keeps. */
  static final int MAX_CALENDAR_BYTES = 10_000;
  /** A calendar's four strings in UTF-8, per calendar (timers of one expression share it: re-arms encode nothing). */
  private static final java.util.concurrent.ConcurrentHashMap<ZonedCron, byte[][]> CALENDAR_BYTES =
      new java.util.concurrent.ConcurrentHashMap<>();

  private Codec() {}

  /** {@code c}'s expression, zone id, gap and overlap wire names in UTF-8 (shared arrays: never written to). */
  static byte[][] calendarBytes(ZonedCron c) {
    byte[][] known = CALENDAR_BYTES.get(c);
    if (known != null) {
      return known;
    }
    byte[][] made = {utf8(c.expression()), utf8(c.zone().getId()), utf8(c.gap().wireName()),
        utf8(c.overlap().wireName())};
    if (CALENDAR_BYTES.size() < MAX_CALENDAR_BYTES) {
      CALENDAR_BYTES.putIfAbsent(c, made);
    }
    return made;
  }

  /** Encodes a timer, payload and extras included (version 1 without extras, 3 with a callback, else 2). */
  static byte[] encodeTimer(Timer t) {
    byte[] id = utf8(t.id());
    byte[] topic = utf8(t.topic());
    byte[] payload = t.payload() == null ? null : utf8(t.payload());
    Timer.Extras x = t.extras();
    int flags = 0;
    byte[][] cron = null;
    byte[] url = null;
    int extraLen = 0;
    if (x != null) {
      extraLen = 1;
      ZonedCron c = x.cron();
      if (c != null) {
        flags |= HAS_CRON;
        cron = calendarBytes(c);
        for (byte[] s : cron) {
          extraLen += 4 + s.length;
        }
      }
      if (x.paused()) {
        flags |= PAUSED;
      }
      if (x.endAt() != Timer.NO_END) {
        flags |= HAS_END;
        extraLen += 8;
      }
      if (x.jitterMs() > 0) {
        flags |= HAS_JITTER;
        extraLen += 16;
      }
      Callback cb = x.callback();
      if (cb != null) {
        flags |= HAS_CALLBACK;
        url = utf8(cb.url());
        extraLen += 4 + url.length + 8;
        if (cb.hasBackoff()) {
          flags |= HAS_BACKOFF;
          extraLen += 16;
        }
      }
    }
    ByteBuffer b = ByteBuffer.allocate(1 + 1 + 1 + 8 * 7 + 4 + id.length + 4 + topic.length + 4
        + (payload == null ? 0 : payload.length) + extraLen);
    byte version = x == null ? TIMER_V1 : x.callback() == null ? TIMER_V2 : TIMER_V3;
    b.put(version).put((byte) t.kind().ordinal()).put((byte) t.misfire().ordinal());
    b.putLong(t.delayMs()).putLong(t.periodMs()).putLong(t.maxFirings()).putLong(t.createdAt())
        .putLong(t.nextDueAt()).putLong(t.firings()).putLong(t.generation());
    putBytes(b, id);
    putBytes(b, topic);
    putBytes(b, payload);
    if (x != null) {
      b.put((byte) flags);
      if (cron != null) {
        for (byte[] s : cron) {
          putBytes(b, s);
        }
      }
      if ((flags & HAS_END) != 0) {
        b.putLong(x.endAt());
      }
      if ((flags & HAS_JITTER) != 0) {
        b.putLong(x.jitterMs()).putLong(x.nominalAt());
      }
      if (url != null) {
        Callback cb = x.callback();
        putBytes(b, url);
        b.putInt(cb.timeoutMs()).putInt(cb.maxAttempts());
        if ((flags & HAS_BACKOFF) != 0) {
          b.putLong(cb.minBackoffMs()).putLong(cb.maxBackoffMs());
        }
      }
    }
    return b.array();
  }

  /** Decodes what {@link #encodeTimer} wrote, in either version. */
  static Timer decodeTimer(byte[] bytes) {
    ByteBuffer b = timerRecord(bytes);
    Kind kind = KINDS[b.get()];
    Misfire misfire = MISFIRES[b.get()];
    long delay = b.getLong();
    long period = b.getLong();
    long max = b.getLong();
    long created = b.getLong();
    Head h = readHead(b, bytes);
    Timer.Extras extras = bytes[0] != TIMER_V1 ? decodeExtras(b) : null;
    return new Timer(h.id(), h.topic(), kind, delay, period, max, misfire, h.payload(), created, h.nextDueAt(),
        h.firings(), h.generation(), extras);
  }

  /**
   * The fields of a stored timer that recording its firing needs: what the condition compares, what the firing and
   * the re-armed record copy, and the due-index key to remove. Decoded without the rest of the record (a cron
   * timer's calendar, its callback): reading those back for every firing was most of what a cron firing cost the
   * writer beyond a once firing.
   */
  record Head(String id, String topic, String payload, long nextDueAt, long firings, long generation, boolean paused,
      byte[] stored) {
    /** The head of a timer this write group holds as an object (no stored bytes). */
    static Head of(Timer t) {
      return new Head(t.id(), t.topic(), t.payload(), t.nextDueAt(), t.firings(), t.generation(), t.paused(), null);
    }
  }

  /** Byte offsets of the fields a firing changes, the same in every timer version. */
  private static final int DUE_AT = 3 + 4 * 8;
  private static final int FIRINGS_AT = DUE_AT + 8;
  private static final int GENERATION_AT = FIRINGS_AT + 8;
  private static final int STRINGS_AT = GENERATION_AT + 8;

  /**
   * The record of {@code next}, a firing's re-armed state of the timer stored as {@code stored}, made by copying
   * {@code stored} and writing the three fields a firing changes (due time, firing count and, with jitter, the
   * nominal time) instead of encoding every string again; or {@code null} when {@code stored} is not simply
   * {@code next} one firing earlier (another kind, generation, pause state or jitter: encode it instead).
   * A periodic timer's record is written back on every firing, so this is most of what re-arming it costs the writer.
   */
  static byte[] rearmed(byte[] stored, Timer next) {
    byte v = stored[0];
    if (!isTimerVersion(v) || stored[1] != next.kind().ordinal()
        || getLong(stored, GENERATION_AT) != next.generation()) {
      return null;
    }
    Timer.Extras x = next.extras();
    int nominalAt = -1;
    if (v == TIMER_V1) {
      if (x != null && !x.equals(Timer.Extras.NONE)) {
        return null;
      }
    } else {
      int at = STRINGS_AT;
      for (int k = 0; k < 3; k++) {          // id, topic, payload
        at = skipString(stored, at);
      }
      int flags = stored[at++];
      if (x == null || ((flags & PAUSED) != 0) != x.paused() || ((flags & HAS_JITTER) != 0) != (x.jitterMs() > 0)) {
        return null;
      }
      if ((flags & HAS_JITTER) != 0) {
        if ((flags & HAS_CRON) != 0) {
          for (int k = 0; k < 4; k++) {
            at = skipString(stored, at);
          }
        }
        if ((flags & HAS_END) != 0) {
          at += 8;
        }
        if (getLong(stored, at) != x.jitterMs()) {
          return null;
        }
        nominalAt = at + 8;
      }
    }
    byte[] out = stored.clone();
    putLong(out, DUE_AT, next.nextDueAt());
    putLong(out, FIRINGS_AT, next.firings());
    if (nominalAt >= 0) {
      putLong(out, nominalAt, x.nominalAt());
    }
    return out;
  }

  private static boolean isTimerVersion(byte v) {
    return v == TIMER_V1 || v == TIMER_V2 || v == TIMER_V3;
  }

  /** A timer record to read, past its version byte; refuses a version this release does not know. */
  private static ByteBuffer timerRecord(byte[] bytes) {
    if (!isTimerVersion(bytes[0])) {
      throw new IllegalArgumentException("unknown timer record version " + bytes[0]);
    }
    return ByteBuffer.wrap(bytes).position(1);
  }

  private static int skipString(byte[] b, int at) {
    int len = (int) readBigEndian(b, at, 4);
    return at + 4 + Math.max(len, 0);
  }

  private static long getLong(byte[] b, int at) {
    return readBigEndian(b, at, 8);
  }

  private static long readBigEndian(byte[] b, int at, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (b[at + i] & 0xff);
    }
    return n == 4 ? (int) v : v;
  }

  private static void putLong(byte[] b, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      b[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  /** The {@link Head} of what {@link #encodeTimer} wrote, in any version. */
  static Head decodeHead(byte[] bytes) {
    ByteBuffer b = timerRecord(bytes);
    b.position(b.position() + 2 + 4 * 8);      // kind, misfire; delay, period, max, created
    return readHead(b, bytes);
  }

  /** Reads the head fields, from the due time on (where {@code b} is), of the record {@code bytes}. */
  private static Head readHead(ByteBuffer b, byte[] bytes) {
    long due = b.getLong();
    long firings = b.getLong();
    long gen = b.getLong();
    String id = getString(b);
    String topic = Topics.canonical(getString(b));
    String payload = getString(b);
    boolean paused = bytes[0] != TIMER_V1 && b.hasRemaining() && (bytes[b.position()] & PAUSED) != 0;
    return new Head(id, topic, payload, due, firings, gen, paused, bytes);
  }

  private static Timer.Extras decodeExtras(ByteBuffer b) {
    int flags = b.get();
    ZonedCron cron = null;
    if ((flags & HAS_CRON) != 0) {
      String expr = getString(b);
      String zone = getString(b);
      String gap = getString(b);
      String overlap = getString(b);
      cron = ZonedCron.stored(expr, zone, wire(DstGap.fromWire(gap), "dstGap", gap),
          wire(DstOverlap.fromWire(overlap), "dstOverlap", overlap));
    }
    long endAt = (flags & HAS_END) != 0 ? b.getLong() : Timer.NO_END;
    long jitter = 0;
    long nominal = 0;
    if ((flags & HAS_JITTER) != 0) {
      jitter = b.getLong();
      nominal = b.getLong();
    }
    Callback callback = null;
    if ((flags & HAS_CALLBACK) != 0) {
      String url = getString(b);
      int timeout = b.getInt();
      int attempts = b.getInt();
      long min = Callback.NO_BACKOFF;
      long max = Callback.NO_BACKOFF;
      if ((flags & HAS_BACKOFF) != 0) {
        min = b.getLong();
        max = b.getLong();
      }
      callback = new Callback(url, timeout, attempts, min, max);
    }
    return new Timer.Extras(cron, endAt, jitter, (flags & PAUSED) != 0, nominal, callback);
  }

  private static <T> T wire(T value, String field, String name) {
    if (value == null) {
      throw new IllegalArgumentException("unknown " + field + " \"" + name + "\" in a timer record");
    }
    return value;
  }

  /** Encodes a firing, seq and payload included (version 1 when its nominal time is its due time, else 2). */
  static byte[] encodeFiring(Firing f) {
    byte[] id = utf8(f.id());
    byte[] topic = utf8(f.topic());
    byte[] payload = f.payload() == null ? null : utf8(f.payload());
    boolean nominal = f.nominalAt() != f.dueAt();
    ByteBuffer b = ByteBuffer.allocate(1 + 8 * 4 + 4 + id.length + 4 + topic.length + 4
        + (payload == null ? 0 : payload.length) + (nominal ? 8 : 0));
    b.put(nominal ? FIRING_V2 : FIRING_V1).putLong(f.seq()).putLong(f.firing()).putLong(f.dueAt())
        .putLong(f.firedAt());
    putBytes(b, id);
    putBytes(b, topic);
    putBytes(b, payload);
    if (nominal) {
      b.putLong(f.nominalAt());
    }
    return b.array();
  }

  /** Decodes what {@link #encodeFiring} wrote, in either version. */
  static Firing decodeFiring(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    byte v = b.get();
    if (v != FIRING_V1 && v != FIRING_V2) {
      throw new IllegalArgumentException("unknown firing record version " + v);
    }
    long seq = b.getLong();
    long n = b.getLong();
    long due = b.getLong();
    long fired = b.getLong();
    String id = getString(b);
    String topic = getString(b);
    String payload = getString(b);
    return new Firing(seq, id, topic, n, due, fired, payload, v == FIRING_V2 ? b.getLong() : due);
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
