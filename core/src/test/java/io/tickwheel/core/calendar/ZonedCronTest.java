package io.tickwheel.core.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DST mapping, case by case, with exact instants (written as local time and offset). */
class ZonedCronTest {

  private static final ZoneId NY = ZoneId.of("America/New_York");

  private static List<String> next(String cron, String zone, DstGap gap, DstOverlap overlap, String from, int n) {
    ZonedCron c = ZonedCron.of(cron, ZoneId.of(zone), gap, overlap);
    long t = OffsetDateTime.parse(from).toInstant().toEpochMilli();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      t = c.after(t);
      out.add(OffsetDateTime.ofInstant(Instant.ofEpochMilli(t), c.zone()).toString());
    }
    return out;
  }

  private static List<String> next(String cron, String zone, String from, int n) {
    return next(cron, zone, DstGap.AUTO, DstOverlap.AUTO, from, n);
  }

  @Test
  void newYorkSpringForwardFixedHourInTheGapFiresAtThreeEdtWithAutoAndShift() {
    List<String> expected = List.of("2027-03-13T02:30-05:00", "2027-03-14T03:00-04:00", "2027-03-15T02:30-04:00");
    assertThat(next("30 2 * * *", "America/New_York", "2027-03-12T12:00-05:00", 3)).isEqualTo(expected);
    assertThat(next("30 2 * * *", "America/New_York", DstGap.SHIFT, DstOverlap.AUTO, "2027-03-12T12:00-05:00", 3))
        .isEqualTo(expected);
  }

  @Test
  void newYorkSpringForwardFixedHourInTheGapDoesNotFireThatDayWithSkip() {
    assertThat(next("30 2 * * *", "America/New_York", DstGap.SKIP, DstOverlap.AUTO, "2027-03-12T12:00-05:00", 2))
        .containsExactly("2027-03-13T02:30-05:00", "2027-03-15T02:30-04:00");
  }

  @Test
  void newYorkSpringForwardEveryQuarterHourGoesFromOneFortyFiveEstToThreeEdt() {
    assertThat(next("*/15 * * * *", "America/New_York", "2027-03-14T01:40-05:00", 3))
        .containsExactly("2027-03-14T01:45-05:00", "2027-03-14T03:00-04:00", "2027-03-14T03:15-04:00");
  }

  @Test
  void shiftedGapTimesAndTheFirstTimeAfterTheGapAreOneFiring() {
    // 02:00, 02:15, 02:30, 02:45 and 03:00 all map to 07:00Z: one firing, then 03:15
    assertThat(next("*/15 * * * *", "America/New_York", DstGap.SHIFT, DstOverlap.AUTO, "2027-03-14T01:40-05:00", 3))
        .containsExactly("2027-03-14T01:45-05:00", "2027-03-14T03:00-04:00", "2027-03-14T03:15-04:00");
  }

  @Test
  void newYorkFallBackFixedHourInTheOverlapFiresOnceWithOnceAndAuto() {
    List<String> expected = List.of("2027-11-07T01:30-04:00", "2027-11-08T01:30-05:00");
    assertThat(next("30 1 * * *", "America/New_York", "2027-11-06T12:00-04:00", 2)).isEqualTo(expected);
    assertThat(next("30 1 * * *", "America/New_York", DstGap.AUTO, DstOverlap.ONCE, "2027-11-06T12:00-04:00", 2))
        .isEqualTo(expected);
  }

  @Test
  void newYorkFallBackFixedHourInTheOverlapFiresTwiceWithTwice() {
    assertThat(next("30 1 * * *", "America/New_York", DstGap.AUTO, DstOverlap.TWICE, "2027-11-06T12:00-04:00", 3))
        .containsExactly("2027-11-07T01:30-04:00", "2027-11-07T01:30-05:00", "2027-11-08T01:30-05:00");
  }

  @Test
  void newYorkFallBackSixFieldEveryQuarterHourFiresThroughBothOneOClockHoursWithAuto() {
    assertThat(next("0 */15 * * * *", "America/New_York", "2027-11-07T00:50-04:00", 9)).containsExactly(
        "2027-11-07T01:00-04:00", "2027-11-07T01:15-04:00", "2027-11-07T01:30-04:00", "2027-11-07T01:45-04:00",
        "2027-11-07T01:00-05:00", "2027-11-07T01:15-05:00", "2027-11-07T01:30-05:00", "2027-11-07T01:45-05:00",
        "2027-11-07T02:00-05:00");
  }

  @Test
  void newYorkFallBackEveryQuarterHourWithOnceSkipsTheRepeatedHour() {
    assertThat(next("*/15 * * * *", "America/New_York", DstGap.AUTO, DstOverlap.ONCE, "2027-11-07T01:40-04:00", 2))
        .containsExactly("2027-11-07T01:45-04:00", "2027-11-07T02:00-05:00");
  }

  @Test
  void aSearchStartingInsideTheRepeatedHourFindsItsSecondPassWithTwice() {
    // 01:50 EDT: the next quarter hours are 01:00 EST (06:00Z), not 02:00 EST
    assertThat(next("*/15 * * * *", "America/New_York", "2027-11-07T01:50-04:00", 2))
        .containsExactly("2027-11-07T01:00-05:00", "2027-11-07T01:15-05:00");
  }

  @Test
  void amsterdamDailyNineOClockFiresOnTheDayOfTheChangeSpring26744() {
    assertThat(next("0 0 9 * * *", "Europe/Amsterdam", "2021-03-27T09:00+01:00", 2))
        .containsExactly("2021-03-28T09:00+02:00", "2021-03-29T09:00+02:00");
  }

  @Test
  void amsterdamFiveAfterMidnightIsNotSkippedWhenAskedJustBeforeTheChangeSpring28038() {
    assertThat(next("0 5 0 * * *", "Europe/Amsterdam", "2021-03-28T01:00+01:00", 1))
        .containsExactly("2021-03-29T00:05+02:00");
  }

  @Test
  void amsterdamTenPastTwoOnTheChangeDayShiftsToThreeAndIsNeverLostSpring26830() {
    assertThat(next("0 10 2 * * *", "Europe/Amsterdam", "2021-03-28T01:09+01:00", 2))
        .containsExactly("2021-03-28T03:00+02:00", "2021-03-29T02:10+02:00");
    assertThat(next("0 10 2 * * *", "Europe/Amsterdam", DstGap.SKIP, DstOverlap.AUTO, "2021-03-28T01:09+01:00", 1))
        .containsExactly("2021-03-29T02:10+02:00");
  }

  @Test
  void cairoEveryTwoHoursKeepsTheDayOfTheMidnightGapSpring36859() {
    // 2025-04-25 00:00 EET jumps to 01:00 EEST; the hour field is a step: 00:00 is skipped, 02:00 is not
    ZonedCron c = ZonedCron.of("0 0 */2 * * ?", ZoneId.of("Africa/Cairo"), DstGap.AUTO, DstOverlap.AUTO);
    long t = 1745521820000L;     // 2025-04-24T21:10:20+02:00
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      t = c.after(t);
      out.add(OffsetDateTime.ofInstant(Instant.ofEpochMilli(t), c.zone()).toString());
    }
    assertThat(out).containsExactly("2025-04-24T22:00+02:00", "2025-04-25T02:00+03:00", "2025-04-25T04:00+03:00",
        "2025-04-25T06:00+03:00");
  }

  @Test
  void cairoMidnightDailyShiftsToOneOClockOnTheMidnightGap() {
    assertThat(next("0 0 * * *", "Africa/Cairo", "2025-04-24T12:00+02:00", 2))
        .containsExactly("2025-04-25T01:00+03:00", "2025-04-26T00:00+03:00");
  }

  @Test
  void lordHoweThirtyMinuteGapShiftsOrSkips() {
    // 2027-10-03 02:00 +10:30 jumps to 02:30 +11:00
    assertThat(next("15 2 * * *", "Australia/Lord_Howe", "2027-10-02T12:00+10:30", 2))
        .containsExactly("2027-10-03T02:30+11:00", "2027-10-04T02:15+11:00");
    assertThat(next("15 2 * * *", "Australia/Lord_Howe", DstGap.SKIP, DstOverlap.AUTO, "2027-10-02T12:00+10:30", 1))
        .containsExactly("2027-10-04T02:15+11:00");
  }

  @Test
  void lordHoweThirtyMinuteOverlapFiresOnceOrTwice() {
    // 2027-04-04 02:00 +11:00 falls back to 01:30 +10:30: 01:30..02:00 happens twice
    assertThat(next("45 1 * * *", "Australia/Lord_Howe", "2027-04-03T12:00+11:00", 2))
        .containsExactly("2027-04-04T01:45+11:00", "2027-04-05T01:45+10:30");
    assertThat(next("45 1 * * *", "Australia/Lord_Howe", DstGap.AUTO, DstOverlap.TWICE, "2027-04-03T12:00+11:00", 2))
        .containsExactly("2027-04-04T01:45+11:00", "2027-04-04T01:45+10:30");
  }

  @Test
  void santiagoMidnightChangeShiftsMidnightToOneAndRepeatsTheHourBeforeMidnight() {
    // 2027-09-05 00:00 -04:00 jumps to 01:00 -03:00
    assertThat(next("0 0 * * *", "America/Santiago", "2027-09-04T12:00-04:00", 2))
        .containsExactly("2027-09-05T01:00-03:00", "2027-09-06T00:00-03:00");
    // 2027-04-04 00:00 -03:00 falls back to 2027-04-03 23:00 -04:00
    assertThat(next("30 23 * * *", "America/Santiago", DstGap.AUTO, DstOverlap.TWICE, "2027-04-03T12:00-03:00", 3))
        .containsExactly("2027-04-03T23:30-03:00", "2027-04-03T23:30-04:00", "2027-04-04T23:30-04:00");
    assertThat(next("30 23 * * *", "America/Santiago", "2027-04-03T12:00-03:00", 2))
        .containsExactly("2027-04-03T23:30-03:00", "2027-04-04T23:30-04:00");
  }

  @Test
  void lastDayOfTheMonth() {
    assertThat(next("0 0 L * *", "UTC", "2028-01-15T00:00Z", 3))
        .containsExactly("2028-01-31T00:00Z", "2028-02-29T00:00Z", "2028-03-31T00:00Z");
  }

  @Test
  void lastWeekdayOfTheMonth() {
    // 2027-01-31 is a Sunday, 2027-02-28 a Sunday, 2027-04-30 a Friday
    assertThat(next("0 9 LW * *", "UTC", "2027-01-01T00:00Z", 4)).containsExactly(
        "2027-01-29T09:00Z", "2027-02-26T09:00Z", "2027-03-31T09:00Z", "2027-04-30T09:00Z");
  }

  @Test
  void thirdFridayOfTheMonth() {
    assertThat(next("0 12 * * 5#3", "UTC", "2027-01-01T00:00Z", 3))
        .containsExactly("2027-01-15T12:00Z", "2027-02-19T12:00Z", "2027-03-19T12:00Z");
  }

  @Test
  void thirtyFirstOfEveryMonthSkipsShortMonths() {
    assertThat(next("0 0 31 * *", "UTC", "2027-01-01T00:00Z", 4))
        .containsExactly("2027-01-31T00:00Z", "2027-03-31T00:00Z", "2027-05-31T00:00Z", "2027-07-31T00:00Z");
  }

  @Test
  void twentyNinthOfFebruaryFiresInLeapYearsOnly() {
    assertThat(next("0 0 29 2 *", "UTC", "2027-01-01T00:00Z", 3))
        .containsExactly("2028-02-29T00:00Z", "2032-02-29T00:00Z", "2036-02-29T00:00Z");
  }

  @Test
  void macrosExpandAndFollowTheAutoRuleOfTheirHourField() {
    assertThat(next("@daily", "UTC", "2027-01-01T10:00Z", 1)).containsExactly("2027-01-02T00:00Z");
    assertThat(next("@hourly", "UTC", "2027-01-01T10:00Z", 1)).containsExactly("2027-01-01T11:00Z");
    assertThat(next("@weekly", "UTC", "2027-01-01T10:00Z", 1)).containsExactly("2027-01-03T00:00Z");
    assertThat(next("@monthly", "UTC", "2027-01-01T10:00Z", 1)).containsExactly("2027-02-01T00:00Z");
    assertThat(next("@yearly", "UTC", "2027-01-01T10:00Z", 1)).containsExactly("2028-01-01T00:00Z");
    assertThat(CronPattern.parse("@hourly").hourIsWildcard()).isTrue();
    assertThat(CronPattern.parse("@daily").hourIsWildcard()).isFalse();
  }

  @Test
  void namesRangesAndSundayAsSeven() {
    assertThat(next("0 8 * JAN MON-FRI", "UTC", "2027-01-01T09:00Z", 2))
        .containsExactly("2027-01-04T08:00Z", "2027-01-05T08:00Z");
    assertThat(next("0 8 * * 7", "UTC", "2027-01-01T09:00Z", 1)).containsExactly("2027-01-03T08:00Z");
  }

  @Test
  void autoRuleTreatsStarsAndStepsAsWildcardsAndFixedValuesRangesAndListsAsFixed() {
    assertThat(CronPattern.parse("0 * * * *").hourIsWildcard()).isTrue();
    assertThat(CronPattern.parse("0 */2 * * *").hourIsWildcard()).isTrue();
    assertThat(CronPattern.parse("0 1-23/2 * * *").hourIsWildcard()).isTrue();
    assertThat(CronPattern.parse("0 2 * * *").hourIsWildcard()).isFalse();
    assertThat(CronPattern.parse("0 1-3 * * *").hourIsWildcard()).isFalse();
    assertThat(CronPattern.parse("0 1,13 * * *").hourIsWildcard()).isFalse();
    assertThat(CronPattern.parse("0 0 2 * * *").hourIsWildcard()).isFalse();
  }

  @Test
  void theSharedInstanceRemembersAnswersWithoutChangingThem() {
    ZonedCron shared = ZonedCron.of("*/20 1-3 * * *", NY, DstGap.SHIFT, DstOverlap.TWICE);
    assertThat(ZonedCron.of("*/20   1-3 * * *", NY, DstGap.SHIFT, DstOverlap.TWICE)).isSameAs(shared);
    ZonedCron fresh = new ZonedCron(CronPattern.parse("*/20 1-3 * * *"), NY, DstGap.SHIFT, DstOverlap.TWICE);
    java.util.Random random = new java.util.Random(17);
    long base = OffsetDateTime.parse("2027-03-10T00:00-05:00").toInstant().toEpochMilli();
    for (int i = 0; i < 400; i++) {
      long q = base + (long) (random.nextDouble() * 300 * 24 * 3_600_000L);
      long floor = fresh.atOrAfter(q);
      long limit = floor + (long) (random.nextDouble() * 3 * 24 * 3_600_000L);
      assertThat(shared.atOrAfter(q)).isEqualTo(fresh.atOrAfter(q));
      assertThat(shared.atOrAfter(q + 1)).isEqualTo(fresh.atOrAfter(q + 1));
      assertThat(shared.after(floor)).isEqualTo(fresh.after(floor));
      assertThat(shared.latestAtOrBefore(floor, limit)).isEqualTo(fresh.latestAtOrBefore(floor, limit));
      assertThat(shared.latestAtOrBefore(floor, limit + 60_000)).isEqualTo(fresh.latestAtOrBefore(floor, limit + 60_000));
    }
  }

  @Test
  void latestAtOrBeforeFindsTheLastDueTimeOfAnOutage() {
    ZonedCron c = ZonedCron.of("*/15 * * * *", NY, DstGap.AUTO, DstOverlap.AUTO);
    long floor = OffsetDateTime.parse("2027-11-07T00:45-04:00").toInstant().toEpochMilli();
    long limit = OffsetDateTime.parse("2027-11-07T01:20-05:00").toInstant().toEpochMilli();
    assertThat(OffsetDateTime.ofInstant(Instant.ofEpochMilli(c.latestAtOrBefore(floor, limit)), NY).toString())
        .isEqualTo("2027-11-07T01:15-05:00");
    assertThat(c.latestAtOrBefore(floor, floor + 60_000)).isEqualTo(floor);
  }

  @Test
  void anExpressionThatNeverMatchesHasNoTime() {
    ZonedCron c = ZonedCron.of("0 0 30 2 *", NY, DstGap.AUTO, DstOverlap.AUTO);
    assertThat(c.after(0)).isEqualTo(ZonedCron.NEVER);
  }

  @Test
  void malformedExpressionsAreRefusedWithAReason() {
    assertThatThrownBy(() -> CronPattern.parse("61 * * * *")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("61");
    assertThatThrownBy(() -> CronPattern.parse("* * * *")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 fields");
    assertThatThrownBy(() -> CronPattern.parse("@fortnightly")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CronPattern.parse("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStoredCalendarIsNotParsedUntilItsFirstLookUpAndThenAnswersAsTheParsedOneThroughBothDstChanges() {
    // an expression no other test uses: the shared instances are per text
    ZonedCron stored = ZonedCron.stored("7 1-3 * * 0", NY, DstGap.AUTO, DstOverlap.AUTO);
    assertThat(stored.parsed()).isFalse();
    assertThat(stored.expression()).isEqualTo("7 1-3 * * 0");
    assertThat(stored).isEqualTo(ZonedCron.of("7 1-3 * * 0", NY, DstGap.AUTO, DstOverlap.AUTO));
    assertThat(stored.parsed()).as("equality and the text need no parse").isFalse();
    ZonedCron parsed = ZonedCron.of("7 1-3 * * 0", NY, DstGap.AUTO, DstOverlap.AUTO);
    long a = OffsetDateTime.parse("2027-03-01T00:00-05:00").toInstant().toEpochMilli();
    long b = a;
    for (int i = 0; i < 40; i++) {                             // Sundays of March to November 2027
      a = stored.after(a);
      b = parsed.after(b);
      assertThat(a).isEqualTo(b);
    }
    assertThat(stored.parsed()).isTrue();
    assertThat(ZonedCron.stored("7 1-3 * * 0", NY, DstGap.AUTO, DstOverlap.AUTO)).isSameAs(stored);
  }

  @Test
  void aStoredExpressionThatDoesNotParseFailsAtItsFirstLookUpNamingIt() {
    ZonedCron stored = ZonedCron.stored("61 * * * *", NY, DstGap.AUTO, DstOverlap.AUTO);
    assertThat(stored.parsed()).isFalse();
    assertThatThrownBy(() -> stored.after(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the stored cron expression '61 * * * *' does not parse");
    assertThatThrownBy(stored::shiftsGaps).isInstanceOf(IllegalStateException.class);
  }
}
