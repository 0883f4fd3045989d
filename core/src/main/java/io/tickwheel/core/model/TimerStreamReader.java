package io.tickwheel.core.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a timer object straight from a Jackson token stream into {@link TimerFields}, without a JSON tree: scalars as
 * Vert.x's decoding yields them ({@code getText}, {@code getNumberValue}), unknown and read-only fields skipped.
 *
 * <p>The payload, when it is an object or an array, is copied from the input bytes as compact JSON text (whitespace
 * outside strings dropped) when that text is what decoding and re-encoding it would write: ASCII only, no comments, no
 * fractions or exponents, no {@code -0}, only the escapes the encoder writes itself ({@code \" \\ \b \f \n \r \t}),
 * and no repeated key (the parser must have {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION} on, which fails the
 * read on any repeated key). Any other payload is decoded and re-encoded ({@link PayloadJson}), as the tree path does.
 * Other objects and arrays (the {@code callback}, or a value of the wrong type) are decoded as Vert.x decodes them.
 *
 * <p>Stateless, thread safe.
 */
final class TimerStreamReader {

  private TimerStreamReader() {}

  /**
   * Reads the object whose {@code START_OBJECT} is {@code p}'s current token, up to and including its
   * {@code END_OBJECT}.
   *
   * @param src the bytes {@code p} reads, from offset 0 (for the payload's text), or {@code null}: the payload is
   *            then decoded and re-encoded
   * @throws IOException if the text is not valid JSON (the parser's own errors, repeated keys included)
   */
  static TimerFields read(JsonParser p, byte[] src, boolean calendars) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalStateException("not at the start of an object: " + p.currentToken());
    }
    boolean raw = src != null && p.isEnabled(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    TimerFields f = new TimerFields();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      int i = TimerFields.index(name, calendars);
      JsonToken v = p.nextToken();
      if (i < 0) {
        if (i == TimerFields.UNKNOWN) {
          f.unknown(name);
        }
        p.skipChildren();
      } else if (i == TimerFields.PAYLOAD && raw && (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY)) {
        String text = compactCopy(src, (int) p.currentTokenLocation().getByteOffset());
        if (text != null) {
          p.skipChildren();
          f.payloadText(text);
        } else {
          f.set(i, value(p, v));
        }
      } else {
        f.set(i, value(p, v));
      }
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IllegalStateException("object not closed: " + t);
    }
    return f;
  }

  /**
   * The value whose first token {@code t} is {@code p}'s current one, as Vert.x's {@code JacksonCodec} decodes it
   * (an object as a {@code JsonObject} over a {@code LinkedHashMap}, a repeated key's last value kept).
   */
  static Object value(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> new JsonObject(object(p));
      case START_ARRAY -> new JsonArray(array(p));
      default -> scalar(p, t);
    };
  }

  private static Object any(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> array(p);
      default -> scalar(p, t);
    };
  }

  private static Object scalar(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IllegalStateException("unexpected token " + t);
    };
  }

  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      m.put(name, any(p, p.nextToken()));
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IllegalStateException("object not closed: " + t);
    }
    return m;
  }

  private static List<Object> array(JsonParser p) throws IOException {
    List<Object> l = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw new IllegalStateException("array not closed");
      }
      l.add(any(p, t));
    }
    return l;
  }

  /**
   * The compact JSON text of the object or array starting at {@code src[start]}, copied, if that text is what
   * decoding and re-encoding it writes (see the class comment); else {@code null}. Does not check that the text is
   * valid JSON: the parser does, skipping the same value.
   */
  static String compactCopy(byte[] src, int start) {
    if (start < 0 || start >= src.length || (src[start] != '{' && src[start] != '[')) {
      return null;
    }
    int depth = 0;
    int spaces = 0;
    boolean inString = false;
    byte prev = 0;
    int i = start;
    for (; i < src.length; i++) {
      byte c = src[i];
      if (c < 0) {
        return null;                                  // non-ASCII: decoded and re-encoded
      }
      if (inString) {
        if (c == '"') {
          inString = false;
        } else if (c == '\\') {
          if (++i >= src.length) {
            return null;
          }
          byte e = src[i];
          if (e != '"' && e != '\\' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
            return null;                              // \/ and \\u…: the encoder writes them otherwise
          }
        } else if (c < 0x20) {
          return null;
        }
      } else {
        switch (c) {
          case '"' -> inString = true;
          case '{', '[' -> depth++;
          case '}', ']' -> depth--;
          case ' ', '\t', '\n', '\r' -> spaces++;
          case '.', '/' -> {
            return null;                              // a fraction; a comment
          }
          case 'e', 'E' -> {
            if (prev >= '0' && prev <= '9') {
              return null;                            // an exponent
            }
          }
          case '0' -> {
            if (prev == '-') {
              return null;                            // -0 is written 0
            }
          }
          default -> { }
        }
        if (depth == 0) {
          break;
        }
      }
      prev = c;
    }
    if (i >= src.length) {
      return null;
    }
    int end = i + 1;
    if (spaces == 0) {
      return new String(src, start, end - start, StandardCharsets.ISO_8859_1);
    }
    byte[] out = new byte[end - start - spaces];
    int n = 0;
    inString = false;
    for (int j = start; j < end; j++) {
      byte c = src[j];
      if (inString) {
        out[n++] = c;
        if (c == '\\') {
          out[n++] = src[++j];
        } else if (c == '"') {
          inString = false;
        }
      } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        out[n++] = c;
        inString = c == '"';
      }
    }
    return new String(out, 0, n, StandardCharsets.ISO_8859_1);
  }
}
