package io.tickwheel.server.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.ValidationException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StrictJsonTest {

  @ParameterizedTest
  @ValueSource(strings = {"{\"a\":1,\"b\":[1,2.5,\"x\",null,true],\"c\":{\"a\":{\"a\":1}}}", "[{\"a\":1},{\"a\":2}]",
      "\"text\"", "42", "null", "{} // a comment", "{\"a\":\"\\u00e9\",\"\\u00e9\":1}"})
  void decodesWhatVertxDecodesTheSameWay(String text) {
    assertThat(StrictJson.decode(text)).isEqualTo(Json.decodeValue(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "{\"a\":", "{} {}", "{\"a\":1} x", "nope"})
  void refusesWhatVertxRefuses(String text) {
    assertThatThrownBy(() -> StrictJson.decode(text)).isInstanceOf(DecodeException.class);
    assertThatThrownBy(() -> Json.decodeValue(text)).isInstanceOf(DecodeException.class);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"delayMs\":1,\"delayMs\":2}                 | delayMs | duplicate key 'delayMs' at /delayMs",
      "{\"payload\":{\"a\":1,\"b\":2,\"a\":1}}         | payload | duplicate key 'a' at /payload/a",
      "{\"timers\":[{\"id\":\"x\"},{\"id\":1,\"id\":2}]} | timers  | duplicate key 'id' at /timers/1/id",
      "[{\"k\":1,\"k\":1}]                           | 0       | duplicate key 'k' at /0/k",
      "{\"a/b\":1,\"a/b\":2}                         | a/b     | duplicate key 'a/b' at /a~1b"})
  void refusesARepeatedKeyAtAnyDepthNamingItAndWhereItIs(String text, String field, String message) {
    assertThatThrownBy(() -> StrictJson.decode(text)).isInstanceOfSatisfying(ValidationException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.getMessage()).isEqualTo(message + " (an object takes each key once)");
    });
  }

  @org.junit.jupiter.api.Test
  void aLongKeyIsShortenedInTheError() {
    String key = "k".repeat(500);
    assertThatThrownBy(() -> StrictJson.decode("{\"" + key + "\":1,\"" + key + "\":2}"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.field()).hasSizeLessThan(70);
          assertThat(e.getMessage()).hasSizeLessThan(200);
        });
  }
}
