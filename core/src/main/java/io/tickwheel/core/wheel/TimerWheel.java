package io.tickwheel.core.wheel;

import java.util.Arrays;
import java.util.Objects;

/**
 * A hierarchical timing wheel keyed by string (Varghese &amp; Lauck; in the spirit of Kafka's
 * {@code TimingWheel} and the Linux timer wheel).
 *
 * <p><b>Not thread safe.</b> One owner thread creates, mutates and advances a wheel; every other
 * thread routes its requests to that owner (in tickwheel: the verticle's event loop).
 *
 * <p><b>Time.</b> The wheel never reads a clock: the owner passes the current time (epoch
 * milliseconds) to {@link #advance}. All times are epoch milliseconds. Time is cut into ticks of
 * {@link #tickMs()}; tick {@code n} spans {@code [n * tickMs, (n + 1) * tickMs)}, and a timer due at {@code dueAt}
 * is filed under the tick that holds it, {@code floor(dueAt / tickMs)}.
 *
 * <p><b>What the tick means.</b> The tick is the wheel's bookkeeping granularity, not its firing precision: it sets
 * how timers are grouped into slots (and so how often they are cascaded and how many share a slot), while
 * {@link #advance} hands out exactly the timers with {@code dueAt <= now}, to the millisecond, whatever the tick. A
 * timer therefore fires as precisely as its owner calls {@code advance}: a driver that sleeps until
 * {@link #nextExpiryAtMs()} and then advances to the time it woke hands every timer out at its due millisecond plus
 * the driver's own wake-up lateness. When {@code now} falls inside a tick, the timers of that tick not yet due are
 * put in a small binary heap ordered by due time, once per tick, so later calls inside the same tick hand out the
 * next due ones without scanning the rest.
 *
 * <p><b>Contract.</b>
 * <ul>
 *   <li>A timer is handed out only by an {@code advance(now, …)} with {@code now >= dueAt}: never early.</li>
 *   <li>The first {@code advance} with {@code now >= dueAt} hands it out (unless the {@code limit} of that call was
 *       exhausted: then it is handed out by the next calls): never later than that call.</li>
 *   <li>Timers are handed out in tick order across ticks. <b>Within one tick</b> the order is not specified: a tick
 *       an advance passes as a whole comes out in the order in which the timers were filed under it (FIFO by
 *       {@link #schedule} call among timers that were not postponed lazily, see below); once an advance's
 *       {@code now} falls inside a tick, the rest of that tick comes out earliest due time first (ties in any
 *       order). Do not rely on any order within a tick.</li>
 *   <li>Keys are unique: {@link #schedule} of a pending key replaces its due time and value; the old due time
 *       never fires.</li>
 *   <li>A due time in the past (at or before {@link #currentTimeMs()}) is accepted and fires at the next
 *       {@code advance}: it is filed under its own tick, or under the cursor's tick if that one is later (see
 *       {@link #cursor}). Scheduled from inside an {@link ExpiryHandler}, it is handed out by the same
 *       {@code advance} (within its {@code limit}); a handler that always re-schedules into the past therefore keeps
 *       that call busy until its {@code limit}.</li>
 *   <li>Time going backwards is harmless: {@code advance(now, …)} with {@code now} below the time already reached
 *       hands out exactly the timers due at or before that {@code now} (usually none) and moves nothing back.</li>
 * </ul>
 *
 * <p><b>Lazy postponement.</b> Re-arming a pending timer (a {@link #schedule} of a pending key) to a due time at or
 * after its current one only stores the new due time and value: the timer stays in its slot (the classic trick of
 * Linux's {@code mod_timer} and of keep-alive timers). When that slot comes round (it is cascaded from a higher
 * level, or the cursor reaches it at level 0) the wheel sees that the due time is past the slot's tick and files
 * the timer under the tick of its due time instead of handing it out. A heartbeat that is always postponed thus
 * costs a key lookup and one write per touch, and is moved about once per expiry of its old slot instead of once
 * per touch. A re-arm to an earlier due time, and a re-arm of a timer in the heap of the current tick, moves the
 * timer at once, so a re-armed timer is never late and every lower bound the wheel keeps stays a lower bound.
 * {@link #size()}, {@link #dueAt}, {@link #get} and {@link #contains} are exact at all times; for what the
 * introspection methods say about postponed timers see {@link #occupancy}, {@link #cursor}, {@link #earliestDueAt}
 * and {@link #nextExpiryAtMs}.
 *
 * <p><b>Structure and costs.</b> Level {@code L} has {@code 2^slotBits} slots of
 * {@code tickMs << (L * slotBits)} ms each. A timer lives at the lowest level whose slot tells its due tick apart
 * from the wheel's cursor tick (the highest {@code slotBits}-digit in which they differ), so each level only
 * holds timers ahead of the cursor in its current rotation, and a timer is moved down ("cascaded") at most once
 * per level. Levels are added on demand up to the whole {@code long} range of ticks (11 levels of 64 slots);
 * the horizon is thus unlimited (about 292 million years at 1 ms): no clamping, no re-cascading loops, and
 * due times up to {@link Long#MAX_VALUE} do not overflow. A postponed timer is re-filed once when its old slot
 * comes round (to a later tick, so at most once per lazy re-arm) and then cascades like any other. Each level
 * keeps a 64-bit occupancy bitmap, so {@link #advance} jumps straight over empty ticks and empty levels:
 * advancing over an idle stretch of any length costs a few steps per level, not one per tick. Schedule, cancel
 * and reschedule are O(1) expected (open-addressing key index plus intrusive slot lists), except for a timer in the
 * heap of the current tick, where they are O(log n) in the timers of that tick; a lazy re-arm is one lookup and
 * one write, and its re-filing is paid later by {@link #advance}, at most once per re-arm. Timers are
 * stored in pages of parallel primitive arrays indexed by an entry id, linked by int ids, with a free list of ids;
 * each key's characters (at most {@value #MAX_KEY_LENGTH}) are copied into a record in pages of bytes, with the value's
 * bytes when a {@link ValueCodec} encodes it, else the value is kept by reference. Schedule/cancel churn allocates
 * nothing once the pages have grown; {@link #advance} allocates the key string it hands out (and the decoded value).
 * A pending timer costs about 45 to 60 bytes plus its key's length (rounded up to 8 bytes with the encoded value),
 * plus a reference to its value when it is kept by reference: no per-timer object at all with a codec.
 *
 * @param <V> a value attached to each timer and handed back on expiry
 */
public final class TimerWheel<V> {

  /** Returned by {@link #dueAt} and {@link #earliestDueAt} when there is no such timer. */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  /** Default tick, milliseconds. */
  public static final long DEFAULT_TICK_MS = 10;

  /** Default number of bits of tick per level: 64 slots per level. */
  public static final int DEFAULT_SLOT_BITS_PER_LEVEL = 6;

  /** Longest key, in characters. */
  public static final int MAX_KEY_LENGTH = Entries.MAX_KEY_LENGTH;

  /** Largest {@code slotBitsPerLevel}: one 64-bit occupancy word per level. */
  public static final int MAX_SLOT_BITS_PER_LEVEL = 6;

  private final long tickMs;
  /** {@code Long.MAX_VALUE / tickMs} and {@code Long.MIN_VALUE / tickMs}: the ticks whose start saturates. */
  private final long maxStartTick;
  private final long minStartTick;
  /** {@code floorDiv(startMs, tickMs)}: the absolute tick that relative tick 0 stands for. */
  private final long originTick;
  private final int slotBits;
  private final int slotMask;
  private final int maxLevels;
  /** Level of a bit position of a relative tick: {@code bit / slotBits}. */
  private final byte[] levelOfBit = new byte[64];

  /**
   * Slot lists of entry ids, flat: index {@code level << slotBits | slot}; {@link Entries#NIL} when empty. As long as
   * the levels used so far need ({@link #room}): an empty wheel holds level 0 only.
   */
  private int[] heads;
  private int[] tails;
  private int[] counts;
  /** Per level, bit {@code s} set iff slot {@code s} is non-empty. */
  private final long[] occupied;
  /** Bit {@code L} set iff {@code occupied[L] != 0}. */
  private long occupiedLevels;
  private int levels = 1;

  private final Entries entries;
  private final KeyIndex index;

  /**
   * The cursor, a tick relative to {@link #originTick}: every tick before it has been handed out completely;
   * its slot (level 0) holds the timers due at or before it. Never decreases.
   */
  private long cursor;
  private long currentTimeMs;
  /**
   * Per level-0 slot, a lower bound of the due times of the timers in it ({@link #NO_DEADLINE} when empty): the
   * least due time linked there since it was last empty (a cancel or a lazy re-arm leaves it lower, never higher).
   */
  private final long[] minDue;
  /**
   * The timers of the cursor tick once an advance met one there that was not due yet ({@link #heapActive}): ordered
   * by due time from then on, until the cursor moves. Empty otherwise.
   */
  private final DueHeap heap;
  /** Whether the cursor slot's timers live in {@link #heap} (its list is then empty) rather than in its list. */
  private boolean heapActive;
  private boolean advancing;
  /** Number of cursor moves; package-private for tests that check idle stretches are skipped. */
  long cursorMoves;
  /** Number of timer moves from a level to a lower one. */
  long cascaded;
  /** Number of re-arms that left the timer in its slot (lazy postponements). */
  long postponed;
  /** Number of postponed timers filed under their new tick when their old slot came round. */
  long refiled;

  /**
   * A wheel of 64 slots per level that makes room for 16 timers before growing its arrays.
   *
   * @param tickMs  the resolution, milliseconds, {@code >= 1}
   * @param startMs the wheel's initial time, epoch milliseconds
   * @throws IllegalArgumentException if {@code tickMs < 1}
   */
  public TimerWheel(long tickMs, long startMs) {
    this(tickMs, startMs, DEFAULT_SLOT_BITS_PER_LEVEL, 16);
  }

  /**
   * @param tickMs           the resolution, milliseconds, {@code >= 1}
   * @param startMs          the wheel's initial time, epoch milliseconds
   * @param slotBitsPerLevel log2 of the number of slots per level, 1 to {@value #MAX_SLOT_BITS_PER_LEVEL}
   * @param initialCapacity  how many timers the wheel holds before its arrays first grow, {@code >= 0}
   * @throws IllegalArgumentException if an argument is out of range (the message names it and its value)
   */
  public TimerWheel(long tickMs, long startMs, int slotBitsPerLevel, int initialCapacity) {
    this(tickMs, startMs, slotBitsPerLevel, initialCapacity, null);
  }

  /**
   * A wheel that keeps its values encoded by {@code codec} beside their keys (see {@link ValueCodec}): {@link #get}
   * and {@link #advance} then hand out fresh decoded copies rather than the objects scheduled.
   *
   * @param tickMs           the resolution, milliseconds, {@code >= 1}
   * @param startMs          the wheel's initial time, epoch milliseconds
   * @param slotBitsPerLevel log2 of the number of slots per level, 1 to {@value #MAX_SLOT_BITS_PER_LEVEL}
   * @param initialCapacity  how many timers the wheel holds before its arrays first grow, {@code >= 0}
   * @param codec            encodes the values, or {@code null} to keep every value by reference
   * @throws IllegalArgumentException if an argument is out of range (the message names it and its value)
   */
  public TimerWheel(long tickMs, long startMs, int slotBitsPerLevel, int initialCapacity, ValueCodec<V> codec) {
    if (tickMs < 1) {
      throw new IllegalArgumentException("tickMs must be >= 1, was " + tickMs);
    }
    if (slotBitsPerLevel < 1 || slotBitsPerLevel > MAX_SLOT_BITS_PER_LEVEL) {
      throw new IllegalArgumentException(
          "slotBitsPerLevel must be in [1, " + MAX_SLOT_BITS_PER_LEVEL + "], was " + slotBitsPerLevel);
    }
    if (initialCapacity < 0) {
      throw new IllegalArgumentException("initialCapacity must be >= 0, was " + initialCapacity);
    }
    this.tickMs = tickMs;
    this.maxStartTick = Long.MAX_VALUE / tickMs;
    this.minStartTick = Long.MIN_VALUE / tickMs;
    this.originTick = Math.floorDiv(startMs, tickMs);
    this.currentTimeMs = startMs;
    this.slotBits = slotBitsPerLevel;
    this.slotMask = (1 << slotBitsPerLevel) - 1;
    // Relative ticks of pending timers are in [0, Long.MAX_VALUE]: bits 0..62.
    this.maxLevels = 62 / slotBitsPerLevel + 1;
    for (int bit = 0; bit < 64; bit++) {
      levelOfBit[bit] = (byte) Math.min(bit / slotBitsPerLevel, maxLevels - 1);
    }
    int flat = 1 << slotBitsPerLevel;
    this.heads = new int[flat];
    this.tails = new int[flat];
    Arrays.fill(heads, Entries.NIL);
    Arrays.fill(tails, Entries.NIL);
    this.counts = new int[flat];
    this.occupied = new long[maxLevels];
    this.minDue = new long[1 << slotBitsPerLevel];
    Arrays.fill(minDue, NO_DEADLINE);
    this.entries = new Entries(initialCapacity, codec);
    this.index = new KeyIndex(initialCapacity);
    this.heap = new DueHeap(entries);
  }

  /** The tick, in milliseconds. */
  public long tickMs() {
    return tickMs;
  }

  /** log2 of the number of slots per level. */
  public int slotBitsPerLevel() {
    return slotBits;
  }

  /**
   * The time the wheel has been advanced to, epoch milliseconds: the largest {@code now} passed to
   * {@link #advance} (or the start time). Timers due at or before it may still be pending if a {@code limit}
   * stopped an advance.
   */
  public long currentTimeMs() {
    return currentTimeMs;
  }

  /**
   * Schedules {@code key} to expire at {@code dueAtMs}, replacing any pending timer with that key (its due time
   * and value; its place in the firing order of its tick as the class documentation says: a re-arm to a later
   * due time may be a lazy postponement). Any {@code long} due time is accepted: in the past means due now;
   * {@link Long#MAX_VALUE} means practically never. O(1) expected; a lazy postponement touches only the key
   * index and the timer's own entry.
   *
   * @param key     the timer's key, not null
   * @param dueAtMs the due time, epoch milliseconds
   * @param value   handed back on expiry; may be null
   * @return {@code true} if the key was not pending, {@code false} if a pending timer was replaced
   * @throws NullPointerException     if {@code key} is null
   * @throws IllegalArgumentException if {@code key} is longer than {@link #MAX_KEY_LENGTH}
   */
  public boolean schedule(String key, long dueAtMs, V value) {
    Objects.requireNonNull(key, "key");
    int hash = key.hashCode();
    int id = index.find(key, hash, entries);
    if (id != KeyIndex.NONE) {
      if (!entries.holdsReference(id, value)) {
        entries.setValue(id, value, dueAtMs);   // no reference store when it is the same: no GC barrier work
      }
      if (dueAtMs >= entries.due(id) && entries.prev(id) != DueHeap.IN_HEAP) {
        // Lazy postponement: the timer stays in its slot; the wheel files it under its new tick when that slot
        // comes round (see refile). A later due time keeps every lower bound (minDue, slot starts) valid. A timer
        // in the heap is ordered by its due time, so it moves.
        entries.setDue(id, dueAtMs);
        postponed++;
        return false;
      }
      unlink(id);
      entries.setDue(id, dueAtMs);
      file(id);
      return false;
    }
    id = entries.allocate(key, value, dueAtMs);
    index.add(hash, id);
    file(id);
    return true;
  }

  /**
   * Cancels the pending timer {@code key}; returns whether there was one. A cancelled timer is never handed out.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public boolean cancel(String key) {
    Objects.requireNonNull(key, "key");
    int hash = key.hashCode();
    int id = index.find(key, hash, entries);
    if (id == KeyIndex.NONE) {
      return false;
    }
    unlink(id);
    index.remove(hash, id);
    entries.release(id);
    return true;
  }

  /**
   * The value of pending timer {@code key}, or {@code null} (also when its value is null: see {@link #contains});
   * with a {@link ValueCodec}, a fresh decoded copy of an encoded value.
   *
   * @throws NullPointerException if {@code key} is null
   */
  @SuppressWarnings("unchecked")
  public V get(String key) {
    int id = find(key);
    return id == KeyIndex.NONE ? null : (V) entries.valueAt(id, key);
  }

  /**
   * Whether {@code key} is pending.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public boolean contains(String key) {
    return find(key) != KeyIndex.NONE;
  }

  /**
   * The due time of pending timer {@code key} as scheduled (not rounded), or {@link #NO_DEADLINE}.
   *
   * @throws NullPointerException if {@code key} is null
   */
  public long dueAt(String key) {
    int id = find(key);
    return id == KeyIndex.NONE ? NO_DEADLINE : entries.due(id);
  }

  /** Number of pending timers. */
  public int size() {
    return index.size();
  }

  /**
   * A lower bound of the earliest due time of any pending timer, or {@link #NO_DEADLINE} if none. O(levels).
   * The same value as {@link #nextExpiryAtMs()} (now that a timer is handed out at its due millisecond, the two
   * questions have one answer); see there for when it is exact.
   */
  public long earliestDueAt() {
    if (index.size() == 0) {
      return NO_DEADLINE;
    }
    return nextDueBound();
  }

  /**
   * The earliest {@code now} at which {@link #advance} may hand out a timer, or {@link #NO_DEADLINE} if none is
   * pending: the time a driver sleeps until. O(levels), allocates nothing. Never later than the earliest due time
   * of a pending timer, so a driver that wakes then is never late; capped at {@code Long.MAX_VALUE - 1} while a
   * timer is pending; at or before {@link #currentTimeMs()} when timers are due now.
   *
   * <p>Exact (the earliest due time itself) when the earliest timers are in the tick the wheel is in, or in a
   * tick of the cursor's level-0 rotation (the next {@code 2^slotBits} ticks) and none of that tick's timers was
   * cancelled or postponed since it was last empty. Otherwise earlier: the least due time that tick had (after a
   * cancel or a postponement there), or, when the earliest timers sit in a higher level, the start of their slot.
   * An advance to such a time hands out nothing but moves those timers down, re-files them or orders the tick,
   * and the next call tells a later, tighter time: at most one extra wake-up per level and per such tick.
   */
  public long nextExpiryAtMs() {
    if (index.size() == 0) {
      return NO_DEADLINE;
    }
    return nextDueBound();
  }

  /**
   * Advances the wheel to {@code nowMs} and hands every timer due at or before it to {@code handler},
   * at most {@code limit} of them; the rest stay due and are handed out by the next calls (with the same or a
   * later {@code now}), in order. Each timer is no longer pending when the handler gets it; the handler may
   * schedule and cancel any key, including the one it was given and keys due in the same tick. Work is
   * proportional to the timers handed out plus the timers cascaded plus the postponed timers re-filed, plus a few
   * steps per level, whatever the length of the stretch advanced over; when {@code nowMs} falls inside a tick
   * whose timers are not all due, plus ordering the rest of that tick into a heap (once per tick, O(n) to O(n log n)
   * in its timers) and O(log n) per timer handed out from it. Allocates nothing once the arrays have grown.
   *
   * <p><b>Re-filing and {@code limit}.</b> Postponed timers met in a slot that comes round are re-filed under
   * their due tick and do not count against {@code limit}, even when the limit is already reached, exactly like
   * cascading: {@code limit} counts timers handed out (so a return value below it still means "nothing more is
   * due"), and the cursor ends on the earliest tick that still has a due timer. This work is bounded: a re-filed
   * timer always goes to a tick after the slot it leaves, so it is re-filed at most once per lazy re-arm (the
   * re-arm paid for it in advance), and one call re-files at most the postponed timers in the slots it passes,
   * at most {@link #size()}, as one cascade moves at most the timers of one slot. The worst case, every pending
   * timer postponed out of one slot, costs one call about what a cascade of that slot costs.
   *
   * <p>If the handler throws, the timer it was given stays handed out (it is not pending any more), the
   * exception propagates and the wheel stays consistent; the next call continues.
   *
   * @param nowMs   the current time, epoch milliseconds; a value below {@link #currentTimeMs()} hands out only
   *                timers due at or before it and leaves {@link #currentTimeMs()} unchanged
   * @param handler receives each expired timer, in due-tick order
   * @param limit   the most timers to hand out, {@code >= 0}; 0 moves the wheel over empty ticks (and ticks that
   *                hold only postponed timers, which it re-files) only
   * @return how many timers were handed out
   * @throws NullPointerException     if {@code handler} is null
   * @throws IllegalArgumentException if {@code limit < 0}
   * @throws IllegalStateException    if called from inside an {@link ExpiryHandler} of this wheel
   */
  @SuppressWarnings("unchecked")
  public int advance(long nowMs, ExpiryHandler<V> handler, int limit) {
    Objects.requireNonNull(handler, "handler");
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
    if (advancing) {
      throw new IllegalStateException("advance called from inside an ExpiryHandler");
    }
    long target = relativeTick(Math.floorDiv(nowMs, tickMs));
    if (nowMs > currentTimeMs) {
      currentTimeMs = nowMs;
    }
    // A target before the cursor (time went back) still hands out what the cursor slot holds due by nowMs.
    advancing = true;
    try {
      int fired = 0;
      while (true) {
        int flat = (int) cursor & slotMask;
        int id = heads[flat];
        long dueAtMs;
        if (id != Entries.NIL) {
          dueAtMs = entries.due(id);
          if (isPostponed(entries.tick(id), dueAtMs)) {
            // Its tick is later than the cursor: not due, so not counted against the limit (see advance).
            unlink(id);
            refile(id);
            continue;
          }
          if (dueAtMs > nowMs) {
            // now falls inside the cursor tick (or went back): order what is left of it by due time, once.
            orderCursorSlot(flat);
            continue;
          }
        } else if (heap.size() != 0) {
          id = heap.top();
          dueAtMs = entries.due(id);
          if (dueAtMs > nowMs) {
            break;
          }
        } else if (cursor < target) {
          moveCursor(Math.min(nextEventTick(), target));
          continue;
        } else {
          break;
        }
        if (fired >= limit) {
          break;
        }
        String key = entries.keyAt(id);
        V value = (V) entries.valueAt(id, key);
        unlink(id);
        index.remove(key.hashCode(), id);
        entries.release(id);
        fired++;
        handler.onExpiry(key, dueAtMs, value);
      }
      return fired;
    } finally {
      advancing = false;
    }
  }

  /** Bytes of key and value records the wheel has allocated (they are reused, never returned). */
  long recordBytes() {
    return entries.recordBytes();
  }

  /** Number of levels in use so far (at least 1; grows as far timers are scheduled, never shrinks). */
  public int levels() {
    return levels;
  }

  /**
   * Number of slots of {@code level}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= level < levels()}
   */
  public int slots(int level) {
    checkLevel(level);
    return slotMask + 1;
  }

  /**
   * Milliseconds covered by one slot of {@code level}: {@code tickMs << (level * slotBitsPerLevel)}, saturated
   * at {@link Long#MAX_VALUE}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= level < levels()}
   */
  public long spanMs(int level) {
    checkLevel(level);
    int shift = level * slotBits;
    if (shift >= Long.numberOfLeadingZeros(tickMs)) {
      return Long.MAX_VALUE;
    }
    return tickMs << shift;
  }

  /**
   * The slot index of {@code level} the wheel's cursor falls in: the tick of {@link #currentTimeMs()}, or the
   * earliest tick with timers still due when a {@code limit} stopped the last advance. At levels above 0 that
   * slot is always empty (its timers have been cascaded down); slots after it hold the later timers. Exact,
   * postponed timers included (an advance re-files the postponed timers of the slots it passes before it stops).
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= level < levels()}
   */
  public int cursor(int level) {
    checkLevel(level);
    return (int) (cursor >>> (level * slotBits)) & slotMask;
  }

  /**
   * Copies the number of timers in each slot of {@code level} into {@code into}
   * (length {@code >= slots(level)}); returns the total at that level. O(slots).
   *
   * <p>Counts where timers sit, which for a postponed timer is its old slot (at this or another level) until
   * that slot comes round: the count of a slot is exact for the timers it holds, a postponed timer is counted in
   * a slot at or before its due tick, never after it, and the totals over all levels always sum to
   * {@link #size()}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= level < levels()}
   * @throws IllegalArgumentException  if {@code into} is too short
   */
  public int occupancy(int level, int[] into) {
    checkLevel(level);
    int n = slotMask + 1;
    if (into.length < n) {
      throw new IllegalArgumentException("into must have length >= " + n + ", was " + into.length);
    }
    System.arraycopy(counts, level << slotBits, into, 0, n);
    int total = 0;
    for (int i = 0; i < n; i++) {
      total += into[i];
    }
    return total;
  }

  /**
   * Number of times a timer was moved from a level to a lower one since the wheel was created (a postponed timer
   * that is re-filed when its slot is cascaded counts in {@link #refiledTotal()} instead).
   */
  public long cascadedTotal() {
    return cascaded;
  }

  /**
   * Number of {@link #schedule} calls since the wheel was created that re-armed a pending timer lazily: to a due
   * time at or after its current one, leaving it in its slot (not counted: a timer in the heap of the current tick).
   */
  public long postponedTotal() {
    return postponed;
  }

  /**
   * Number of times since the wheel was created that a postponed timer was filed under its new tick because its
   * old slot came round (at most one per {@link #postponedTotal() postponement}).
   */
  public long refiledTotal() {
    return refiled;
  }

  // ---------------------------------------------------------------------------------------------------------

  private void checkLevel(int level) {
    if (level < 0 || level >= levels) {
      throw new IndexOutOfBoundsException("level must be in [0, " + levels + "), was " + level);
    }
  }

  private int find(String key) {
    Objects.requireNonNull(key, "key");
    return index.find(key, key.hashCode(), entries);
  }

  /**
   * Files entry {@code id}, whose due time has just been set, under its tick {@code floor(dueAt / tickMs)} (the
   * tick whose span holds it); at or before the cursor, that is the cursor slot.
   */
  private void file(int id) {
    long dueAtMs = entries.due(id);
    long rel = relativeTick(tickMs == 1 ? dueAtMs : Math.floorDiv(dueAtMs, tickMs));
    entries.setTick(id, rel);
    link(id, rel);
  }

  /**
   * The flat slot index of an entry filed under relative tick {@code rel}: the cursor slot if it is at or before
   * the cursor, else the slot of the lowest level that tells it apart from the cursor. Entries stay where this
   * says between cursor moves, because {@link #moveCursor} cascades exactly those it changes for.
   */
  private int slotOf(long rel) {
    if (rel <= cursor) {
      return (int) cursor & slotMask;
    }
    int level = levelOfBit[63 - Long.numberOfLeadingZeros(rel ^ cursor)];
    return (level << slotBits) | ((int) (rel >>> (level * slotBits)) & slotMask);
  }

  /**
   * Appends entry {@code id}, filed under relative tick {@code rel}, to its slot (to {@link #heap} if that holds
   * the cursor slot's timers).
   */
  private void link(int id, long rel) {
    int flat = slotOf(rel);
    if (flat <= slotMask) {
      long dueAtMs = entries.due(id);
      if (dueAtMs < minDue[flat]) {
        minDue[flat] = dueAtMs;
      }
      if (heapActive && rel <= cursor) {
        heap.add(id);
        count(flat);
        return;
      }
    } else if (flat >= tails.length) {
      room(flat);
    }
    int t = tails[flat];
    entries.setLinks(id, t, Entries.NIL);
    if (t == Entries.NIL) {
      heads[flat] = id;
    } else {
      entries.setNext(t, id);
    }
    tails[flat] = id;
    count(flat);
  }

  /** Grows the slot arrays to hold the level of slot {@code flat} (to twice the levels, or all of them). */
  private void room(int flat) {
    int old = heads.length;
    int size = Math.min(maxLevels << slotBits, Math.max(((flat >>> slotBits) + 1) << slotBits, 2 * old));
    heads = Arrays.copyOf(heads, size);
    tails = Arrays.copyOf(tails, size);
    counts = Arrays.copyOf(counts, size);
    Arrays.fill(heads, old, size, Entries.NIL);
    Arrays.fill(tails, old, size, Entries.NIL);
  }

  /** One more timer in slot {@code flat}. */
  private void count(int flat) {
    if (counts[flat]++ == 0) {
      int level = flat >>> slotBits;
      if (level >= levels) {
        levels = level + 1;
      }
      occupied[level] |= 1L << (flat & slotMask);
      occupiedLevels |= 1L << level;
    }
  }

  /** One timer fewer in slot {@code flat}. */
  private void uncount(int flat) {
    if (--counts[flat] == 0) {
      int level = flat >>> slotBits;
      if (level == 0) {
        minDue[flat] = NO_DEADLINE;
      }
      if ((occupied[level] &= ~(1L << (flat & slotMask))) == 0) {
        occupiedLevels &= ~(1L << level);
      }
    }
  }

  private void unlink(int id) {
    int flat = slotOf(entries.tick(id));
    int p = entries.prev(id);
    int n = entries.next(id);
    if (p == DueHeap.IN_HEAP) {
      heap.remove(n);
    } else {
      if (p == Entries.NIL) {
        heads[flat] = n;
      } else {
        entries.setNext(p, n);
      }
      if (n == Entries.NIL) {
        tails[flat] = p;
      } else {
        entries.setPrev(n, p);
      }
    }
    uncount(flat);
  }

  /**
   * Moves the timers of the cursor slot {@code flat} from its list into {@link #heap}, where they stay ordered by
   * due time until the cursor moves (and where the timers filed under the cursor tick meanwhile go too); re-files
   * the postponed ones met on the way. Once per cursor tick at most: the list stays empty afterwards.
   */
  private void orderCursorSlot(int flat) {
    int id = heads[flat];
    heads[flat] = Entries.NIL;
    tails[flat] = Entries.NIL;
    heapActive = true;
    while (id != Entries.NIL) {
      int next = entries.next(id);
      if (isPostponed(entries.tick(id), entries.due(id))) {
        uncount(flat);
        refile(id);
      } else {
        heap.add(id);
      }
      id = next;
    }
  }

  /**
   * What {@link #nextExpiryAtMs} and {@link #earliestDueAt} say (some timer is pending): the earliest due time in
   * the heap (exact), else the lower bound of the next occupied level-0 slot (exact unless a timer there was
   * cancelled or postponed), else the start of the next occupied slot of a higher level.
   */
  private long nextDueBound() {
    long bound;
    if (heap.size() != 0) {
      bound = entries.due(heap.top());
    } else {
      long rel = nextEventTick();
      if (occupied[0] != 0) {
        // The lowest occupied level is 0: rel is a tick of the cursor's rotation, its slot holds only that tick.
        bound = minDue[(int) rel & slotMask];
      } else {
        bound = tickStartMs(absoluteTick(rel));
      }
    }
    return Math.min(bound, Long.MAX_VALUE - 1);
  }

  /**
   * The earliest relative tick at which something happens: the cursor itself if its slot holds timers, else the
   * next occupied tick of level 0, else the start of the earliest occupied slot of the lowest occupied level
   * (where it must be cascaded). {@link Long#MAX_VALUE} when empty. Timers at a level are all later than those
   * at the levels below, so the lowest occupied level holds the earliest.
   */
  private long nextEventTick() {
    if (occupiedLevels == 0) {
      return Long.MAX_VALUE;
    }
    int level = Long.numberOfTrailingZeros(occupiedLevels);
    int slot = Long.numberOfTrailingZeros(occupied[level]);
    int shift = level * slotBits;
    int above = shift + slotBits;
    long prefix = above >= 63 ? 0 : (cursor >>> above) << above;
    return prefix | ((long) slot << shift);
  }

  /**
   * Moves the cursor forward to {@code to} (no timer is due in between: the caller moves to at most
   * {@link #nextEventTick()}), then cascades, from the top level down, the slots the new cursor falls in at
   * every level whose digit changed. Those land at lower levels, possibly in the cursor slot.
   */
  private void moveCursor(long to) {
    long changed = cursor ^ to;
    cursor = to;
    heapActive = false;
    cursorMoves++;
    int top = Math.min(levelOfBit[63 - Long.numberOfLeadingZeros(changed)], levels - 1);
    for (int level = top; level >= 1; level--) {
      int slot = (int) (to >>> (level * slotBits)) & slotMask;
      if ((occupied[level] & (1L << slot)) != 0) {
        cascade((level << slotBits) | slot);
      }
    }
  }

  /** Empties slot {@code flat} and files its timers again under their ticks, in order (keeps every slot FIFO). */
  private void cascade(int flat) {
    int id = heads[flat];
    heads[flat] = Entries.NIL;
    tails[flat] = Entries.NIL;
    counts[flat] = 0;
    int level = flat >>> slotBits;
    if ((occupied[level] &= ~(1L << (flat & slotMask))) == 0) {
      occupiedLevels &= ~(1L << level);
    }
    while (id != Entries.NIL) {
      int next = entries.next(id);
      long filed = entries.tick(id);
      long dueAtMs = entries.due(id);
      if (isPostponed(filed, dueAtMs)) {
        refile(id);
      } else {
        link(id, filed);
        cascaded++;
      }
      id = next;
    }
  }

  /**
   * Whether a timer filed under relative tick {@code filed} with due time {@code dueAtMs} was postponed lazily,
   * i.e. its tick {@code floor(dueAtMs / tickMs)} is after {@code filed}: {@link #file} puts a timer under its own
   * tick, and only a lazy re-arm ({@link #schedule}) moves a due time past it. Uses
   * {@code floor(d / t) > a <=> d >= (a + 1) * t}: a multiplication, no division (a division costs as much as a
   * cache miss here); saturated ticks at the ends of the range answer as their unsaturated values would.
   */
  private boolean isPostponed(long filed, long dueAtMs) {
    if (filed == Long.MAX_VALUE) {
      return false;            // saturated: nothing files later
    }
    long a = absoluteTick(filed);
    if (a >= maxStartTick) {
      return false;            // (a + 1) * tickMs > Long.MAX_VALUE >= dueAtMs
    }
    if (a + 1 < minStartTick) {
      return true;             // (a + 1) * tickMs < Long.MIN_VALUE <= dueAtMs
    }
    return dueAtMs >= (a + 1) * tickMs;
  }

  /**
   * Files a postponed timer, just taken out of its old slot, under the tick of its due time ({@link #file}). That
   * tick is after the slot it leaves, so a timer is re-filed at most once per lazy re-arm.
   */
  private void refile(int id) {
    file(id);
    refiled++;
  }

  /** {@code absoluteTick - originTick}, saturated. */
  private long relativeTick(long absoluteTick) {
    long r = absoluteTick - originTick;
    if (((absoluteTick ^ originTick) & (absoluteTick ^ r)) < 0) {
      return absoluteTick < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** {@code relativeTick + originTick}, saturated. */
  private long absoluteTick(long relativeTick) {
    long a = relativeTick + originTick;
    if (((relativeTick ^ a) & (originTick ^ a)) < 0) {
      return relativeTick < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return a;
  }

  /** {@code tick * tickMs}, saturated: the instant at which tick {@code tick} is reached. */
  private long tickStartMs(long tick) {
    if (tick > maxStartTick) {
      return Long.MAX_VALUE;
    }
    if (tick < minStartTick) {
      return Long.MIN_VALUE;
    }
    return tick * tickMs;
  }
}
