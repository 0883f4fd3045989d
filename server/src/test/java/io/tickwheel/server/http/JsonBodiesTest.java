package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
