package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalendarParserTest {

  private static final long NOW = 1_800_000_000_000L;     // 2027-01-15T08:00:00Z
  private final TimerParser parser = new TimerParser(Limits.defaults(10), true);

  private TimerSpec parse(String json) {
    return parser.parse(new JsonObject(json), NOW);
  }

  @Test
  void cronTimerGetsUtcAndAutoPoliciesByDefault() {
    TimerSpec s = parse("{\"kind\":\"cron\",\"cron\":\"0 9 * * MON-FRI\"}");
    assertThat(s.kind()).isEqualTo(Kind.CRON);
    assertThat(s.cron().expression()).isEqualTo("0 9 * * MON-FRI");
    assertThat(s.cron().zone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(s.cron().zone().getId()).isEqualTo(TimerParser.DEFAULT_TIME_ZONE_NAME);
    assertThat(s.cron().gap()).isEqualTo(DstGap.AUTO);
    assertThat(s.cron().overlap()).isEqualTo(DstOverlap.AUTO);
    assertThat(s.periodMs()).isZero();
    assertThat(s.endAt()).isEqualTo(Timer.NO_END);
    assertThat(s.jitterMs()).isZero();
  }

  @Test
  void cronTimerTakesZonePoliciesMisfireMaxFiringsEndAtAndJitter() {
    TimerSpec s = parse("{\"kind\":\"cron\",\"cron\":\"30 2 * * *\",\"timeZone\":\"America/New_York\","
        + "\"dstGap\":\"skip\",\"dstOverlap\":\"twice\",\"misfire\":\"fire-all\",\"maxFirings\":3,"
        + "\"endAt\":\"2028-01-01T00:00:00Z\",\"jitterMs\":60000}");
    assertThat(s.cron().zone()).isEqualTo(ZoneId.of("America/New_York"));
    assertThat(s.cron().gap()).isEqualTo(DstGap.SKIP);
    assertThat(s.cron().overlap()).isEqualTo(DstOverlap.TWICE);
    assertThat(s.misfire()).isEqualTo(Misfire.FIRE_ALL);
    assertThat(s.maxFirings()).isEqualTo(3);
    assertThat(s.endAt()).isEqualTo(1_830_297_600_000L);
    assertThat(s.jitterMs()).isEqualTo(60000);
  }

  @Test
  void endAtAndJitterApplyToTheOtherKindsToo() {
    TimerSpec rate = parse("{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"endAt\":" + (NOW + 10_000) + ",\"jitterMs\":5}");
    assertThat(rate.endAt()).isEqualTo(NOW + 10_000);
    assertThat(rate.jitterMs()).isEqualTo(5);
    assertThat(parse("{\"delayMs\":10,\"jitterMs\":3600000}").jitterMs()).isEqualTo(3_600_000);
  }

  @Test
  void explicitDefaultsAreTheSameAsLeavingThemOut() {
    // what a client generated from the OpenAPI document may send for a once timer: every default, nulls, read-only
    TimerSpec plain = parse("{\"id\":\"a\",\"delayMs\":60000}");
    TimerSpec explicit = parse("{\"id\":\"a\",\"delayMs\":60000,\"topic\":\"default\",\"kind\":\"once\","
        + "\"misfire\":\"fire-once\",\"timeZone\":\"UTC\",\"dstGap\":\"auto\",\"dstOverlap\":\"auto\","
        + "\"payload\":null,\"upcoming\":[],\"jitterMs\":0}");
    assertThat(explicit).isEqualTo(plain);
    assertThat(explicit.cron()).isNull();
    assertThat(explicit.payload()).isNull();

    TimerSpec rate = parse("{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"timeZone\":\"UTC\",\"dstGap\":\"auto\","
        + "\"dstOverlap\":\"auto\"}");
    assertThat(rate).isEqualTo(parse("{\"kind\":\"fixed-rate\",\"periodMs\":1000}"));
    assertThat(rate.cron()).isNull();

    TimerSpec cron = parse("{\"kind\":\"cron\",\"cron\":\"0 9 * * *\",\"timeZone\":\"UTC\",\"dstGap\":\"auto\","
        + "\"dstOverlap\":\"auto\"}");
    assertThat(cron).isEqualTo(parse("{\"kind\":\"cron\",\"cron\":\"0 9 * * *\"}"));
  }

  @Test
  void nullIsTheSameAsLeavingTheFieldOut() {
    TimerSpec plain = parse("{\"delayMs\":5}");
    assertThat(parse("{\"delayMs\":5,\"id\":null,\"topic\":null,\"kind\":null,\"at\":null,\"periodMs\":null,"
        + "\"maxFirings\":null,\"misfire\":null,\"cron\":null,\"timeZone\":null,\"dstGap\":null,\"dstOverlap\":null,"
        + "\"endAt\":null,\"jitterMs\":null,\"callback\":null,\"payload\":null,\"paused\":null,\"upcoming\":null,"
        + "\"nextDueAt\":null,\"firings\":null,\"createdAt\":null}")).isEqualTo(plain);
  }

  @Test
  void responseFieldsMayBeSentBack() {
    assertThat(parse("{\"delayMs\":1,\"upcoming\":[1,2],\"paused\":true}").delayMs()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"kind\":\"cron\",\"cron\":\"0 0 30 2 *\"}|cron|never fires within 5 years in time zone UTC, was",
      "{\"kind\":\"cron\",\"cron\":\"0 0 30 2 *\",\"timeZone\":\"Europe/Paris\"}|cron|in time zone Europe/Paris",
      "{\"kind\":\"cron\",\"cron\":\"0 0 31 4 *\"}|cron|\"0 0 31 4 *\"",
      "{\"kind\":\"cron\",\"cron\":\"61 * * * *\"}|cron|was \"61 * * * *\"",
      "{\"kind\":\"cron\",\"cron\":\"* * *\"}|cron|5 fields",
      "{\"kind\":\"cron\",\"cron\":\"@sometimes\"}|cron|was \"@sometimes\"",
      "{\"kind\":\"cron\"}|cron|cron is required",
      "{\"kind\":\"cron\",\"cron\":7}|cron|must be a string",
      "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"timeZone\":\"Mars/Olympus\"}|timeZone|was \"Mars/Olympus\"",
      "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"timeZone\":\"EST\"}|timeZone|was \"EST\"",
      "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"dstGap\":\"later\"}|dstGap|was \"later\"",
      "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"dstOverlap\":\"thrice\"}|dstOverlap|was \"thrice\"",
      "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"periodMs\":1000}|periodMs|not allowed for kind cron, was 1000",
      "{\"delayMs\":5,\"cron\":\"0 * * * *\"}|cron|only allowed for kind cron",
      "{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"timeZone\":\"Europe/Paris\"}|timeZone|only allowed for kind cron",
      "{\"delayMs\":5,\"timeZone\":\"Etc/UTC\"}|timeZone|not for kind once, was \"Etc/UTC\"",
      "{\"delayMs\":5,\"timeZone\":\"utc\"}|timeZone|not for kind once, was \"utc\"",
      "{\"delayMs\":5,\"timeZone\":\"\"}|timeZone|not for kind once, was \"\"",
      "{\"delayMs\":5,\"timeZone\":7}|timeZone|must be a string",
      "{\"delayMs\":5,\"dstGap\":\"shift\"}|dstGap|not for kind once, was \"shift\"",
      "{\"delayMs\":5,\"dstOverlap\":\"once\"}|dstOverlap|not for kind once, was \"once\"",
      "{\"delayMs\":5,\"dstOverlap\":\"AUTO\"}|dstOverlap|not for kind once, was \"AUTO\"",
      "{\"delayMs\":5,\"cron\":\"\"}|cron|not for kind once",
      "{\"delayMs\":5,\"timeZone\":\"UTC\",\"periodMs\":1000}|periodMs|not allowed for kind once, was 1000",
      "{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"dstGap\":\"skip\"}|dstGap|only allowed for kind cron",
      "{\"delayMs\":5,\"endAt\":1900000000000}|endAt|not for kind once",
      "{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"endAt\":1800000000500}|endAt|was 1800000000500",
      "{\"kind\":\"fixed-delay\",\"periodMs\":1000,\"at\":1800000005000,\"endAt\":1800000004999}|endAt|before the first due time 1800000005000",
      "{\"kind\":\"cron\",\"cron\":\"0 0 1 1 *\",\"endAt\":\"2027-06-01T00:00:00Z\"}|endAt|before the first due time",
      "{\"kind\":\"fixed-rate\",\"periodMs\":1000,\"endAt\":\"tomorrow\"}|endAt|was \"tomorrow\"",
      "{\"delayMs\":5,\"jitterMs\":3600001}|jitterMs|was 3600001",
      "{\"delayMs\":5,\"jitterMs\":-1}|jitterMs|was -1",
      "{\"kind\":\"weekly\",\"delayMs\":5}|kind|one of once, fixed-rate, fixed-delay, cron",
  })
  void invalidCalendarFieldsAreRejectedNamingTheField(String json, String field, String messagePart) {
    assertThatThrownBy(() -> parse(json))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo(field);
          assertThat(e.getMessage()).contains(messagePart);
          assertThat(e.tooLarge()).isFalse();
        });
  }

  @Test
  void withoutCalendarsTheParserRefusesTheCalendarFieldsAsBefore() {
    TimerParser plain = new TimerParser(Limits.defaults(10));
    for (String field : new String[] {"cron", "timeZone", "dstGap", "dstOverlap", "endAt", "jitterMs"}) {
      assertThatThrownBy(() -> plain.parse(new JsonObject().put("delayMs", 5).put(field, "x"), NOW))
          .isInstanceOfSatisfying(ValidationException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).isEqualTo("unknown field '" + field + "'");
          });
    }
    assertThatThrownBy(() -> plain.parse(new JsonObject("{\"kind\":\"cron\",\"delayMs\":5}"), NOW))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.getMessage())
            .isEqualTo("kind must be one of once, fixed-rate, fixed-delay, was \"cron\""));
  }

  @Test
  void aCronThatFirstFiresInFourYearsIsAccepted() {
    // 29 February falls in 2028; on a Tuesday next in 2028 too (2028-02-29 is a Tuesday)
    assertThat(parse("{\"kind\":\"cron\",\"cron\":\"0 0 29 2 2\"}").cron()).isNotNull();
  }
}
