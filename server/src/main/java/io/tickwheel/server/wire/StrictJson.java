package io.tickwheel.server.wire;

import static io.tickwheel.core.model.ValidationException.shown;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tickwheel.core.model.ValidationException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A client's JSON text decoded as Vert.x's {@code Json.decodeValue} decodes it ({@code JsonObject}, {@code JsonArray},
 * {@code String}, {@code Number}, {@code Boolean} or {@code null}; comments allowed; a trailing token refused), except
 * that a key repeated in any object, at any depth, is refused: a body, a WebSocket message or an import line such as
 * {@code {"delayMs":1000,"delayMs":600000}} would otherwise be read as its last value, the other dropped unseen.
 * Stateless, thread safe.
 */
public final class StrictJson {

  /** Vert.x's settings (comments allowed) with repeated keys refused. */
  public static final JsonFactory FACTORY = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static final String DUPLICATE = "Duplicate field '";

  private StrictJson() {}

  /**
   * @param utf8 the text's UTF-8 bytes (not changed meanwhile)
   * @return the decoded value
   * @throws DecodeException     if it is not one well-formed JSON value
   * @throws ValidationException if an object repeats a key: {@code field} the top-level key the repeat is in (the
   *                             key itself at the top level), the message naming the key and its JSON Pointer
   */
  public static Object decode(byte[] utf8) {
    JsonParser p;
    try {
      p = FACTORY.createParser(utf8);
    } catch (IOException e) {
      throw new DecodeException("Failed to decode: " + e.getMessage(), e);
    }
    return decode(p);
  }

  /** {@link #decode(byte[])} of a text. */
  public static Object decode(String text) {
    return decode(text.getBytes(StandardCharsets.UTF_8));
  }

  private static Object decode(JsonParser p) {
    try {
      return JacksonCodec.fromParser(p, Object.class);      // closes the parser
    } catch (DecodeException e) {
      if (e.getCause() instanceof JsonParseException j && j.getOriginalMessage() != null
          && j.getOriginalMessage().startsWith(DUPLICATE)) {
        throw duplicate(p.getParsingContext().pathAsPointer());
      }
      throw e;
    }
  }

  /** The error for a repeated key at {@code at} (its pointer names the key). */
  static ValidationException duplicate(JsonPointer at) {
    String key = at.last() == null ? "" : at.last().getMatchingProperty();
    return new ValidationException(shown(at.getMatchingProperty()), "duplicate key '"
        + shown(key) + "' at " + shown(at.toString()) + " (an object takes each key once)");
  }
}
