package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tickwheel.core.callback.AddressPolicy;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming read ({@link TimerParser#read}) against the tree path ({@link TimerParser#parse(JsonObject, long)}):
 * for the same text, the same spec or the same error; and a text it does not read (not JSON, or a repeated key) is
 * one the tree path is left to answer.
 */
class TimerStreamReaderTest {

  private static final long NOW = 1_700_000_000_000L;
  /** The server's factories: comments allowed; the streaming one refuses repeated keys. */
  private static final JsonFactory TREE = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
  private static final JsonFactory STRICT = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private final TimerParser plain = new TimerParser(Limits.defaults(10));
  private final TimerParser calendars = new TimerParser(Limits.defaults(10), true, AddressPolicy.STRICT);

  /** What a parse ends in: the spec, or the error's class, field, message and too-large flag. */
  private static String outcome(TimerParser parser, Object body) {
    try {
      TimerSpec s = body instanceof JsonObject o ? parser.parse(o, NOW) : parser.parse((TimerFields) body, NOW);
      return "spec " + s;
    } catch (ValidationException e) {
      return "invalid " + e.field() + " | " + e.getMessage() + " | " + e.tooLarge();
    } catch (RuntimeException e) {
      return "failed " + e.getClass().getName() + " | " + e.getMessage();
    }
  }

  /** The tree path's decoded object, or {@code null} if the text is not one JSON object. */
  private static JsonObject tree(byte[] text) {
    try {
      Object v = JacksonCodec.fromParser(TREE.createParser(text), Object.class);
      return v instanceof JsonObject o ? o : null;
    } catch (DecodeException | IOException e) {
      return null;
    }
  }

  /** The streaming read, or {@code null} if it does not read the text (the server then takes the tree path). */
  private static TimerFields stream(TimerParser parser, byte[] text) {
    try (JsonParser p = STRICT.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      TimerFields f = parser.read(p, text);
      return p.nextToken() == null ? f : null;
    } catch (IOException e) {
      return null;
    }
  }

  private void sameAsTree(TimerParser parser, String json) {
    byte[] text = json.getBytes(StandardCharsets.UTF_8);
    JsonObject tree = tree(text);
    TimerFields read = stream(parser, text);
    assertThat(tree).as("the tree path decodes %s", json).isNotNull();
    assertThat(read).as("the stream reads %s", json).isNotNull();
    assertThat(outcome(parser, read)).as(json).isEqualTo(outcome(parser, tree));
  }

  private TimerSpec streamed(String json) {
    byte[] text = json.getBytes(StandardCharsets.UTF_8);
    TimerFields f = stream(calendars, text);
    assertThat(f).as(json).isNotNull();
    return calendars.parse(f, NOW);
  }

  @Test
  void readsEveryField() {
    String json = "{\"id\":\"job:1\",\"topic\":\"billing.v1\",\"kind\":\"fixed-rate\",\"periodMs\":60000,"
        + "\"maxFirings\":5,\"misfire\":\"skip\",\"at\":\"2023-11-14T22:13:30Z\",\"endAt\":" + (NOW + 3_600_000)
        + ",\"jitterMs\":50,\"callback\":{\"url\":\"https://example.com/hook\",\"timeoutMs\":2000,\"maxAttempts\":3,"
        + "\"minBackoffMs\":100,\"maxBackoffMs\":1000},\"payload\":{\"a\":[1,\"x\",{\"b\":null}],\"t\":true},"
        + "\"nextDueAt\":1,\"firings\":{\"ignored\":[1]},\"createdAt\":\"x\",\"upcoming\":[1,2],\"paused\":false}";
    TimerSpec s = streamed(json);
    assertThat(s.id()).isEqualTo("job:1");
    assertThat(s.topic()).isEqualTo("billing.v1");
    assertThat(s.kind()).isEqualTo(Kind.FIXED_RATE);
    assertThat(s.periodMs()).isEqualTo(60000);
    assertThat(s.maxFirings()).isEqualTo(5);
    assertThat(s.misfire()).isEqualTo(Misfire.SKIP);
    assertThat(s.atMs()).isEqualTo(NOW + 10_000);
    assertThat(s.endAt()).isEqualTo(NOW + 3_600_000);
    assertThat(s.jitterMs()).isEqualTo(50);
    assertThat(s.callback().url()).isEqualTo("https://example.com/hook");
    assertThat(s.callback().maxBackoffMs()).isEqualTo(1000);
    assertThat(s.payload()).isEqualTo("{\"a\":[1,\"x\",{\"b\":null}],\"t\":true}");
    sameAsTree(calendars, json);
    sameAsTree(calendars, "{\"kind\":\"cron\",\"cron\":\"0 9 * * MON-FRI\",\"timeZone\":\"Europe/Paris\","
        + "\"dstGap\":\"shift\",\"dstOverlap\":\"once\"}");
  }

  @Test
  void compactsThePayloadAsTheEncoderWritesIt() {
    assertThat(streamed("{\"delayMs\":1,\"payload\" : { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : \"x y\" } }").payload())
        .isEqualTo("{\"a\":[1,2],\"b\":\"x y\"}");
    assertThat(streamed("{\"delayMs\":1,\"payload\":[\"q\\\"b\\\\n\\n\\t\\r\\b\\f\"]}").payload())
        .isEqualTo("[\"q\\\"b\\\\n\\n\\t\\r\\b\\f\"]");
    // what the encoder writes otherwise: decoded and encoded again
    assertThat(streamed("{\"delayMs\":1,\"payload\":[\"\\/\\u0041\\u00e9\\u001f\"]}").payload())
        .isEqualTo("[\"/Aé\\u001F\"]");
    assertThat(streamed("{\"delayMs\":1,\"payload\":[1.50,1e3,-0.0,2E-2]}").payload())
        .isEqualTo("[1.5,1000.0,-0.0,0.02]");
    assertThat(streamed("{\"delayMs\":1,\"payload\":[-0,1]}").payload()).isEqualTo("[0,1]");
    assertThat(streamed("{\"delayMs\":1,\"payload\":{\"a\":/* c */1 // d\n}}").payload()).isEqualTo("{\"a\":1}");
    assertThat(streamed("{\"delayMs\":1,\"payload\":{\"é\":\"中文 😀\"}}").payload()).isEqualTo("{\"é\":\"中文 😀\"}");
    assertThat(streamed("{\"delayMs\":1,\"payload\":\"text\"}").payload()).isEqualTo("\"text\"");
    assertThat(streamed("{\"delayMs\":1,\"payload\":12345678901234567890123}").payload())
        .isEqualTo("12345678901234567890123");
    assertThat(streamed("{\"delayMs\":1,\"payload\":null}").payload()).isNull();
    assertThat(streamed("{\"delayMs\":1,\"payload\":{}}").payload()).isEqualTo("{}");
    assertThat(streamed("{\"delayMs\":1,\"payload\":[[[[{\"deep\":[{}]}]]]]}").payload())
        .isEqualTo("[[[[{\"deep\":[{}]}]]]]");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"delayMs\":-1}", "{\"delayMs\":\"5\"}", "{\"delayMs\":1.5}", "{\"delayMs\":1.0}", "{\"delayMs\":1e400}",
      "{\"delayMs\":99999999999999999999999}", "{\"delayMs\":{\"a\":1}}", "{\"delayMs\":[1]}", "{\"delayMs\":true}",
      "{\"delayMs\":1,\"at\":5}", "{\"at\":\"yesterday\"}", "{\"at\":-5}", "{\"at\":\"+999999999-12-31T23:59:59Z\"}",
      "{\"id\":\"..\",\"delayMs\":1}", "{\"id\":7,\"delayMs\":1}", "{\"topic\":\"a b\",\"delayMs\":1}",
      "{\"kind\":\"never\",\"delayMs\":1}", "{\"kind\":\"fixed-rate\"}", "{\"kind\":\"fixed-rate\",\"periodMs\":1}",
      "{\"periodMs\":100,\"delayMs\":1}", "{\"maxFirings\":0,\"delayMs\":1}", "{\"misfire\":\"x\",\"delayMs\":1}",
      "{\"bogus\":1,\"delayMs\":-1}", "{\"delayMs\":-1,\"bogus\":{\"x\":[1]},\"other\":2}", "{}",
      "{\"cron\":\"* * * * *\",\"delayMs\":1}", "{\"callback\":{\"url\":\"http://127.0.0.1/\"},\"delayMs\":1}",
      "{\"callback\":\"https://example.com\",\"delayMs\":1}", "{\"callback\":{\"url\":\"https://example.com\","
      + "\"bogus\":1},\"delayMs\":1}", "{\"kind\":\"cron\",\"cron\":\"61 * * * *\"}",
      "{\"timeZone\":\"UTC\",\"dstGap\":\"auto\",\"dstOverlap\":\"auto\",\"delayMs\":1}",
      "{\"timeZone\":\"Europe/Paris\",\"delayMs\":1}", "{\"endAt\":5,\"delayMs\":1}", "{\"jitterMs\":-1,\"delayMs\":1}"})
  void rejectsWithTheTreePathsErrors(String json) {
    sameAsTree(plain, json);
    sameAsTree(calendars, json);
  }

  @Test
  void refusesAPayloadOverTheLimitWithItsCompactSize() {
    String big = "x".repeat(64 * 1024);
    sameAsTree(plain, "{\"delayMs\":1,\"payload\":[\"" + big + "\"]}");
    sameAsTree(plain, "{\"delayMs\":1,\"payload\":[\"" + big.substring(10) + "\"   ,   1]}");
    assertThat(streamed("{\"delayMs\":1,\"payload\":[\"" + big.substring(10) + "\"   ,   1]}").payload())
        .hasSize(64 * 1024 - 10 + 6);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"delayMs\":1,\"delayMs\":2}", "{\"delayMs\":1,\"payload\":{\"a\":1,\"a\":2}}", "{\"delayMs\":1",
      "{\"delayMs\":1,\"payload\":{\"a\":}}", "{\"delayMs\":1} {}", "{\"delayMs\":01}", "{\"delayMs\":1,}",
      "{\"delayMs\":1,\"payload\":[1,]}", "{\"delayMs\":1,\"payload\":{\"a\":\"\u0001\"}}"})
  void leavesBrokenOrAmbiguousTextToTheTreePath(String json) {
    assertThat(stream(plain, json.getBytes(StandardCharsets.UTF_8))).isNull();
  }

  @Test
  void keepsTheLastOfARepeatedFieldLikeTheTreeOnlyThroughTheTreePath() {
    // the server's streaming factory refuses repeated keys; with a parser that does not, a repeated payload key is
    // not copied as text but decoded, so the last value wins as in the tree
    JsonFactory lax = JsonFactory.builder().build();
    byte[] text = "{\"delayMs\":1,\"payload\":{\"a\":1,\"a\":2}}".getBytes(StandardCharsets.UTF_8);
    try (JsonParser p = lax.createParser(text)) {
      p.nextToken();
      assertThat(plain.parse(plain.read(p, text), NOW).payload()).isEqualTo("{\"a\":2}");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void compactCopyFindsTheValueAndStopsAtItsEnd() {
    byte[] src = "{\"p\":{\"a\":[1,{\"b\":\"}]\\\"\"}]} ,\"q\":1}".getBytes(StandardCharsets.US_ASCII);
    assertThat(TimerStreamReader.compactCopy(src, 5)).isEqualTo("{\"a\":[1,{\"b\":\"}]\\\"\"}]}");
    assertThat(TimerStreamReader.compactCopy(src, 4)).isNull();           // not at an object or array
    assertThat(TimerStreamReader.compactCopy("[1,2".getBytes(StandardCharsets.US_ASCII), 0)).isNull();
  }

  // ------------------------------------------------------------------ generated texts

  @Property(tries = 3000)
  void generatedBodiesReadAsTheTreePathReadsThem(@ForAll long seed) {
    Random r = new Random(seed);
    Gen g = new Gen(r);
    String json = g.body();
    byte[] text = json.getBytes(StandardCharsets.UTF_8);
    for (TimerParser parser : List.of(plain, calendars)) {
      JsonObject tree = tree(text);
      TimerFields read = stream(parser, text);
      if (read == null) {
        // only broken text or a repeated key is left to the tree path
        assertThat(tree == null || g.repeated).as(json).isTrue();
        continue;
      }
      assertThat(tree).as(json).isNotNull();
      assertThat(read.payloadText()).as(json).isEqualTo(parser.fields(tree).payloadText());
      assertThat(read.unknown()).as(json).isEqualTo(parser.fields(tree).unknown());
      assertThat(outcome(parser, read)).as(json).isEqualTo(outcome(parser, tree));
    }
  }

  /** Random timer bodies: known, read-only and unknown fields, values of every type, payloads of every shape. */
  private static final class Gen {
    private static final String[] FIELDS = {"id", "topic", "kind", "delayMs", "delayMs", "delayMs", "at", "periodMs",
        "maxFirings", "misfire", "payload", "payload", "payload", "nextDueAt", "firings", "createdAt", "cron",
        "timeZone", "dstGap", "dstOverlap", "endAt", "jitterMs", "callback", "upcoming", "paused", "bogus", "é"};
    private final Random r;
    boolean repeated;

    Gen(Random r) {
      this.r = r;
    }

    String body() {
      StringBuilder sb = new StringBuilder();
      ws(sb).append('{');
      boolean valid = r.nextInt(3) > 0;     // mostly a valid timer with a payload, so that the payload is compared
      int n = valid ? 3 : r.nextInt(6);
      List<String> names = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String name = valid ? new String[] {"delayMs", r.nextBoolean() ? "id" : "topic", "payload"}[i]
            : r.nextInt(8) == 0 ? "delayMs" : FIELDS[r.nextInt(FIELDS.length)];
        repeated |= names.contains(name);
        names.add(name);
        if (i > 0) {
          ws(sb).append(',');
        }
        ws(sb).append('"').append(name).append('"');
        ws(sb).append(':');
        ws(sb);
        value(sb, name, valid);
      }
      ws(sb).append('}');
      ws(sb);
      if (r.nextInt(40) == 0) {
        sb.setLength(Math.max(0, sb.length() - 1 - r.nextInt(4)));    // cut short
      }
      return sb.toString();
    }

    private void value(StringBuilder sb, String name, boolean valid) {
      if (valid) {
        switch (name) {
          case "delayMs" -> sb.append(r.nextInt(100_000));
          case "id" -> sb.append("\"t-").append(r.nextInt(1000)).append('"');
          case "topic" -> sb.append("\"bench\"");
          default -> {
            if (r.nextBoolean()) {
              container(sb, 0);
            } else {
              any(sb, 0);
            }
          }
        }
        return;
      }
      if (r.nextInt(6) == 0) {
        any(sb, 0);
        return;
      }
      switch (name) {
        case "id" -> sb.append(r.nextBoolean() ? "\"t-" + r.nextInt(1000) + "\"" : "\"bad id\"");
        case "topic" -> sb.append(r.nextBoolean() ? "\"bench\"" : "\"a/b\"");
        case "kind" -> sb.append('"').append(new String[] {"once", "fixed-rate", "fixed-delay", "cron", "x"}[r.nextInt(5)])
            .append('"');
        case "delayMs", "periodMs", "maxFirings", "jitterMs" -> number(sb);
        case "at", "endAt" -> sb.append(r.nextBoolean() ? Long.toString(NOW + r.nextInt(100_000))
            : "\"2023-11-14T22:13:2" + r.nextInt(10) + "Z\"");
        case "misfire" -> sb.append(r.nextBoolean() ? "\"skip\"" : "\"fire-all\"");
        case "cron" -> sb.append("\"*/5 * * * *\"");
        case "timeZone" -> sb.append(r.nextBoolean() ? "\"UTC\"" : "\"Europe/Paris\"");
        case "dstGap", "dstOverlap" -> sb.append("\"auto\"");
        case "callback" -> sb.append("{\"url\":\"https://example.com/h\",\"timeoutMs\":").append(1000 + r.nextInt(5))
            .append('}');
        default -> any(sb, 0);
      }
    }

    private void number(StringBuilder sb) {
      switch (r.nextInt(10)) {
        case 0 -> sb.append(-r.nextInt(5));
        case 8 -> sb.append(new String[] {"1.50", "0.10", "100.000", "1.0E2", "-0.0", "12345678.9"}[r.nextInt(6)]);
        case 1 -> sb.append(r.nextInt(5)).append(".0");
        case 2 -> sb.append(r.nextInt(5)).append(".5");
        case 3 -> sb.append("1e").append(r.nextInt(5));
        case 4 -> sb.append("123456789012345678901234");
        case 5 -> sb.append(Long.MAX_VALUE);
        case 6 -> sb.append("-0");
        default -> sb.append(r.nextInt(100_000));
      }
    }

    private void container(StringBuilder sb, int depth) {
      any(sb, depth, r.nextInt(3));
    }

    private void any(StringBuilder sb, int depth) {
      any(sb, depth, depth > 4 ? 3 + r.nextInt(7) : r.nextInt(10));
    }

    private void any(StringBuilder sb, int depth, int k) {
      switch (k) {
        case 0, 1 -> {
          sb.append('{');
          int n = r.nextInt(4);
          List<String> keys = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            if (i > 0) {
              ws(sb).append(',');
            }
            String key = r.nextInt(5) == 0 ? "\"k\"" : string();
            String decoded = new io.vertx.core.json.JsonArray("[" + key + "]").getString(0);
            repeated |= keys.contains(decoded);
            keys.add(decoded);
            ws(sb).append(key);
            ws(sb).append(':');
            ws(sb);
            any(sb, depth + 1);
          }
          ws(sb).append('}');
        }
        case 2 -> {
          sb.append('[');
          int n = r.nextInt(4);
          for (int i = 0; i < n; i++) {
            if (i > 0) {
              ws(sb).append(',');
            }
            ws(sb);
            any(sb, depth + 1);
          }
          ws(sb).append(']');
        }
        case 3, 4 -> sb.append(string());
        case 5, 6 -> number(sb);
        case 7 -> sb.append(r.nextBoolean() ? "true" : "false");
        case 8 -> sb.append("null");
        default -> sb.append(r.nextInt(1000));
      }
    }

    private String string() {
      String[] parts = {"a", "xyz", "\\\"", "\\\\", "\\n", "\\t", "\\/", "\\u0041", "\\u00e9", "\\ud83d\\ude00", "é",
          "中", "😀", " ", "}", "]", ",", ":", "1e5", "-0", "/*", "k"};
      StringBuilder s = new StringBuilder("\"");
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        s.append(parts[r.nextInt(parts.length)]);
      }
      return s.append('"').toString();
    }

    private StringBuilder ws(StringBuilder sb) {
      switch (r.nextInt(12)) {
        case 0 -> sb.append(' ');
        case 1 -> sb.append("\n\t ");
        case 2 -> sb.append("/* c */");
        default -> { }
      }
      return sb;
    }
  }
}
