package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TimerParser;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {

  @Test
  void decodesFromTheBytesExactlyAsVertxJsonDecodeValueDoes() {
    List<String> inputs = List.of(
        "{\"id\":\"a\",\"delayMs\":5,\"payload\":{\"x\":[1,2.5,true,null,\"é\"]}}",
        "[1,{\"a\":{}}]", "\"text\"", "42", "9223372036854775808", "1e400", "true", "null",
        "{\"a\":1} /* a comment, which Vert.x allows */", "  {\"b\" : \"\\u00e9\\n\"}  ");
    for (String in : inputs) {
      Object expected = Json.decodeValue(Buffer.buffer(in));
      assertThat(JsonBodies.decode(Buffer.buffer(in))).as(in).isEqualTo(expected);
    }
  }

  @Test
  void rejectsWhatVertxRejectsWithADecodeException() {
    for (String in : List.of("{\"a\":1} {\"b\":2}", "{\"a\":", "{a:1}", "[1,]x", "")) {
      assertThatThrownBy(() -> Json.decodeValue(Buffer.buffer(in))).as(in).isInstanceOf(DecodeException.class);
      assertThatThrownBy(() -> JsonBodies.decode(Buffer.buffer(in))).as(in).isInstanceOf(DecodeException.class);
    }
  }

  private static final long NOW = 1_700_000_000_000L;
  private final TimerParser parser = new TimerParser(Limits.defaults(10));

  @Test
  void readsAWellFormedTimerBodyFromItsTokensAndLeavesAnyOtherToTheTreePath() {
    String body = " {\"id\":\"a\",\"delayMs\":5,\"payload\": {\"x\": [1, true]}} /* c */ ";
    TimerFields f = JsonBodies.timer(Buffer.buffer(body), parser);
    assertThat(f).isNotNull();
    assertThat(parser.parse(f, NOW)).isEqualTo(parser.parse(JsonBodies.object(Buffer.buffer(body), false), NOW));
    for (String other : List.of("", "  ", "null", "[1]", "{\"a\":", "{} {}", "{\"delayMs\":1,\"delayMs\":2}")) {
      assertThat(JsonBodies.timer(Buffer.buffer(other), parser)).as(other).isNull();
    }
  }

  @Test
  void readsAWellFormedBatchFromItsTokensAndLeavesAnyOtherToTheTreePath() {
    List<TimerFields> items = JsonBodies.timers(Buffer.buffer(
        "{\"timers\":[{\"delayMs\":1},{\"delayMs\":-1},{\"bogus\":1}]}"), parser, 3);
    assertThat(items).hasSize(3);
    assertThat(parser.parse(items.get(0), NOW).delayMs()).isEqualTo(1);
    assertThatThrownBy(() -> parser.parse(items.get(1), NOW)).hasMessageContaining("delayMs must be between");
    assertThatThrownBy(() -> parser.parse(items.get(2), NOW)).hasMessageContaining("unknown field 'bogus'");
    for (String other : List.of("{\"timers\":[{},{},{},{}]}", "{\"timers\":[1]}", "{\"timers\":{}}",
        "{\"timers\":[],\"x\":1}", "{\"x\":1,\"timers\":[]}", "{\"timers\":[{\"a\":1,\"a\":1}]}", "[]",
        "{\"timers\":[{}]")) {
      assertThat(JsonBodies.timers(Buffer.buffer(other), parser, 3)).as(other).isNull();
    }
  }
}
