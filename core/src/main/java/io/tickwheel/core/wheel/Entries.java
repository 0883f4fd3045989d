package io.tickwheel.core.wheel;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The pending timers of a {@link TimerWheel}, stored by entry id in pages of parallel primitive arrays: three longs
 * (due time, tick, the two links of its slot list) and the address of a record in a {@link RecordArena} that holds
 * the key's characters and, when the wheel's {@link ValueCodec} encodes it, the value's bytes; a value kept by
 * reference sits in a page of references allocated only when one is kept. Released ids are reused through a free
 * list threaded through the links, so steady schedule/cancel churn allocates nothing, and linking or unlinking writes
 * only primitives (no garbage-collector write barriers, unlike a list of objects).
 *
 * <p>A record: its size in units (2 bytes), a header {@code length << 2 | wide << 1 | encoded} (a varint), the key
 * (one byte per character when all are below 256, else two), then the encoded value. 28 bytes per id plus the
 * record (plus 4 bytes per id of a page that holds a reference); the pages grow one at a time (no copying) and never
 * shrink. Not thread safe. Package-private.
 */
final class Entries {

  /** The null link. */
  static final int NIL = -1;
  /** Longest key, in characters (a record fits one arena page). */
  static final int MAX_KEY_LENGTH = 8_000;

  private static final int PAGE_BITS = 10;
  private static final int PAGE = 1 << PAGE_BITS;
  private static final int IN_PAGE = PAGE - 1;
  private static final int STRIDE = 3;
  private static final int DUE = 0;
  private static final int TICK = 1;
  private static final int LINKS = 2;
  private static final long LOW = 0xFFFF_FFFFL;
  private static final int MAX_IDS = Integer.MAX_VALUE - PAGE;

  private final RecordArena arena = new RecordArena();
  private final ValueCodec<Object> codec;
  private long[][] meta;
  private int[][] addrs;
  private Object[][] refs;
  private int capacity;
  /** Ids at or above it have never been handed out. */
  private int top;
  private int free = NIL;

  /** @param initial ids to allocate up front, {@code >= 0} */
  Entries(int initial) {
    this(initial, null);
  }

  /**
   * @param initial ids to allocate up front, {@code >= 0}
   * @param codec   encodes the values into the records, or {@code null} to keep every value by reference
   */
  @SuppressWarnings("unchecked")
  Entries(int initial, ValueCodec<?> codec) {
    this.codec = (ValueCodec<Object>) codec;
    int pages = Math.max(1, (initial + IN_PAGE) >>> PAGE_BITS);
    meta = new long[pages][];
    addrs = new int[pages][];
    refs = new Object[pages][];
    while (capacity < initial) {
      addPage();
    }
  }

  /** Number of ids the arrays hold (for footprint reports). */
  int capacity() {
    return capacity;
  }

  /**
   * A fresh id holding {@code key}, {@code value} and {@code dueAtMs}; its tick and links are unset.
   *
   * @throws IllegalArgumentException if {@code key} is longer than {@link #MAX_KEY_LENGTH}
   */
  int allocate(String key, Object value, long dueAtMs) {
    int len = key.length();
    if (len > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("key must have at most " + MAX_KEY_LENGTH + " characters, had " + len);
    }
    int id = free;
    if (id != NIL) {
      free = next(id);
    } else {
      if (top == capacity) {
        addPage();
      }
      id = top++;
    }
    meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + DUE] = dueAtMs;
    boolean wide = !latin1(key);
    int keyBytes = wide ? 2 * len : len;
    int valueBytes = encodedLength(value, dueAtMs, 2 + varintSize(len << 2) + keyBytes);
    int size = 2 + varintSize(len << 2) + keyBytes + Math.max(0, valueBytes);
    int units = RecordArena.units(size);
    int addr = arena.allocate(units);
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr);
    p[at] = (byte) (units >>> 8);
    p[at + 1] = (byte) units;
    at = writeVarint(p, at + 2, len << 2 | (wide ? 2 : 0) | (valueBytes >= 0 ? 1 : 0));
    if (wide) {
      for (int i = 0; i < len; i++) {
        char c = key.charAt(i);
        p[at++] = (byte) (c >>> 8);
        p[at++] = (byte) c;
      }
    } else {
      for (int i = 0; i < len; i++) {
        p[at++] = (byte) key.charAt(i);
      }
    }
    addrs[id >>> PAGE_BITS][id & IN_PAGE] = addr;
    if (valueBytes >= 0) {
      codec.encode(value, dueAtMs, p, at);
    } else {
      setRef(id, value);
    }
    return id;
  }

  /** Returns {@code id} (unlinked) to the free list and drops its key and value. */
  void release(int id) {
    int addr = addrs[id >>> PAGE_BITS][id & IN_PAGE];
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr);
    arena.release(addr, (p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF));
    setRef(id, null);
    meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + LINKS] = free & LOW;
    free = id;
  }

  /** Whether the key of {@code id} is {@code key}. */
  boolean keyEquals(int id, String key) {
    int addr = addrs[id >>> PAGE_BITS][id & IN_PAGE];
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr) + 2;
    int h = readVarint(p, at);
    int len = h >>> 2;
    if (len != key.length()) {
      return false;
    }
    at += varintSize(h);
    if ((h & 2) == 0) {
      for (int i = 0; i < len; i++) {
        if ((p[at + i] & 0xFF) != key.charAt(i)) {
          return false;
        }
      }
    } else {
      for (int i = 0; i < len; i++, at += 2) {
        if ((char) ((p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF)) != key.charAt(i)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The key of {@code id}, a new string. */
  String keyAt(int id) {
    int addr = addrs[id >>> PAGE_BITS][id & IN_PAGE];
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr) + 2;
    int h = readVarint(p, at);
    int len = h >>> 2;
    at += varintSize(h);
    if ((h & 2) == 0) {
      return new String(p, at, len, StandardCharsets.ISO_8859_1);
    }
    char[] c = new char[len];
    for (int i = 0; i < len; i++, at += 2) {
      c[i] = (char) ((p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF));
    }
    return new String(c);
  }

  /** The value of {@code id}, whose key is {@code key}: the one kept, or a fresh decoded copy. */
  Object valueAt(int id, String key) {
    int addr = addrs[id >>> PAGE_BITS][id & IN_PAGE];
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr) + 2;
    int h = readVarint(p, at);
    if ((h & 1) == 0) {
      Object[] page = refs[id >>> PAGE_BITS];
      return page == null ? null : page[id & IN_PAGE];
    }
    at += varintSize(h) + ((h & 2) == 0 ? h >>> 2 : h >>> 1 & ~1);
    return codec.decode(key, due(id), p, at);
  }

  /**
   * Sets the value of {@code id} (kept by reference, or encoded for due time {@code dueAtMs}, which must be its due
   * time from now on); the record moves when its size changes.
   */
  void setValue(int id, Object value, long dueAtMs) {
    int addr = addrs[id >>> PAGE_BITS][id & IN_PAGE];
    byte[] p = arena.page(addr);
    int at = RecordArena.offset(addr);
    int units = (p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF);
    int h = readVarint(p, at + 2);
    int keyEnd = 2 + varintSize(h) + ((h & 2) == 0 ? h >>> 2 : h >>> 1 & ~1);
    int valueBytes = encodedLength(value, dueAtMs, keyEnd);
    int wanted = RecordArena.units(keyEnd + Math.max(0, valueBytes));
    int flag = valueBytes >= 0 ? 1 : 0;
    if (wanted != units) {
      int moved = arena.allocate(wanted);
      byte[] q = arena.page(moved);
      int to = RecordArena.offset(moved);
      System.arraycopy(p, at, q, to, keyEnd);
      q[to] = (byte) (wanted >>> 8);
      q[to + 1] = (byte) wanted;
      arena.release(addr, units);
      addrs[id >>> PAGE_BITS][id & IN_PAGE] = moved;
      p = q;
      at = to;
    }
    if ((h & 1) != flag) {
      writeVarint(p, at + 2, (h & ~1) | flag);   // same size: the flag is the lowest bit of the first byte
    }
    if (valueBytes >= 0) {
      setRef(id, null);
      codec.encode(value, dueAtMs, p, at + keyEnd);
    } else {
      setRef(id, value);
    }
  }

  /** Whether {@code id}'s value is kept by reference and is {@code value} (a re-arm that changes nothing). */
  boolean holdsReference(int id, Object value) {
    if (codec != null) {
      return false;
    }
    Object[] page = refs[id >>> PAGE_BITS];
    return (page == null ? null : page[id & IN_PAGE]) == value;
  }

  long due(int id) {
    return meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + DUE];
  }

  void setDue(int id, long dueAtMs) {
    meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + DUE] = dueAtMs;
  }

  long tick(int id) {
    return meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + TICK];
  }

  void setTick(int id, long tick) {
    meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + TICK] = tick;
  }

  int prev(int id) {
    return (int) (meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + LINKS] >>> 32);
  }

  int next(int id) {
    return (int) meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + LINKS];
  }

  void setLinks(int id, int prev, int next) {
    meta[id >>> PAGE_BITS][(id & IN_PAGE) * STRIDE + LINKS] = ((long) prev << 32) | (next & LOW);
  }

  void setPrev(int id, int prev) {
    long[] m = meta[id >>> PAGE_BITS];
    int i = (id & IN_PAGE) * STRIDE + LINKS;
    m[i] = ((long) prev << 32) | (m[i] & LOW);
  }

  void setNext(int id, int next) {
    long[] m = meta[id >>> PAGE_BITS];
    int i = (id & IN_PAGE) * STRIDE + LINKS;
    m[i] = (m[i] & ~LOW) | (next & LOW);
  }

  /** Bytes of arena pages allocated (for footprint reports). */
  long recordBytes() {
    return arena.allocatedBytes();
  }

  // ---------------------------------------------------------------------------------------------------------

  /** The codec's length for {@code value}, or -1 (by reference) when there is none or it does not fit a page. */
  private int encodedLength(Object value, long dueAtMs, int keyEnd) {
    if (codec == null) {
      return -1;
    }
    int n = codec.encodedLength(value, dueAtMs);
    return n < 0 || n > RecordArena.PAGE_BYTES - keyEnd ? -1 : n;
  }

  private void setRef(int id, Object value) {
    Object[] page = refs[id >>> PAGE_BITS];
    if (page == null) {
      if (value == null) {
        return;
      }
      page = refs[id >>> PAGE_BITS] = new Object[PAGE];
    }
    page[id & IN_PAGE] = value;
  }

  private void addPage() {
    if (capacity >= MAX_IDS) {
      throw new IllegalStateException("too many pending timers: " + capacity);
    }
    int page = capacity >>> PAGE_BITS;
    if (page == meta.length) {
      int grown = Math.max(1, page * 2);
      meta = Arrays.copyOf(meta, grown);
      addrs = Arrays.copyOf(addrs, grown);
      refs = Arrays.copyOf(refs, grown);
    }
    meta[page] = new long[PAGE * STRIDE];
    addrs[page] = new int[PAGE];
    capacity += PAGE;
  }

  private static boolean latin1(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) {
        return false;
      }
    }
    return true;
  }

  private static int varintSize(int v) {
    return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x20_0000 ? 3 : 4;
  }

  private static int writeVarint(byte[] b, int at, int v) {
    while (v >= 0x80) {
      b[at++] = (byte) (v | 0x80);
      v >>>= 7;
    }
    b[at++] = (byte) v;
    return at;
  }

  private static int readVarint(byte[] b, int at) {
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      byte x = b[at++];
      v |= (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
  }
}
