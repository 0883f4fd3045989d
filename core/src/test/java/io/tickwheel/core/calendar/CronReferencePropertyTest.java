package io.tickwheel.core.calendar;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.DueDecision;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerSpec;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random cron expressions (a simple subset: values, ranges, lists and steps in the five classic fields), zones
 * (with gaps and overlaps of an hour, half an hour, at midnight, and fixed offsets) and DST policies, run through
 * {@link Schedule} for a year on a manual clock (each firing handed out at its due time). The nominal times must
 * equal an independent brute-force reference, the firings must be strictly increasing and never before their
 * nominal time.
 *
 * <p>The reference walks the year minute by minute: it converts each instant to local time with the zone and tests
 * the five fields itself (day-of-month AND day-of-week, as {@link CronPattern} documents). That yields the wall-clock
 * reading: a local time in a gap never occurs (skip), one in an overlap occurs twice (twice). It then applies the
 * policies from the zone's transitions: {@code shift} adds the transition instant when a skipped local time matched;
 * {@code once} drops a match whose local time falls in the repeated stretch after a backward transition.
 */
class CronReferencePropertyTest {

  private static final long MINUTE = 60_000;
  private static final long YEAR = 365L * 24 * 3600 * 1000;

  @Property(tries = 20)
  void firingsMatchTheMinuteByMinuteReferenceOverAYear(@ForAll("expressions") String cron,
      @ForAll("zones") String zoneName, @ForAll("gaps") DstGap gap, @ForAll("overlaps") DstOverlap overlap,
      @ForAll("starts") long start, @ForAll("jitters") long jitterMs) {
    ZoneId zone = ZoneId.of(zoneName);
    ZonedCron calendar = ZonedCron.of(cron, zone, gap, overlap);
    long end = start + YEAR;
    List<Long> expected = reference(cron, zone, calendar.shiftsGaps(), calendar.firesTwiceInOverlaps(), start, end);
    if (calendar.after(start) == ZonedCron.NEVER) {
      // nothing within the horizon (e.g. "0 * 1 3 0": 1 March on a Sunday, 11 years apart): the parser refuses such
      // a timer; the reference must find nothing in the year either
      assertThat(expected).as("%s in %s from %s", cron, zone, Instant.ofEpochMilli(start)).isEmpty();
      return;
    }

    TimerSpec spec = new TimerSpec("prop", "default", Kind.CRON, null, null, 0, 0, Misfire.FIRE_ALL, null,
        calendar, Timer.NO_END, jitterMs);
    Timer t = Schedule.accept(spec, start, 1);
    List<Long> nominal = new ArrayList<>();
    long previousDue = Long.MIN_VALUE;
    while (t != null && t.nominalAt() < end) {
      long now = t.nextDueAt();                          // the manual clock hands it out exactly on time
      DueDecision d = Schedule.onDue(t, now, Schedule.DEFAULT_MISFIRE_THRESHOLD_MS);
      assertThat(d.fire()).isTrue();
      assertThat(d.firedDueAt()).isGreaterThanOrEqualTo(d.nominalAt()).isGreaterThan(previousDue);
      previousDue = d.firedDueAt();
      nominal.add(d.nominalAt());
      t = d.next();
    }
    assertThat(nominal).as("%s in %s, gap %s, overlap %s, from %s", cron, zone, gap, overlap,
        Instant.ofEpochMilli(start)).isEqualTo(expected);
  }

  @net.jqwik.api.Example
  void aCalendarWithNoTimeWithinTheHorizonHasNoneInTheReferenceYearEither() {
    // the case a random run found: 1 March on a Sunday comes in 2026 and next in 2037
    firingsMatchTheMinuteByMinuteReferenceOverAYear("0 * 1 3 0", "UTC", DstGap.SHIFT, DstOverlap.ONCE,
        Instant.parse("2027-01-01T00:00:00Z").toEpochMilli(), 0);
  }

  /** Due instants in {@code (start, end)} by walking minutes. */
  static List<Long> reference(String cron, ZoneId zone, boolean shift, boolean twice, long start, long end) {
    boolean[][] f = table(cron.split(" "));
    ZoneRules rules = zone.getRules();
    TreeSet<Long> out = new TreeSet<>();
    long first = (start / MINUTE + 1) * MINUTE;
    for (long m = first; m < end; m += MINUTE) {
      Instant i = Instant.ofEpochMilli(m);
      ZoneOffset offset = rules.getOffset(i);
      LocalDateTime local = LocalDateTime.ofInstant(i, offset);
      if (!matches(f, local)) {
        continue;
      }
      if (!twice) {
        ZoneOffsetTransition prev = rules.previousTransition(i.plusNanos(1));
        if (prev != null && prev.isOverlap() && local.isBefore(prev.getDateTimeBefore())
            && !local.isBefore(prev.getDateTimeAfter())) {
          continue;                                    // the second pass of a repeated local time
        }
      }
      out.add(m);
    }
    if (shift) {
      ZoneOffsetTransition tr = rules.nextTransition(Instant.ofEpochMilli(start));
      while (tr != null && tr.getInstant().toEpochMilli() < end) {
        if (tr.isGap() && tr.getInstant().toEpochMilli() > start) {
          for (LocalDateTime l = tr.getDateTimeBefore(); l.isBefore(tr.getDateTimeAfter()); l = l.plusMinutes(1)) {
            if (matches(f, l)) {
              out.add(tr.getInstant().toEpochMilli());
              break;
            }
          }
        }
        tr = rules.nextTransition(tr.getInstant());
      }
    }
    return new ArrayList<>(out);
  }

  /** Each field's matching values, tested once per value with {@link #field}. */
  static boolean[][] table(String[] f) {
    int[] max = {59, 23, 31, 12, 7};
    boolean[][] t = new boolean[5][];
    for (int i = 0; i < 5; i++) {
      t[i] = new boolean[max[i] + 1];
      for (int v = 0; v <= max[i]; v++) {
        t[i][v] = field(f[i], v, i == 2 || i == 3 ? 1 : 0);
      }
    }
    return t;
  }

  static boolean matches(boolean[][] f, LocalDateTime l) {
    int dow = l.getDayOfWeek().getValue();        // 1 = Monday .. 7 = Sunday; cron's Sunday is 0 or 7
    return f[0][l.getMinute()] && f[1][l.getHour()] && f[2][l.getDayOfMonth()] && f[3][l.getMonthValue()]
        && (f[4][dow % 7] || (dow == 7 && f[4][7]));
  }

  /** {@code *}, {@code *}{@code /k}, {@code n}, {@code a-b}, {@code a-b/k}, and comma lists of them. */
  static boolean field(String spec, int v, int min) {
    for (String part : spec.split(",")) {
      int step = 1;
      String range = part;
      int slash = part.indexOf('/');
      if (slash >= 0) {
        step = Integer.parseInt(part.substring(slash + 1));
        range = part.substring(0, slash);
      }
      if (range.equals("*")) {       // the field's whole range: a step counts from its first value
        if ((v - min) % step == 0) {
          return true;
        }
        continue;
      }
      int dash = range.indexOf('-');
      int lo = Integer.parseInt(dash >= 0 ? range.substring(0, dash) : range);
      int hi = dash >= 0 ? Integer.parseInt(range.substring(dash + 1)) : lo;
      if (v >= lo && v <= hi && (v - lo) % step == 0) {
        return true;
      }
    }
    return false;
  }

  @Provide
  Arbitrary<String> expressions() {
    Arbitrary<String> minute = Arbitraries.of("0", "30", "*/15", "*/20", "5,35", "10-12", "0-50/25");
    Arbitrary<String> hour = Arbitraries.of("*", "*/3", "2", "1-3", "0,12", "23", "1", "0", "*/2");
    Arbitrary<String> dom = Arbitraries.of("*", "*", "*", "1", "15", "1-7", "*/10", "25-31");
    Arbitrary<String> month = Arbitraries.of("*", "*", "*", "3", "3-4", "10,11", "*/2", "9-12");
    Arbitrary<String> dow = Arbitraries.of("*", "*", "*", "0", "1-5", "6,0", "5", "7");
    return Combinators.combine(minute, hour, dom, month, dow).as((a, b, c, d, e) -> a + " " + b + " " + c + " " + d
        + " " + e);
  }

  @Provide
  Arbitrary<String> zones() {
    return Arbitraries.of("UTC", "America/New_York", "Europe/Amsterdam", "Africa/Cairo", "Australia/Lord_Howe",
        "America/Santiago", "Asia/Kolkata", "Pacific/Chatham", "America/Havana", "Europe/London");
  }

  @Provide
  Arbitrary<DstGap> gaps() {
    return Arbitraries.of(DstGap.class);
  }

  @Provide
  Arbitrary<DstOverlap> overlaps() {
    return Arbitraries.of(DstOverlap.class);
  }

  @Provide
  Arbitrary<Long> starts() {
    // 2024-01-01 .. 2028-01-01, at any millisecond
    return Arbitraries.longs().between(1_704_067_200_000L, 1_830_297_600_000L);
  }

  @Provide
  Arbitrary<Long> jitters() {
    return Arbitraries.of(0L, 0L, 1L, 59_000L, 3_600_000L);
  }
}
