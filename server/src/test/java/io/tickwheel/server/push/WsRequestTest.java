package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.ValidationException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A WebSocket message read from its bytes: commands of the usual shape from their tokens, the rest decoded. */
class WsRequestTest {

  private static final long NOW = 1_700_000_000_000L;
  private final TimerParser parser = new TimerParser(Limits.defaults(10));
  private final WsCommands commands = new WsCommands() {
    @Override
    public Future<Result> execute(Op op, Args args) {
      throw new UnsupportedOperationException();
    }

    @Override
    public TimerFields readTimer(JsonParser p, byte[] src) throws IOException {
      return parser.read(p, src);
    }
  };

  private WsRequest parse(String text) {
    return WsRequest.parse(text.getBytes(StandardCharsets.UTF_8), commands);
  }

  @Test
  void readsCommandsOfTheUsualShapeFromTheirTokens() {
    WsRequest.Command c = (WsRequest.Command) parse(
        "{\"op\":\"schedule\",\"ref\":\"r1\",\"timer\":{\"id\":\"a\",\"delayMs\":5,\"payload\":{ \"n\" : 1 }}}");
    assertThat(c.op()).isEqualTo(WsCommands.Op.SCHEDULE);
    assertThat(c.ref()).isEqualTo("r1");
    assertThat(c.args().message()).isNull();
    assertThat(parser.parse(c.args().timer(), NOW).payload()).isEqualTo("{\"n\":1}");
    assertThat(parser.parse(c.args().timer(), NOW))
        .isEqualTo(parser.parse(new JsonObject("{\"id\":\"a\",\"delayMs\":5,\"payload\":{\"n\":1}}"), NOW));

    WsRequest.Command t = (WsRequest.Command) parse("{\"ref\":\"r2\",\"delayMs\":7,\"id\":\"a\",\"op\":\"touch\"}");
    assertThat(t.op()).isEqualTo(WsCommands.Op.TOUCH);
    assertThat(t.args()).isEqualTo(new WsCommands.Args(null, null, "a", true, 7));
    WsRequest.Command n = (WsRequest.Command) parse("{\"op\":\"touch\",\"ref\":\"r3\",\"id\":\"a\",\"delayMs\":null}");
    assertThat(n.args()).isEqualTo(new WsCommands.Args(null, null, "a", true, null));
    WsRequest.Command x = (WsRequest.Command) parse("{\"op\":\"cancel\",\"ref\":\"r4\",\"id\":\"a\"}");
    assertThat(x.args()).isEqualTo(new WsCommands.Args(null, null, "a", false, null));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"op\":\"schedule\",\"ref\":\"r\",\"timer\":5}", "{\"op\":\"schedule\",\"ref\":\"r\"}",
      "{\"op\":\"put\",\"ref\":\"r\",\"timer\":null}", "{\"op\":\"touch\",\"ref\":\"r\",\"id\":5}",
      "{\"op\":\"touch\",\"ref\":\"r\",\"id\":\"a\",\"delayMs\":\"5\"}", "{\"op\":\"cancel\",\"ref\":\"r\"}",
      "{\"op\":\"schedule\",\"ref\":\"r\",\"timer\":{\"delayMs\":1,\"payload\":{\"é\":1}}}",
      // a field the op does not take: the executor refuses it with the command's ref
      "{\"op\":\"schedule\",\"ref\":\"r\",\"timer\":{\"id\":\"a\"},\"x\":[1]}",
      "{\"op\":\"schedule\",\"ref\":\"r\",\"timer\":{\"id\":\"a\"},\"delayMs\":5}",
      "{\"op\":\"put\",\"ref\":\"r\",\"timer\":{\"id\":\"a\"},\"id\":\"a\"}",
      "{\"op\":\"touch\",\"ref\":\"r\",\"id\":\"a\",\"delay\":1000}",
      "{\"op\":\"touch\",\"ref\":\"r\",\"id\":\"a\",\"timer\":{}}",
      "{\"op\":\"cancel\",\"ref\":\"r\",\"id\":\"a\",\"delayMs\":5}"})
  void decodesCommandsOfAnyOtherShapeAsAWhole(String text) {
    WsRequest.Command c = (WsRequest.Command) parse(text);
    assertThat(c.args().message()).isEqualTo(new JsonObject(text));
    assertThat(c.args().timer()).isNull();
  }

  @Test
  void aMessageThatIsJsonButNotAnObjectIsShownAsItIs() {
    assertThatThrownBy(() -> WsRequest.parse(" \"x\" ")).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.getMessage()).endsWith(", was \"x\""));
    assertThatThrownBy(() -> WsRequest.parse("[1]")).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.getMessage()).endsWith(", was [1]"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"op\":\"cancel\",\"ref\":\"r\",\"id\":\"a\",\"id\":\"b\"}",
      "{\"op\":\"schedule\",\"ref\":\"r\",\"timer\":{\"id\":\"a\",\"payload\":{\"k\":1,\"k\":2}}}",
      "{\"op\":\"subscribe\",\"topics\":[\"a\"],\"topics\":[\"b\"]}"})
  void aMessageThatRepeatsAKeyIsRefusedByEitherPath(String text) {
    assertThatThrownBy(() -> parse(text)).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.getMessage()).startsWith("duplicate key '"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"op\":\"ping\"}", "{\"op\":\"subscribe\",\"topics\":[\"a\",\"b\"],\"from\":3}", "{\"op\":\"unsubscribe\","
      + "\"topics\":[\"*\"]}"})
  void otherMessagesAreWhatTheDecodedParseGives(String text) {
    assertThat(parse(text)).isEqualTo(WsRequest.parse(text));
  }

  @Test
  void aFieldTheOpDoesNotTakeIsRefusedNamingItAndWhatTheOpTakes() {
    assertThatThrownBy(() -> WsRequest.parse("{\"op\":\"subscribe\",\"topics\":[\"a\"],\"form\":5}"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo("form");
          assertThat(e.getMessage()).isEqualTo("unknown field 'form' (op \"subscribe\" takes from, topics)");
        });
    assertThatThrownBy(() -> WsRequest.parse("{\"op\":\"ping\",\"x\":1}")).isInstanceOfSatisfying(
        ValidationException.class, e -> assertThat(e.getMessage()).isEqualTo(
            "unknown field 'x' (op \"ping\" takes no other)"));
    assertThatThrownBy(() -> WsCommands.checkFields(new JsonObject("{\"op\":\"touch\",\"ref\":\"r\",\"delay\":1}"),
        "touch", WsCommands.Op.TOUCH.fields)).isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).isEqualTo("delay");
          assertThat(e.getMessage()).isEqualTo("unknown field 'delay' (op \"touch\" takes delayMs, id, ref)");
        });
    String longName = "n".repeat(500);
    assertThatThrownBy(() -> WsRequest.parse(new JsonObject().put("op", "ping").put(longName, 1).encode()))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).as("shortened as other bad values are").isEqualTo("n".repeat(60) + "…");
          assertThat(e.getMessage()).hasSizeLessThan(120);
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "not json", "[1]", "{\"op\":5}", "{}", "{\"op\":\"fly\"}", "{\"op\":\"schedule\",\"timer\":{}}",
      "{\"op\":\"schedule\",\"ref\":\"\",\"timer\":{}}", "{\"op\":\"cancel\",\"ref\":\"r\",\"id\":\"a\"} x",
      "{\"op\":\"subscribe\"}", "{\"op\":\"subscribe\",\"topics\":[\"a\"],\"form\":5}",
      "{\"op\":\"ping\",\"ref\":\"1\"}", "{\"op\":\"unsubscribe\",\"topics\":[\"a\"],\"from\":1}"})
  void errorsAreTheDecodedParsesErrors(String text) {
    ValidationException expected = null;
    try {
      WsRequest.parse(text);
    } catch (ValidationException e) {
      expected = e;
    }
    assertThat(expected).as(text).isNotNull();
    String field = expected.field();
    String message = expected.getMessage();
    assertThatThrownBy(() -> parse(text)).isInstanceOfSatisfying(ValidationException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.getMessage()).isEqualTo(message);
    });
  }
}
