package io.tickwheel.server.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.wire.StrictJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import io.vertx.ext.web.RoutingContext;

/** Reads a request body (already limited to 1 MiB by the body handler) as a JSON object. Stateless. */
final class JsonBodies {

  private JsonBodies() {}

  // Bodies are read from their bytes with StrictJson's factory: Vert.x's Json.decodeValue(Buffer) reads through an
  // InputStream over the buffer, which was a third of the decoding time of a single-timer POST (encoding detection
  // and stream reads for a 100-byte body). A repeated key sends a body from the token paths to the tree path, which
  // refuses it.

  /**
   * Reads a timer body straight from its bytes ({@link TimerParser#read}), without a JSON tree; {@code null} when the
   * body is anything but one well-formed JSON object without repeated keys. Callers then take the tree path
   * ({@link #object(Buffer, boolean)} and {@link TimerParser#parse(JsonObject, long)}), which answers such a body
   * with the same error or the same fields as before: this only saves work on bodies that are fine. Any thread.
   */
  static TimerFields timer(Buffer b, TimerParser parser) {
    if (b == null || b.length() == 0) {
      return null;
    }
    return timer(b.getBytes(), parser);
  }

  /** {@link #timer(Buffer, TimerParser)} over bytes (not changed afterwards). */
  static TimerFields timer(byte[] bytes, TimerParser parser) {
    try (JsonParser p = StrictJson.FACTORY.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      TimerFields f = parser.read(p, bytes);
      return p.nextToken() == null ? f : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Reads a batch body {@code {"timers":[{…},…]}} straight from its bytes, each item as {@link #timer} reads one;
   * {@code null} when the body is anything else (another field, an item that is not an object, more than
   * {@code max} items, a repeated key, not one well-formed object): the tree path then answers it. Any thread.
   */
  static List<TimerFields> timers(Buffer b, TimerParser parser, int max) {
    if (b == null || b.length() == 0) {
      return null;
    }
    byte[] bytes = b.getBytes();
    try (JsonParser p = StrictJson.FACTORY.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME
          || !"timers".equals(p.currentName()) || p.nextToken() != JsonToken.START_ARRAY) {
        return null;
      }
      List<TimerFields> items = new ArrayList<>();
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
        if (items.size() == max) {
          return null;
        }
        items.add(parser.read(p, bytes));
      }
      if (t != JsonToken.END_ARRAY || p.nextToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      return items;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }


  /**
   * The body as a JSON object.
   *
   * @param optional whether the body may be left out: an empty body, or the JSON value {@code null} (what generated
   *                 clients send for an optional body they were given none for), returns {@code null}
   * @throws ApiException 400 when the body is missing, not JSON, not an object, or repeats a key in an object
   */
  static JsonObject object(RoutingContext rc, boolean optional) {
    return object(rc.body() == null ? null : rc.body().buffer(), optional);
  }

  /** {@link #object(RoutingContext, boolean)} for a body already taken from the request. Any thread. */
  static JsonObject object(Buffer b, boolean optional) {
    if (b == null || b.length() == 0 || isBlank(b)) {
      if (optional) {
        return null;
      }
      throw ApiException.invalid(null, "a JSON object body is required");
    }
    Object v;
    try {
      v = decode(b);
    } catch (DecodeException e) {
      throw ApiException.invalid(null, "the body is not valid JSON: " + firstLine(e.getMessage()));
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    } catch (RuntimeException e) {
      throw ApiException.invalid(null, "the body is not valid JSON");
    }
    if (v == null && optional) {
      return null;
    }
    if (!(v instanceof JsonObject o)) {
      throw ApiException.invalid(null, "the body must be a JSON object, was " + kind(v));
    }
    return o;
  }

  /**
   * Decodes a JSON value as {@code Json.decodeValue(Buffer)} does, a repeated key refused ({@link StrictJson}), from
   * the buffer's bytes.
   *
   * @throws DecodeException     if it is not valid JSON
   * @throws ValidationException if an object repeats a key
   */
  static Object decode(Buffer b) {
    return StrictJson.decode(b.getBytes());
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    return ErrorResponses.shorten(nl < 0 ? m : m.substring(0, nl));
  }

  private static boolean isBlank(Buffer b) {
    for (int i = 0; i < b.length(); i++) {
      byte c = b.getByte(i);
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return false;
      }
    }
    return true;
  }

  static String kind(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof io.vertx.core.json.JsonArray) {
      return "an array";
    }
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Number) {
      return "a number";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return v.getClass().getSimpleName();
  }
}
