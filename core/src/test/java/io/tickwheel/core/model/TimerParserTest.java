package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimerParserTest {

  private static final long NOW = 1_700_000_000_000L;
  private final TimerParser parser = new TimerParser(Limits.defaults(10));

  private TimerSpec parse(String json) {
    return parser.parse(new JsonObject(json), NOW);
  }

  private void rejects(String json, String field, String messagePart) {
    assertThatThrownBy(() -> parse(json))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo(field);
          assertThat(e.getMessage()).contains(messagePart);
          assertThat(e.tooLarge()).isFalse();
        });
  }

  @Test
  void minimalOnceTimerGetsTheDefaults() {
    TimerSpec s = parse("{\"delayMs\":1500}");
    assertThat(s.id()).isNull();
    assertThat(s.topic()).isEqualTo("default");
    assertThat(s.kind()).isEqualTo(Kind.ONCE);
    assertThat(s.delayMs()).isEqualTo(1500);
    assertThat(s.misfire()).isEqualTo(Misfire.FIRE_ONCE);
    assertThat(s.payload()).isNull();
  }

  @Test
  void fullPeriodicTimerIsParsed() {
    TimerSpec s = parse("{\"id\":\"job:1\",\"topic\":\"billing.v1\",\"kind\":\"fixed-rate\",\"periodMs\":60000,"
        + "\"maxFirings\":5,\"misfire\":\"skip\",\"payload\":{\"a\":[1,\"x\"]}}");
    assertThat(s.id()).isEqualTo("job:1");
    assertThat(s.kind()).isEqualTo(Kind.FIXED_RATE);
    assertThat(s.periodMs()).isEqualTo(60000);
    assertThat(s.maxFirings()).isEqualTo(5);
    assertThat(s.misfire()).isEqualTo(Misfire.SKIP);
    assertThat(new JsonObject(s.payload())).isEqualTo(new JsonObject("{\"a\":[1,\"x\"]}"));
  }

  @Test
  void atAcceptsEpochMillisAndIso8601() {
    assertThat(parse("{\"at\":" + (NOW + 5) + "}").atMs()).isEqualTo(NOW + 5);
    assertThat(parse("{\"at\":\"2023-11-14T22:13:20Z\"}").atMs()).isEqualTo(1_700_000_000_000L);
    assertThat(parse("{\"at\":\"2023-11-14T23:13:20+01:00\"}").atMs()).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void integralDoublesAreAcceptedAsIntegers() {
    assertThat(parse("{\"delayMs\":1500.0}").delayMs()).isEqualTo(1500);
  }

  @Test
  void readOnlyFieldsAreIgnored() {
    assertThat(parse("{\"delayMs\":1,\"nextDueAt\":5,\"firings\":2,\"createdAt\":3}").delayMs()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"delayMs\":-1}|delayMs|was -1",
      "{\"delayMs\":\"10\"}|delayMs|must be an integer, was \"10\"",
      "{\"delayMs\":1.5}|delayMs|must be an integer, was 1.5",
      "{\"delayMs\":99999999999999999999}|delayMs|out of range",
      "{\"delayMs\":400000000000}|delayMs|horizon",
      "{\"delayMs\":1e999}|delayMs|out of range, was Infinity",
      "{\"delayMs\":-1e999}|delayMs|out of range, was -Infinity",
      "{\"delayMs\":1e300}|delayMs|must be an integer, was 1.0E300",
      "{\"kind\":\"hourly\",\"delayMs\":1}|kind|was \"hourly\"",
      "{\"kind\":7,\"delayMs\":1}|kind|must be a string, was 7",
      "{\"id\":\"has space\",\"delayMs\":1}|id|was \"has space\"",
      "{\"id\":\"\",\"delayMs\":1}|id|was \"\"",
      "{\"topic\":\"a/b\",\"delayMs\":1}|topic|was \"a/b\"",
      "{\"delayMs\":1,\"colour\":\"red\"}|colour|unknown field 'colour'",
      "{}|delayMs|needs delayMs or at",
      "{\"delayMs\":1,\"at\":5}|at|exclusive",
      "{\"at\":\"tomorrow\"}|at|was \"tomorrow\"",
      "{\"at\":-5}|at|was -5",
      "{\"at\":9999999999999}|at|horizon",
      "{\"kind\":\"fixed-rate\"}|periodMs|required for kind fixed-rate",
      "{\"kind\":\"fixed-delay\",\"periodMs\":5}|periodMs|between 10 (the tick)",
      "{\"delayMs\":1,\"periodMs\":100}|periodMs|not allowed for kind once",
      "{\"delayMs\":1,\"maxFirings\":0}|maxFirings|was 0",
      "{\"delayMs\":1,\"misfire\":\"never\"}|misfire|was \"never\"",
  })
  void badDefinitionsAreRejectedNamingTheFieldAndValue(String json, String field, String messagePart) {
    rejects(json, field, messagePart);
  }

  @Test
  void longIdIsRejectedWithAShortenedValue() {
    String id = "x".repeat(201);
    assertThatThrownBy(() -> parse("{\"id\":\"" + id + "\",\"delayMs\":1}"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo("id");
          assertThat(e.getMessage()).hasSizeLessThan(150).contains("xxx…");
        });
    assertThat(parse("{\"id\":\"" + "x".repeat(200) + "\",\"delayMs\":1}").id()).hasSize(200);
  }

  @Test
  void payloadOverTheLimitIsTooLarge() {
    String big = "a".repeat(64 * 1024);
    assertThatThrownBy(() -> parse("{\"delayMs\":1,\"payload\":\"" + big + "\"}"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo("payload");
          assertThat(e.tooLarge()).isTrue();
          assertThat(e.getMessage()).contains("65538");
        });
    assertThat(parse("{\"delayMs\":1,\"payload\":\"" + "a".repeat(64 * 1024 - 2) + "\"}").payload())
        .hasSize(64 * 1024);
  }

  @Test
  void idsOfOnlyDotsAreRefusedNamingIdAndDotsAmongOtherCharactersAreIds() {
    for (String id : new String[] {".", "..", "...", ".".repeat(200)}) {
      assertThatThrownBy(() -> parse("{\"id\":\"" + id + "\",\"delayMs\":1}")).as(id)
          .isInstanceOfSatisfying(ValidationException.class, e -> {
            assertThat(e.field()).isEqualTo("id");
            assertThat(e.getMessage()).contains("not only dots").contains("\"" + id.substring(0, Math.min(3, id.length())));
          });
      assertThat(TimerParser.isId(id)).as(id).isFalse();
      assertThat(TimerParser.ID.matcher(id).matches()).as(id).isFalse();
    }
    for (String id : new String[] {"a.", ".a", "..a", "a..", ".-.", "a.b", ":", "_"}) {
      assertThat(parse("{\"id\":\"" + id + "\",\"delayMs\":1}").id()).isEqualTo(id);
      assertThat(TimerParser.ID.matcher(id).matches()).as(id).isTrue();
    }
  }

  @Test
  void handWrittenIdAndTopicChecksAgreeWithTheirPatterns() {
    for (int c = 0; c <= 0xFFFF; c++) {
      String one = String.valueOf((char) c);
      assertThat(TimerParser.isId(one)).as("id char %d", c).isEqualTo(TimerParser.ID.matcher(one).matches());
      assertThat(TopicRule.isTopic(one)).as("topic char %d", c).isEqualTo(TopicRule.PATTERN.matcher(one).matches());
    }
    java.util.Random rnd = new java.util.Random(42);
    String alphabet = "aZ09._:-/ é\u0000~";
    for (int i = 0; i < 20_000; i++) {
      int len = rnd.nextInt(205);
      StringBuilder sb = new StringBuilder(len);
      for (int j = 0; j < len; j++) {
        sb.append(rnd.nextInt(50) == 0 ? alphabet.charAt(rnd.nextInt(alphabet.length())) : (char) ('a' + rnd.nextInt(26)));
      }
      String s = sb.toString();
      assertThat(TimerParser.isId(s)).as("id %s", s).isEqualTo(TimerParser.ID.matcher(s).matches());
      assertThat(TopicRule.isTopic(s)).as("topic %s", s).isEqualTo(TopicRule.PATTERN.matcher(s).matches());
    }
    assertThat(TimerParser.isId(null)).isFalse();
  }

  @Test
  void touchBodyTakesOnlyAnOptionalDelay() {
    assertThat(parser.parseTouch(null)).isNull();
    assertThat(parser.parseTouch(new JsonObject())).isNull();
    assertThat(parser.parseTouch(new JsonObject("{\"delayMs\":250}"))).isEqualTo(250);
    assertThatThrownBy(() -> parser.parseTouch(new JsonObject("{\"delayMs\":-3}")))
        .hasMessageContaining("was -3");
    assertThatThrownBy(() -> parser.parseTouch(new JsonObject("{\"periodMs\":3}")))
        .hasMessageContaining("unknown field 'periodMs'");
  }
}
