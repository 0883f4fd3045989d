package io.tickwheel.core.wheel;

import java.util.Arrays;

/**
 * Variable-length byte records in pages of {@value #PAGE_BYTES} bytes: where a {@link TimerWheel} keeps each pending
 * timer's key (and its value, when a {@link ValueCodec} encodes it). A record is a whole number of 8-byte units, at
 * most one page, and never spans pages; its address is an {@code int}: page index times {@value #PAGE_UNITS} plus
 * the unit within the page (so up to 2^31 units, 16 GiB).
 *
 * <p>Released records go to a free list per size (in units), threaded through their first four bytes, and are
 * reused first by records of the same size; a fresh record is cut from the end of the last page. Pages are never
 * returned, so the arena's size is its peak use by size class. The pages are primitive arrays: the garbage
 * collector neither traces nor barriers them.
 *
 * <p>Not thread safe. Package-private.
 */
final class RecordArena {

  /** Bytes per unit. */
  static final int UNIT = 8;
  static final int PAGE_BYTES = 1 << 15;
  /** Units per page. */
  static final int PAGE_UNITS = PAGE_BYTES / UNIT;
  private static final int UNIT_BITS = Integer.numberOfTrailingZeros(PAGE_UNITS);
  private static final int MAX_PAGES = 1 << (31 - UNIT_BITS);
  private static final int NIL = -1;

  private byte[][] pages = new byte[4][];
  private int pageCount;
  /** Next free unit of the last page. */
  private int fill = PAGE_UNITS;
  /**
   * Per size in units, the first free record of that size, or {@link #NIL}; as long as the largest size released so
   * far needs (sizes beyond it have none): an arena that never released a record holds no list.
   */
  private int[] free = new int[0];

  /** Units a record of {@code bytes} bytes takes. */
  static int units(int bytes) {
    return (bytes + UNIT - 1) / UNIT;
  }

  /**
   * A record of {@code units} units ({@code 1..PAGE_UNITS}), contents unspecified.
   *
   * @throws IllegalStateException when the arena holds 2^31 units already
   */
  int allocate(int units) {
    int addr = units < free.length ? free[units] : NIL;
    if (addr != NIL) {
      free[units] = readInt(page(addr), offset(addr));
      return addr;
    }
    if (fill + units > PAGE_UNITS) {
      if (pageCount == MAX_PAGES) {
        throw new IllegalStateException("too many pending timers: the key arena is full");
      }
      if (pageCount == pages.length) {
        pages = Arrays.copyOf(pages, (int) Math.min(MAX_PAGES, pageCount * 2L));
      }
      pages[pageCount++] = new byte[PAGE_BYTES];
      fill = 0;
    }
    addr = ((pageCount - 1) << UNIT_BITS) | fill;
    fill += units;
    return addr;
  }

  /** Gives record {@code addr} of {@code units} units back. */
  void release(int addr, int units) {
    if (units >= free.length) {
      int old = free.length;
      free = Arrays.copyOf(free, Math.min(PAGE_UNITS + 1, Math.max(units + 1, 2 * old)));
      Arrays.fill(free, old, free.length, NIL);
    }
    writeInt(page(addr), offset(addr), free[units]);
    free[units] = addr;
  }

  /** The page that holds record {@code addr}. */
  byte[] page(int addr) {
    return pages[addr >>> UNIT_BITS];
  }

  /** The offset of record {@code addr} in its {@link #page}. */
  static int offset(int addr) {
    return (addr & (PAGE_UNITS - 1)) * UNIT;
  }

  /** Bytes of pages allocated (for footprint reports). */
  long allocatedBytes() {
    return (long) pageCount * PAGE_BYTES;
  }

  private static int readInt(byte[] b, int i) {
    return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
  }

  private static void writeInt(byte[] b, int i, int v) {
    b[i] = (byte) (v >>> 24);
    b[i + 1] = (byte) (v >>> 16);
    b[i + 2] = (byte) (v >>> 8);
    b[i + 3] = (byte) v;
  }
}
