package io.tickwheel.core.calendar;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cron expression in a time zone with its daylight-saving policies: the instants (epoch ms) it is due at.
 *
 * <p>The expression is evaluated on local date-times only ({@link CronPattern}); the mapping to instants is done
 * here with the zone's {@link ZoneRules}, one offset segment at a time (the stretch between two transitions, where
 * local time and instant move together):
 * <ul>
 *   <li>a local time that exists once maps to its one instant;</li>
 *   <li>a local time in a gap (skipped by the clocks moving forward): with {@link DstGap#SHIFT} it is due once at the
 *       end of the gap, the transition instant (however many matches the gap held); with {@link DstGap#SKIP} not at
 *       all;</li>
 *   <li>a local time in an overlap (repeated by the clocks moving back): with {@link DstOverlap#ONCE} it is due at
 *       its first occurrence (the earlier offset); with {@link DstOverlap#TWICE} at both.</li>
 * </ul>
 * {@code AUTO} resolves by {@link CronPattern#hourIsWildcard()}: a wildcard or stepped hour field skips and repeats,
 * a fixed one shifts and fires once. The due instants form a strictly increasing sequence: never two at one
 * instant (a shifted gap time and a match at the first valid local time after the gap, e.g. 02:30 and 03:00 when
 * 02:00 jumps to 03:00, are one firing).
 *
 * <p>Searches look at most {@link #HORIZON_YEARS} years ahead; beyond it there is no due time ({@link #NEVER}).
 *
 * <p>Cost: one look-up in the library costs tens of microseconds (30 to 160 µs measured for common expressions, see
 * the report of issue 17), far more than a timer's firing otherwise. So {@link #of} returns one shared instance per
 * (expression, zone, policies), and each instance remembers its last answers as spans ({@value #REMEMBERED} of them):
 * {@code atOrAfter(q) = d} also answers every query in {@code [q, d]} (nothing is due in between), and {@code latestAtOrBefore(x) = l} every
 * query in {@code [l, after(l))}. A thousand timers of one expression created in one second, or coming due at one
 * instant, or recovered after one outage, cost one library look-up, not a thousand.
 *
 * <p>Thread safe: the calendar is immutable; the remembered spans are immutable objects behind volatile fields (a
 * lost update only costs a recomputation). Equality is by expression text, zone and the configured (unresolved)
 * policies.
 */
public final class ZonedCron {

  /** No due time within the horizon. */
  public static final long NEVER = Long.MAX_VALUE;
  /** How far ahead a search looks, years (the longest regular gap, 29 February across 2100, is 8 years). */
  public static final int HORIZON_YEARS = 10;

  /** The expression text (the parsed pattern's {@link CronPattern#text()}, or the text a store kept). */
  private final String text;
  private final ZoneId zone;
  private final ZoneRules rules;
  private final DstGap gap;
  private final DstOverlap overlap;
  /** The parsed pattern and the resolved policies; parsed at the first look-up for a {@link #stored} calendar. */
  private volatile Resolved resolved;

  private record Resolved(CronPattern pattern, boolean shift, boolean twice) {
    static Resolved of(CronPattern pattern, DstGap gap, DstOverlap overlap) {
      return new Resolved(pattern, gap == DstGap.SHIFT || (gap == DstGap.AUTO && !pattern.hourIsWildcard()),
          overlap == DstOverlap.TWICE || (overlap == DstOverlap.AUTO && pattern.hourIsWildcard()));
    }
  }
  /**
   * The last {@link #REMEMBERED} answers of {@link #atOrAfter}, newest first: an immutable array replaced as a whole
   * (copy on write). More than one, so that a chain of successive look-ups (the {@code upcoming} due times a
   * response lists, or one firing's next time while another herd is created) is served again for every timer of
   * the expression.
   */
  private volatile Span[] nextSpans = {new Span(1, 0)};       // empty
  private volatile Span latestSpan = new Span(1, 0);

  /** How many answers of {@link #atOrAfter} an instance remembers (a few more than {@code upcoming} lists). */
  static final int REMEMBERED = 8;

  /** Most distinct calendars {@link #of} keeps shared; beyond it each call makes a new one. */
  public static final int MAX_SHARED = 10_000;
  private static final ConcurrentHashMap<String, ZonedCron> SHARED = new ConcurrentHashMap<>();
  /** The shared instances by the text as given (valid expressions only), so a repeated text is not parsed again. */
  private static final ConcurrentHashMap<Sent, ZonedCron> BY_TEXT = new ConcurrentHashMap<>();
  /** The {@link #stored} calendars, not parsed yet or since (apart from {@link #BY_TEXT}: never validated here). */
  private static final ConcurrentHashMap<Sent, ZonedCron> STORED = new ConcurrentHashMap<>();

  /** The key of {@link #BY_TEXT}: the fields as sent (a record, not a concatenated string: no copy of the texts). */
  private record Sent(String expression, String zone, DstGap gap, DstOverlap overlap) {}

  /** {@code [from, to]} with its answer {@code due}. */
  private record Span(long from, long to, long due) {
    Span(long from, long to) {
      this(from, to, NEVER);
    }

    boolean covers(long ms) {
      return ms >= from && ms <= to;
    }
  }

  public ZonedCron(CronPattern pattern, ZoneId zone, DstGap gap, DstOverlap overlap) {
    this(Objects.requireNonNull(pattern, "pattern").text(), zone, gap, overlap);
    this.resolved = Resolved.of(pattern, gap, overlap);
  }

  private ZonedCron(String text, ZoneId zone, DstGap gap, DstOverlap overlap) {
    this.text = Objects.requireNonNull(text, "text");
    this.zone = Objects.requireNonNull(zone, "zone");
    this.gap = Objects.requireNonNull(gap, "gap");
    this.overlap = Objects.requireNonNull(overlap, "overlap");
    this.rules = zone.getRules();
  }

  /**
   * A calendar read back from a store: {@code expression} is a text this server validated when the timer was
   * created ({@link #expression()} of a parsed calendar), so it is not parsed now but at the first look-up (a restart
   * decodes every stored cron timer and needs none of their calendars: each timer's next due time is stored). One
   * shared instance per (text, zone, policies), up to {@link #MAX_SHARED}.
   *
   * <p>Should the text no longer parse (a later version refusing what an earlier one took), the first look-up throws
   * {@link IllegalStateException} naming it, as every look-up after it does.
   */
  public static ZonedCron stored(String expression, ZoneId zone, DstGap gap, DstOverlap overlap) {
    return stored(expression, zone.getId(), gap, overlap);
  }

  /**
   * As {@link #stored(String, ZoneId, DstGap, DstOverlap)} with the zone's id as stored: a calendar already read
   * back once is found by the texts alone, without looking the zone up again.
   *
   * @throws java.time.DateTimeException if {@code zoneId} is not a zone this JVM knows (looked up only on a miss)
   */
  public static ZonedCron stored(String expression, String zoneId, DstGap gap, DstOverlap overlap) {
    Sent key = new Sent(expression, zoneId, gap, overlap);
    ZonedCron known = STORED.get(key);
    if (known != null) {
      return known;
    }
    ZonedCron made = new ZonedCron(expression, ZoneId.of(zoneId), gap, overlap);
    if (STORED.size() < MAX_SHARED) {
      known = STORED.putIfAbsent(key, made);
    }
    return known != null ? known : made;
  }

  /** The pattern and resolved policies, parsing a {@link #stored} calendar's text at the first call. */
  private Resolved resolved() {
    Resolved r = resolved;
    if (r == null) {
      try {
        r = Resolved.of(CronPattern.parse(text), gap, overlap);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the stored cron expression '" + text + "' does not parse: " + e.getMessage(),
            e);
      }
      resolved = r;
    }
    return r;
  }

  /** Whether the expression has been parsed ({@link #stored} calendars: not until the first look-up). */
  public boolean parsed() {
    return resolved != null;
  }

  /**
   * Parses {@code expression} (see {@link CronPattern#parse}).
   *
   * @throws IllegalArgumentException if it is not a valid expression
   */
  public static ZonedCron of(String expression, ZoneId zone, DstGap gap, DstOverlap overlap) {
    // the client's text first: parsing costs tens of microseconds, a herd of timers sends one text again and again
    Sent asSent = new Sent(expression, zone.getId(), gap, overlap);
    ZonedCron sent = BY_TEXT.get(asSent);
    if (sent != null) {
      return sent;
    }
    ZonedCron parsed = parse(expression, zone, gap, overlap);
    if (BY_TEXT.size() < MAX_SHARED) {
      BY_TEXT.putIfAbsent(asSent, parsed);
    }
    return parsed;
  }

  private static ZonedCron parse(String expression, ZoneId zone, DstGap gap, DstOverlap overlap) {
    CronPattern pattern = CronPattern.parse(expression);
    String key = pattern.text() + '\n' + zone.getId() + '\n' + gap + '\n' + overlap;
    ZonedCron known = SHARED.get(key);
    if (known != null) {
      return known;
    }
    ZonedCron made = new ZonedCron(pattern, zone, gap, overlap);
    if (SHARED.size() < MAX_SHARED) {
      known = SHARED.putIfAbsent(key, made);
    }
    return known != null ? known : made;
  }

  public CronPattern pattern() {
    return resolved().pattern();
  }

  /** The expression text. */
  public String expression() {
    return text;
  }

  public ZoneId zone() {
    return zone;
  }

  /** The gap policy as configured (possibly {@code AUTO}). */
  public DstGap gap() {
    return gap;
  }

  /** The overlap policy as configured (possibly {@code AUTO}). */
  public DstOverlap overlap() {
    return overlap;
  }

  /** Whether gaps shift ({@code true}) or skip, after resolving {@code AUTO}. */
  public boolean shiftsGaps() {
    return resolved().shift();
  }

  /** Whether overlaps fire twice ({@code true}) or once, after resolving {@code AUTO}. */
  public boolean firesTwiceInOverlaps() {
    return resolved().twice();
  }

  /** The first due instant strictly after {@code ms}, epoch ms, or {@link #NEVER}. */
  public long after(long ms) {
    return ms == Long.MAX_VALUE ? NEVER : atOrAfter(ms + 1);
  }

  /** The first due instant at or after {@code ms}, epoch ms, or {@link #NEVER}. */
  public long atOrAfter(long ms) {
    Span[] known = nextSpans;
    for (Span k : known) {
      if (k.covers(ms)) {
        return k.due();
      }
    }
    long due = search(ms);
    if (due != NEVER) {          // "none within the horizon" of ms is not an answer for a later query
      Span[] next = new Span[Math.min(REMEMBERED, known.length + 1)];
      next[0] = new Span(ms, due, due);
      System.arraycopy(known, 0, next, 1, next.length - 1);
      nextSpans = next;
    }
    return due;
  }

  /**
   * The latest due instant at or before {@code limit}, given {@code floor <= limit} which is itself a due instant
   * (for instance the pending one of a timer that missed several). A binary search over {@link #atOrAfter}: at most
   * about 45 look-ups however far {@code limit} is from {@code floor} (a year-long outage of a per-second cron costs
   * no more than a minute's), and none when the answer is the remembered one.
   */
  public long latestAtOrBefore(long floor, long limit) {
    Span known = latestSpan;
    if (known.covers(limit) && known.due() >= floor) {
      return known.due();
    }
    long next = after(floor);
    if (next > limit) {
      return floor;
    }
    long lo = next;                // atOrAfter(lo) <= limit
    long hi = limit + 1;           // atOrAfter(hi) > limit
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (atOrAfter(mid) <= limit) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    // nothing is due in (lo, limit] and atOrAfter(lo) <= limit: lo itself is due; the answer holds until after(lo)
    long following = after(lo);
    latestSpan = new Span(lo, following == NEVER ? Long.MAX_VALUE : following - 1, lo);
    return lo;
  }

  private long search(long ms) {
    Resolved r = resolved();
    CronPattern pattern = r.pattern();
    boolean twice = r.twice();
    boolean shift = r.shift();
    Instant s = Instant.ofEpochMilli(ms);
    Instant horizon = s.atOffset(ZoneOffset.UTC).plusYears(HORIZON_YEARS).toInstant();
    while (!s.isAfter(horizon)) {
      ZoneOffset offset = rules.getOffset(s);                 // the offset of [s, next transition)
      ZoneOffsetTransition next = rules.nextTransition(s);    // strictly after s, or null
      LocalDateTime from = LocalDateTime.ofInstant(s, offset);
      if (!twice) {
        ZoneOffsetTransition prev = rules.previousTransition(s.plusNanos(1));   // at or before s
        if (prev != null && prev.isOverlap() && from.isBefore(prev.getDateTimeBefore())) {
          from = prev.getDateTimeBefore();                    // the repeated local times already had their turn
        }
      }
      LocalDateTime segmentEnd = next == null ? null : next.getDateTimeBefore();   // exclusive
      LocalDateTime limit = LocalDateTime.ofInstant(horizon, offset);
      LocalDateTime match = pattern.atOrAfter(from, limit);
      if (match != null && (segmentEnd == null || match.isBefore(segmentEnd))) {
        return match.toInstant(offset).toEpochMilli();
      }
      if (next == null || match == null) {
        return NEVER;
      }
      if (next.isGap() && shift) {
        LocalDateTime skipped = pattern.atOrAfter(next.getDateTimeBefore(), next.getDateTimeAfter());
        if (skipped != null && skipped.isBefore(next.getDateTimeAfter())) {
          return next.getInstant().toEpochMilli();
        }
      }
      s = next.getInstant();
    }
    return NEVER;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ZonedCron z && z.text.equals(text) && z.zone.equals(zone)
        && z.gap == gap && z.overlap == overlap;
  }

  @Override
  public int hashCode() {
    return Objects.hash(text, zone, gap, overlap);
  }

  @Override
  public String toString() {
    return text + " " + zone + " gap=" + gap.wireName() + " overlap=" + overlap.wireName();
  }
}
