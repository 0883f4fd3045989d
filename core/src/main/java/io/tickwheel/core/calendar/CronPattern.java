package io.tickwheel.core.calendar;

import com.cronutils.model.Cron;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A parsed cron expression evaluated on the wall clock alone ({@link LocalDateTime}, no zone): which local
 * date-times match. Mapping local times to instants, with the daylight-saving policies, is {@link ZonedCron}'s job.
 *
 * <p>Syntax: 5 fields (minute hour day-of-month month day-of-week) or 6 (a seconds field first); names
 * ({@code JAN}..{@code DEC}, {@code SUN}..{@code SAT}), ranges {@code a-b}, lists {@code a,b}, steps {@code *}{@code /n}
 * and {@code a-b/n}, {@code ?} for a day field, {@code L} (last day of the month, {@code L-3}, and {@code 5L} the
 * last Friday), {@code W} (nearest weekday, {@code 15W}, {@code LW}), {@code #} ({@code 5#3}: the third Friday), and
 * the macros {@code @hourly}, {@code @daily}, {@code @midnight}, {@code @weekly}, {@code @monthly}, {@code @yearly},
 * {@code @annually}. Day-of-week 0 and 7 are Sunday. A time matches when every field matches: day-of-month AND
 * day-of-week (as Quartz and Spring; classic Vixie cron ORs them when both are restricted).
 *
 * <p><b>Why cron-utils.</b> Both candidates the issue names evaluate these expressions on a plain date-time, which
 * is all we take from them (the zone mapping is ours). Spring's {@code CronExpression} lives in spring-context, which
 * brings spring-core, spring-beans, spring-aop, spring-expression and micrometer-observation: about 5 MB of jars
 * (6.2.14: 1.36 + 1.98 + 0.89 + 0.42 + 0.32 + 0.07 MB) into the shaded server jar for one class, and it knows
 * 6-field expressions only (5-field ones would be rewritten by us). cron-utils ({@code com.cronutils:cron-utils}) is
 * 175 KB with one dependency (slf4j-api, 64 KB), lets us declare the exact dialect (both field counts, {@code L},
 * {@code W}, {@code LW}, {@code #}, the macros, strict ranges) with its definition builder, and is maintained
 * (releases since 2015, used by Apache projects). Its own zone handling is never used: it is always called in
 * {@link ZoneOffset#UTC}, where a "zoned" date-time is just the local one.
 *
 * <p>Immutable and thread safe; {@link #parse} returns a shared instance per expression text.
 */
public final class CronPattern {

  /** Most distinct expressions kept by {@link #parse}'s cache; beyond it expressions are parsed each time. */
  public static final int MAX_CACHED = 10_000;

  private static final CronParser FIVE = new CronParser(definition(false));
  private static final CronParser SIX = new CronParser(definition(true));
  private static final ConcurrentHashMap<String, CronPattern> CACHE = new ConcurrentHashMap<>();

  private final String text;
  private final ExecutionTime execution;
  private final boolean hourIsWildcard;
  private final boolean seconds;

  private CronPattern(String text, Cron cron, int hourIndex) {
    this.text = text;
    this.seconds = hourIndex == 2;
    this.execution = ExecutionTime.forCron(cron);
    String hour = cron.asString().trim().split("\\s+")[hourIndex];
    this.hourIsWildcard = hour.indexOf('*') >= 0 || hour.indexOf('/') >= 0;
  }

  /**
   * Parses an expression.
   *
   * @throws IllegalArgumentException with a message saying what is wrong, if the text is not a valid expression
   */
  public static CronPattern parse(String text) {
    String key = text.trim().replaceAll("\\s+", " ");
    CronPattern known = CACHE.get(key);
    if (known != null) {
      return known;
    }
    CronPattern p = compile(key);
    if (CACHE.size() < MAX_CACHED) {
      CronPattern raced = CACHE.putIfAbsent(key, p);
      return raced != null ? raced : p;
    }
    return p;
  }

  private static CronPattern compile(String key) {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("the expression is empty");
    }
    int fields = key.startsWith("@") ? 0 : key.split(" ").length;
    if (fields != 0 && fields != 5 && fields != 6) {
      throw new IllegalArgumentException("an expression has 5 fields (minute first) or 6 (seconds first), this has "
          + fields);
    }
    try {
      if (fields == 6) {
        return new CronPattern(key, SIX.parse(key).validate(), 2);
      }
      return new CronPattern(key, FIVE.parse(key).validate(), 1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() == null ? "not a cron expression" : e.getMessage(), e);
    } catch (RuntimeException e) {          // the library's parser reports some malformed input otherwise
      throw new IllegalArgumentException("not a cron expression (" + e + ")", e);
    }
  }

  /** The expression as given (whitespace normalised). */
  public String text() {
    return text;
  }

  /**
   * Whether the hour field is a wildcard or a step: it contains {@code *} or {@code /} ({@code *}, {@code *}{@code /2},
   * {@code 1-23/2}, {@code 5/3}). A fixed value, a range or a list without a step ({@code 2}, {@code 1-3},
   * {@code 1,13}) is not. This is the cronie rule the {@code auto} DST policies follow: a wildcard job runs by the
   * wall clock (skips a gap, repeats in an overlap), a fixed-hour job runs once a day (shifted out of a gap, once
   * in an overlap). Macros count as their expansion ({@code @hourly} is a wildcard, {@code @daily} is not).
   */
  public boolean hourIsWildcard() {
    return hourIsWildcard;
  }

  /**
   * The first matching local date-time at or after {@code from} and at or before {@code limit}, or {@code null}.
   * Matches are whole seconds (whole minutes for a 5-field expression); a {@code from} between two looks from the
   * next one.
   */
  public LocalDateTime atOrAfter(LocalDateTime from, LocalDateTime limit) {
    ZonedDateTime z = from.atZone(ZoneOffset.UTC);
    LocalDateTime found;
    if (z.getNano() == 0 && (seconds || z.getSecond() == 0) && execution.isMatch(z)) {
      found = from;
    } else {
      Optional<ZonedDateTime> next = execution.nextExecution(z.withNano(0));
      if (next.isEmpty()) {
        return null;
      }
      found = next.get().toLocalDateTime();
    }
    return found.isAfter(limit) ? null : found;
  }

  @Override
  public String toString() {
    return text;
  }

  private static CronDefinition definition(boolean seconds) {
    CronDefinitionBuilder b = CronDefinitionBuilder.defineCron();
    if (seconds) {
      b = b.withSeconds().withStrictRange().and();
    }
    b = b.withMinutes().withStrictRange().and()
        .withHours().withStrictRange().and()
        .withDayOfMonth().supportsL().supportsW().supportsLW().supportsQuestionMark().withStrictRange().and()
        .withMonth().withStrictRange().and()
        .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0)
            .supportsHash().supportsL().supportsQuestionMark().withStrictRange().and();
    if (!seconds) {
      b = b.withSupportedNicknameHourly().withSupportedNicknameDaily().withSupportedNicknameMidnight()
          .withSupportedNicknameWeekly().withSupportedNicknameMonthly().withSupportedNicknameYearly()
          .withSupportedNicknameAnnually();
    }
    return b.instance();
  }
}
