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
 * The RocksDB store's compact binary encoding of {@link Timer} and {@link Firing} (a version byte, then the fields).
 * Decoding a record written by a newer, unknown version throws {@link IllegalArgumentException}. Thread safe
 * (stateless).
 *
 * <h2>Versions</h2>
 * Timers are written in version 4 and firings in version 3; every version is read, so data directories of earlier releases keep working
 * (a record is rewritten in version 4 when its timer next changes). A release before version 4 refuses a data
 * directory this one wrote to (it names the unknown version).
 * <ul>
 *   <li>Timer version 4: the version, kind and misfire bytes (the misfire byte's top bit set when the extras
 *       follow), {@code nextDueAt} as 8 big-endian bytes (so that a re-arm writes it in place), then as zigzag
 *       base-128 varints {@code firings}, {@code generation}, {@code delayMs}, {@code periodMs}, {@code maxFirings},
 *       {@code createdAt}; the topic (a varint length, then UTF-8); the payload (a varint of its length + 1, 0 for
 *       none, then UTF-8); then the extras as in version 2 (flags, and only the fields they announce) with every number
 *       a zigzag varint and every string varint-length-prefixed. The id is not repeated: it is the record's key.
 *       A plain timer with a short payload takes about 40 bytes instead of version 1's ~110, which is what RocksDB's
 *       memtables, WAL, flushes and compactions handle per timer.</li>
 *   <li>Timer version 1: a timer without {@link Timer#extras()}: kind and misfire bytes, seven 8-byte numbers,
 *       then id, topic and payload with 4-byte lengths. Version 2: the version 1 body, then the extras:
 *       a flags byte ({@link #HAS_CRON}, {@link #PAUSED}, {@link #HAS_END}, {@link #HAS_JITTER}), then only the
 *       fields the flags announce: the cron expression, zone id, gap and overlap policies as configured (wire names,
 *       {@code auto} included) as strings; {@code endAt}; {@code jitterMs} and {@code nominalAt}; the callback
 *       ({@link #HAS_CALLBACK}): its URL as a string, {@code timeoutMs} and {@code maxAttempts} as ints, and with
 *       {@link #HAS_BACKOFF} {@code minBackoffMs} and {@code maxBackoffMs} as longs. Version 3: version 2 with a
 *       callback.</li>
 *   <li>Firing version 3 ({@link #encodeFiring}): varints, the seq left to the key. Version 1: the seq, firing
 *       count, {@code dueAt} and {@code firedAt} as 8-byte numbers, then id, topic and payload with 4-byte lengths, for
 *       a firing whose nominal time is its due time (decoded with {@code nominalAt = dueAt}). Version 2: the version
 *       1 body, then {@code nominalAt}.</li>
 * </ul>
 */
final class Codec {

  private static final byte TIMER_V1 = 1;
  private static final byte TIMER_V2 = 2;
  private static final byte TIMER_V3 = 3;
  private static final byte TIMER_V4 = 4;
  private static final byte FIRING_V1 = 1;
  private static final byte FIRING_V2 = 2;
  private static final byte FIRING_V3 = 3;
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

  /** Encodes a timer, payload and extras included, in version 4 (the id is the record's key, not in it). */
  static byte[] encodeTimer(Timer t) {
    byte[] topic = utf8(t.topic());
    byte[] payload = t.payload() == null ? null : utf8(t.payload());
    Timer.Extras x = t.extras();
    byte[][] cron = x != null && x.cron() != null ? calendarBytes(x.cron()) : null;
    byte[] url = x != null && x.callback() != null ? utf8(x.callback().url()) : null;
    int size = V4_HEAD + varLongSize(t.firings()) + varLongSize(t.generation()) + varLongSize(t.delayMs())
        + varLongSize(t.periodMs()) + varLongSize(t.maxFirings()) + varLongSize(t.createdAt())
        + varIntSize(topic.length) + topic.length
        + nullableSize(payload);
    if (x != null) {
      size += 1;
      if (cron != null) {
        for (byte[] c : cron) {
          size += varIntSize(c.length) + c.length;
        }
      }
      if (x.endAt() != Timer.NO_END) {
        size += varLongSize(x.endAt());
      }
      if (x.jitterMs() > 0) {
        size += varLongSize(x.jitterMs()) + varLongSize(x.nominalAt());
      }
      if (url != null) {
        Callback cb = x.callback();
        size += varIntSize(url.length) + url.length + varLongSize(cb.timeoutMs()) + varLongSize(cb.maxAttempts());
        if (cb.hasBackoff()) {
          size += varLongSize(cb.minBackoffMs()) + varLongSize(cb.maxBackoffMs());
        }
      }
    }
    byte[] out = new byte[size];
    out[0] = TIMER_V4;
    out[1] = (byte) t.kind().ordinal();
    out[2] = (byte) (t.misfire().ordinal() | (x != null ? V4_EXTRAS : 0));
    putLong(out, V4_DUE_AT, t.nextDueAt());
    int at = putVarLong(out, V4_HEAD, t.firings());
    at = putVarLong(out, at, t.generation());
    at = putVarLong(out, at, t.delayMs());
    at = putVarLong(out, at, t.periodMs());
    at = putVarLong(out, at, t.maxFirings());
    at = putVarLong(out, at, t.createdAt());
    at = putVarBytes(out, at, topic);
    at = putNullableBytes(out, at, payload);
    if (x != null) {
      int flags = (cron != null ? HAS_CRON : 0) | (x.paused() ? PAUSED : 0) | (x.endAt() != Timer.NO_END ? HAS_END : 0)
          | (x.jitterMs() > 0 ? HAS_JITTER : 0) | (url != null ? HAS_CALLBACK : 0)
          | (url != null && x.callback().hasBackoff() ? HAS_BACKOFF : 0);
      out[at++] = (byte) flags;
      if (cron != null) {
        for (byte[] c : cron) {
          at = putVarBytes(out, at, c);
        }
      }
      if ((flags & HAS_END) != 0) {
        at = putVarLong(out, at, x.endAt());
      }
      if ((flags & HAS_JITTER) != 0) {
        at = putVarLong(out, at, x.jitterMs());
        at = putVarLong(out, at, x.nominalAt());
      }
      if (url != null) {
        Callback cb = x.callback();
        at = putVarBytes(out, at, url);
        at = putVarLong(out, at, cb.timeoutMs());
        at = putVarLong(out, at, cb.maxAttempts());
        if ((flags & HAS_BACKOFF) != 0) {
          at = putVarLong(out, at, cb.minBackoffMs());
          at = putVarLong(out, at, cb.maxBackoffMs());
        }
      }
    }
    assert at == size;
    return out;
  }

  /**
   * Decodes what {@link #encodeTimer} wrote, in any version.
   *
   * @param key   the record's key in {@code timers} (the id as UTF-8; version 4 records do not repeat it)
   * @param bytes the record
   */
  static Timer decodeTimer(byte[] key, byte[] bytes) {
    return decodeTimer(bytes[0] == TIMER_V4 ? new String(key, StandardCharsets.UTF_8) : null, bytes);
  }

  /**
   * Decodes what {@link #encodeTimer} wrote, in any version.
   *
   * @param id    the record's id (its key); records before version 4 hold it themselves, and theirs is returned
   * @param bytes the record
   */
  static Timer decodeTimer(String id, byte[] bytes) {
    if (bytes[0] == TIMER_V4) {
      Reader r = new Reader(bytes, V4_HEAD);
      V4Fields f = V4Fields.read(r, bytes);
      Timer.Extras extras = (bytes[2] & V4_EXTRAS) != 0 ? r.extras() : null;
      return new Timer(id, f.topic, KINDS[bytes[1]], f.delay, f.period, f.max, MISFIRES[bytes[2] & ~V4_EXTRAS & 0xFF],
          f.payload, f.created, f.due, f.firings, f.generation, extras);
    }
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

  /** Byte offsets of the fields a firing changes in versions 1 to 3. */
  private static final int DUE_AT = 3 + 4 * 8;
  private static final int FIRINGS_AT = DUE_AT + 8;
  private static final int GENERATION_AT = FIRINGS_AT + 8;
  /** Version 4: the due time's offset (fixed width, so that a re-arm writes it in place) and the variable part's. */
  private static final int V4_DUE_AT = 3;
  private static final int V4_HEAD = V4_DUE_AT + 8;
  /** Version 4: the bit of the misfire byte that says the extras follow the payload. */
  private static final int V4_EXTRAS = 0x80;
  private static final int MAX_VARLONG = 10;

  /**
   * The record of {@code next}, a firing's re-armed state of the timer stored as {@code stored}, made by copying
   * {@code stored} with the two fields a firing changes (due time and firing count) written anew instead of encoding
   * every string again; or {@code null} when {@code stored} is not simply {@code next} one firing earlier (another
   * kind, generation, pause state), when a jitter changes its nominal time too, or when it is a record of a version
   * before 4 (encode it instead, in version 4). A periodic timer's record is written back on every firing, so this
   * is most of what re-arming it costs the writer.
   */
  static byte[] rearmed(byte[] stored, Timer next) {
    if (stored[0] != TIMER_V4 || stored[1] != next.kind().ordinal()) {
      return null;
    }
    Reader r = new Reader(stored, V4_HEAD);
    r.varLong();                                  // firings
    int afterFirings = r.at;
    if (r.varLong() != next.generation()) {
      return null;
    }
    Timer.Extras x = next.extras();
    if ((stored[2] & V4_EXTRAS) == 0) {
      if (x != null && !x.equals(Timer.Extras.NONE)) {
        return null;
      }
    } else {
      for (int k = 0; k < 4; k++) {               // delay, period, max, created
        r.varLong();
      }
      r.skipString();                             // topic
      r.skipNullableString();                     // payload
      int flags = stored[r.at];
      if (x == null || ((flags & PAUSED) != 0) != x.paused() || (flags & HAS_JITTER) != 0 || x.jitterMs() > 0) {
        return null;
      }
    }
    byte[] firings = new byte[MAX_VARLONG];
    int n = putVarLong(firings, 0, next.firings());
    byte[] out = new byte[V4_HEAD + n + stored.length - afterFirings];
    System.arraycopy(stored, 0, out, 0, V4_DUE_AT);
    putLong(out, V4_DUE_AT, next.nextDueAt());
    System.arraycopy(firings, 0, out, V4_HEAD, n);
    System.arraycopy(stored, afterFirings, out, V4_HEAD + n, stored.length - afterFirings);
    return out;
  }

  private static boolean isTimerVersion(byte v) {
    return v == TIMER_V1 || v == TIMER_V2 || v == TIMER_V3;
  }

  /** A timer record before version 4 to read, past its version byte; refuses a version this release does not know. */
  private static ByteBuffer timerRecord(byte[] bytes) {
    if (!isTimerVersion(bytes[0])) {
      throw new IllegalArgumentException("unknown timer record version " + bytes[0]);
    }
    return ByteBuffer.wrap(bytes).position(1);
  }

  private static long getLong(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[at + i] & 0xff);
    }
    return v;
  }

  private static void putLong(byte[] b, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      b[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  /** Writes {@code v} zigzag-encoded as a base-128 varint (1 byte for -64..63, 6 for an epoch time in ms). */
  private static int putVarLong(byte[] b, int at, long v) {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      b[at++] = (byte) ((z & 0x7F) | 0x80);
      z >>>= 7;
    }
    b[at++] = (byte) z;
    return at;
  }

  /** The bytes {@link #putVarLong} writes for {@code v}. */
  private static int varLongSize(long v) {
    long z = (v << 1) ^ (v >> 63);
    return (63 - Long.numberOfLeadingZeros(z | 1)) / 7 + 1;
  }

  /** The bytes {@link #putVarInt} writes for {@code v} (not negative). */
  private static int varIntSize(int v) {
    return (31 - Integer.numberOfLeadingZeros(v | 1)) / 7 + 1;
  }

  /** Writes {@code v} (not negative) as a base-128 varint. */
  private static int putVarInt(byte[] b, int at, int v) {
    while ((v & ~0x7F) != 0) {
      b[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[at++] = (byte) v;
    return at;
  }

  /** Writes {@code s} (or {@code null}) as a varint of its length + 1 (0 for {@code null}), then its bytes. */
  private static int putNullableBytes(byte[] b, int at, byte[] s) {
    if (s == null) {
      return putVarInt(b, at, 0);
    }
    at = putVarInt(b, at, s.length + 1);
    System.arraycopy(s, 0, b, at, s.length);
    return at + s.length;
  }

  /** The bytes {@link #putNullableBytes} writes for {@code s}. */
  private static int nullableSize(byte[] s) {
    return s == null ? 1 : varIntSize(s.length + 1) + s.length;
  }

  private static int putVarBytes(byte[] b, int at, byte[] s) {
    at = putVarInt(b, at, s.length);
    System.arraycopy(s, 0, b, at, s.length);
    return at + s.length;
  }

  /** A version 4 record's fields before its extras, read by the full decode and the head decode alike. */
  private record V4Fields(long due, long firings, long generation, long delay, long period, long max, long created,
      String topic, String payload) {
    /** Reads them with {@code r} (at {@link #V4_HEAD}), leaving it at the extras. */
    static V4Fields read(Reader r, byte[] bytes) {
      return new V4Fields(getLong(bytes, V4_DUE_AT), r.varLong(), r.varLong(), r.varLong(), r.varLong(), r.varLong(),
          r.varLong(), Topics.canonical(r.string()), r.nullableString());
    }
  }

  /** Reads a version 4 record from an offset on; a record cut short throws {@link IllegalArgumentException}. */
  private static final class Reader {
    private final byte[] b;
    int at;

    Reader(byte[] b, int at) {
      if (b.length < at) {
        throw new IllegalArgumentException("record cut short: " + b.length + " bytes");
      }
      this.b = b;
      this.at = at;
    }

    private byte next() {
      if (at >= b.length) {
        throw new IllegalArgumentException("record cut short at byte " + at + " of " + b.length);
      }
      return b[at++];
    }

    long varLong() {
      long z = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte x = next();
        z |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          return (z >>> 1) ^ -(z & 1);
        }
      }
      throw new IllegalArgumentException("record has an overlong number at byte " + at);
    }

    int varInt() {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        byte x = next();
        v |= (x & 0x7F) << shift;
        if (x >= 0) {
          if (v < 0) {
            break;
          }
          return v;
        }
      }
      throw new IllegalArgumentException("record has a bad length at byte " + at);
    }

    private String string(int len) {
      if (len > b.length - at) {
        throw new IllegalArgumentException("record cut short: a string of " + len + " bytes at byte " + at);
      }
      String s = new String(b, at, len, StandardCharsets.UTF_8);
      at += len;
      return s;
    }

    String string() {
      return string(varInt());
    }

    /** A string written with its length + 1, 0 for {@code null}. */
    String nullableString() {
      int n = varInt();
      return n == 0 ? null : string(n - 1);
    }

    void skipString() {
      int n = varInt();
      at += n;
    }

    void skipNullableString() {
      int n = varInt();
      at += Math.max(n - 1, 0);
    }

    Timer.Extras extras() {
      int flags = next();
      ZonedCron cron = null;
      if ((flags & HAS_CRON) != 0) {
        cron = calendar(string(), string(), string(), string());
      }
      long endAt = (flags & HAS_END) != 0 ? varLong() : Timer.NO_END;
      long jitter = 0;
      long nominal = 0;
      if ((flags & HAS_JITTER) != 0) {
        jitter = varLong();
        nominal = varLong();
      }
      Callback callback = null;
      if ((flags & HAS_CALLBACK) != 0) {
        String url = string();
        int timeout = (int) varLong();
        int attempts = (int) varLong();
        long min = Callback.NO_BACKOFF;
        long max = Callback.NO_BACKOFF;
        if ((flags & HAS_BACKOFF) != 0) {
          min = varLong();
          max = varLong();
        }
        callback = new Callback(url, timeout, attempts, min, max);
      }
      return new Timer.Extras(cron, endAt, jitter, (flags & PAUSED) != 0, nominal, callback);
    }
  }

  /**
   * The {@link Head} of what {@link #encodeTimer} wrote, in any version.
   *
   * @param id the record's id (its key); records before version 4 hold it themselves, and theirs is returned
   */
  static Head decodeHead(String id, byte[] bytes) {
    if (bytes[0] == TIMER_V4) {
      Reader r = new Reader(bytes, V4_HEAD);
      V4Fields f = V4Fields.read(r, bytes);
      boolean paused = (bytes[2] & V4_EXTRAS) != 0 && (r.next() & PAUSED) != 0;
      return new Head(id, f.topic, f.payload, f.due, f.firings, f.generation, paused, bytes);
    }
    ByteBuffer b = timerRecord(bytes);
    b.position(b.position() + 2 + 4 * 8);      // kind, misfire; delay, period, max, created
    return readHead(b, bytes);
  }

  /** {@link #decodeHead(String, byte[])} with the id as the record's key. */
  static Head decodeHead(byte[] key, byte[] bytes) {
    return decodeHead(bytes[0] == TIMER_V4 ? new String(key, StandardCharsets.UTF_8) : null, bytes);
  }

  /** Reads the head fields, from the due time on (where {@code b} is), of the record {@code bytes} (versions 1-3). */
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
      cron = calendar(getString(b), getString(b), getString(b), getString(b));
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

  private static ZonedCron calendar(String expr, String zone, String gap, String overlap) {
    return ZonedCron.stored(expr, zone, wire(DstGap.fromWire(gap), "dstGap", gap),
        wire(DstOverlap.fromWire(overlap), "dstOverlap", overlap));
  }

  private static <T> T wire(T value, String field, String name) {
    if (value == null) {
      throw new IllegalArgumentException("unknown " + field + " \"" + name + "\" in a timer record");
    }
    return value;
  }

  /**
   * Encodes a firing in version 3 (its seq is the record's key, not in it): the version byte, then as zigzag varints
   * the firing count, {@code dueAt}, {@code firedAt - dueAt} and {@code nominalAt - dueAt}; then id, topic and payload
   * as in a version 4 timer record.
   */
  static byte[] encodeFiring(Firing f) {
    byte[] id = utf8(f.id());
    byte[] topic = utf8(f.topic());
    byte[] payload = f.payload() == null ? null : utf8(f.payload());
    int size = 1 + varLongSize(f.firing()) + varLongSize(f.dueAt()) + varLongSize(f.firedAt() - f.dueAt())
        + varLongSize(f.nominalAt() - f.dueAt()) + varIntSize(id.length) + id.length + varIntSize(topic.length)
        + topic.length + nullableSize(payload);
    byte[] out = new byte[size];
    out[0] = FIRING_V3;
    int at = putVarLong(out, 1, f.firing());
    at = putVarLong(out, at, f.dueAt());
    at = putVarLong(out, at, f.firedAt() - f.dueAt());
    at = putVarLong(out, at, f.nominalAt() - f.dueAt());
    at = putVarBytes(out, at, id);
    at = putVarBytes(out, at, topic);
    at = putNullableBytes(out, at, payload);
    assert at == size;
    return out;
  }

  /**
   * Decodes what {@link #encodeFiring} wrote, in any version.
   *
   * @param key   the record's key in {@code firings} (its seq; records before version 3 hold it themselves)
   * @param bytes the record
   */
  static Firing decodeFiring(byte[] key, byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == FIRING_V3) {
      Reader r = new Reader(bytes, 1);
      long n = r.varLong();
      long due = r.varLong();
      long fired = due + r.varLong();
      long nominal = due + r.varLong();
      String id = r.string();
      String topic = r.string();
      String payload = r.nullableString();
      return new Firing(Keys.seqOf(key), id, topic, n, due, fired, payload, nominal);
    }
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

  /** The {@code firedAt} of a firing record, in any version, without decoding its strings. */
  static long firedAtOf(byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == FIRING_V3) {
      Reader r = new Reader(bytes, 1);
      r.varLong();
      long due = r.varLong();
      return due + r.varLong();
    }
    if (bytes.length < 33 || (bytes[0] != FIRING_V1 && bytes[0] != FIRING_V2)) {
      throw new IllegalArgumentException("unknown firing record version " + (bytes.length > 0 ? bytes[0] : -1));
    }
    return getLong(bytes, 25);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
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
