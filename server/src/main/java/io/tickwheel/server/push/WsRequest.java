package io.tickwheel.server.push;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.wire.StrictJson;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A client's WebSocket message, validated: {@code {"op":"subscribe","topics":[…],"from":SEQ?}},
 * {@code {"op":"unsubscribe","topics":[…]}}, {@code {"op":"ping"}}, or a write command ({@code schedule},
 * {@code put}, {@code touch}, {@code cancel}) with its {@code ref}, whose own fields {@link WsCommands} validates.
 * A field the op does not take is refused, as an unknown field of an HTTP body is: by {@link #parse(String)} for
 * subscribe, unsubscribe and ping ({@link #FIELDS}), by the command's executor for the write commands (a result with
 * its {@code ref}; {@link WsCommands#checkFields}). Stateless parsing, thread safe.
 */
sealed interface WsRequest {

  /** Subscribe to {@code topics} ({@code "*"} = all); {@code from} is the last seq the client saw, or {@code null}. */
  record Subscribe(List<String> topics, String from) implements WsRequest {}

  /** Stop receiving {@code topics}. */
  record Unsubscribe(List<String> topics) implements WsRequest {}

  /** Answered with {@code {"type":"pong"}}. */
  record Ping() implements WsRequest {}

  /** A write command with the client's {@code ref} and its arguments. */
  record Command(WsCommands.Op op, String ref, WsCommands.Args args) implements WsRequest {}

  /** Longest {@code ref}, characters. */
  int MAX_REF_LENGTH = 200;

  /** The fields of the messages that are not write commands, by op (the commands': {@link WsCommands.Op#fields}). */
  java.util.Map<String, Set<String>> FIELDS = java.util.Map.of(
      "subscribe", Set.of("op", "topics", "from"),
      "unsubscribe", Set.of("op", "topics"),
      "ping", Set.of("op"));

  /** What an unknown or missing op is told. */
  String OPS = "subscribe, unsubscribe, ping, schedule, put, touch or cancel";

  /**
   * Parses one text message.
   *
   * @throws ValidationException naming the field and the bad value: not JSON, not an object, unknown op,
   *                             missing or bad topics, bad from
   */
  static WsRequest parse(String text) {
    return decoded(text.getBytes(StandardCharsets.UTF_8));
  }

  /** {@link #parse(String)} of the message's UTF-8 bytes (its text made only for an error message). */
  private static WsRequest decoded(byte[] utf8) {
    JsonObject o;
    try {
      Object v = StrictJson.decode(utf8);
      if (!(v instanceof JsonObject obj)) {
        throw new ValidationException(null, "message must be a JSON object like {\"op\":\"subscribe\",…}, was "
            + ValidationException.shown(new String(utf8, StandardCharsets.UTF_8).strip()));    // JSON text, as it is
      }
      o = obj;
    } catch (DecodeException e) {
      throw new ValidationException(null, "message is not valid JSON: "
          + TopicRule.quote(new String(utf8, StandardCharsets.UTF_8)));
    }
    Object op = o.getValue("op");
    if (op == null) {
      throw new ValidationException("op", "op is required: " + OPS);
    }
    if (!(op instanceof String name)) {
      throw new ValidationException("op", "op must be a string (" + OPS + "), was "
          + TopicRule.quote(op));
    }
    switch (name) {
      case "subscribe":
        WsCommands.checkFields(o, name, FIELDS.get(name));
        return new Subscribe(topics(o), from(o));
      case "unsubscribe":
        WsCommands.checkFields(o, name, FIELDS.get(name));
        return new Unsubscribe(topics(o));
      case "ping":
        WsCommands.checkFields(o, name, FIELDS.get(name));
        return new Ping();
      default:
        WsCommands.Op command = WsCommands.Op.of(name);
        if (command == null) {
          throw new ValidationException("op", "op " + TopicRule.quote(name) + " is unknown: expected " + OPS);
        }
        return new Command(command, ref(o), WsCommands.Args.of(o));
    }
  }

  /**
   * Parses one text message from its UTF-8 bytes: a write command of the usual shape (a string {@code op} naming
   * one, a valid {@code ref}, and a {@code timer} object, or a string {@code id} and a numeric or null
   * {@code delayMs}) straight from its tokens, its timer read by {@code commands} ({@link WsCommands#readTimer});
   * any other message as {@link #parse(String)} does, which also gives every error. The result is what
   * {@link #parse(String)} would answer, the arguments read instead of decoded.
   */
  static WsRequest parse(byte[] utf8, WsCommands commands) {
    Command c = ascii(utf8) ? command(utf8, commands) : null;
    return c != null ? c : decoded(utf8);
  }

  /** A command of the usual shape read from its tokens, or {@code null} for any other message. */
  private static Command command(byte[] utf8, WsCommands commands) {
    try (JsonParser p = StrictJson.FACTORY.createParser(utf8)) {    // a repeated key: decoded() refuses it
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String op = null;
      String ref = null;
      String id = null;
      TimerFields timer = null;
      boolean hasDelay = false;
      Number delay = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "op", "ref", "id" -> {
            if (v != JsonToken.VALUE_STRING) {
              return null;
            }
            String text = p.getText();
            switch (name) {
              case "op" -> op = text;
              case "ref" -> ref = text;
              default -> id = text;
            }
          }
          case "timer" -> {
            if (v != JsonToken.START_OBJECT || (timer = commands.readTimer(p, utf8)) == null) {
              return null;
            }
          }
          case "delayMs" -> {
            hasDelay = true;
            if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
              delay = p.getNumberValue();
            } else if (v != JsonToken.VALUE_NULL) {
              return null;
            }
          }
          default -> {
            return null;    // a field no command takes: parse(String) and the executor refuse it
          }
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null || op == null || ref == null || ref.isEmpty()
          || ref.length() > MAX_REF_LENGTH) {
        return null;
      }
      WsCommands.Op command = WsCommands.Op.of(op);
      if (command == null) {
        return null;
      }
      boolean shaped = switch (command) {    // its fields and no other (else parse(String) and the executor refuse)
        case SCHEDULE, PUT -> timer != null && id == null && !hasDelay;
        case TOUCH -> id != null && timer == null;
        case CANCEL -> id != null && timer == null && !hasDelay;
      };
      return shaped ? new Command(command, ref, new WsCommands.Args(null, timer, id, hasDelay, delay)) : null;
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean ascii(byte[] b) {
    for (byte c : b) {
      if (c < 0) {
        return false;
      }
    }
    return true;
  }

  private static String ref(JsonObject o) {
    Object v = o.getValue("ref");
    if (!(v instanceof String r) || r.isEmpty() || r.length() > MAX_REF_LENGTH) {
      throw new ValidationException("ref", "ref must be a string of 1 to " + MAX_REF_LENGTH
          + " characters (it names the command's result), was " + (v == null ? "missing" : TopicRule.quote(v)));
    }
    return r;
  }

  private static List<String> topics(JsonObject o) {
    Object v = o.getValue("topics");
    if (!(v instanceof JsonArray arr) || arr.isEmpty()) {
      throw new ValidationException("topics", "topics must be a non-empty array of topic names (\"*\" for all), was "
          + (v == null ? "missing" : TopicRule.quote(v)));
    }
    if (arr.size() > FiringHub.MAX_TOPICS_PER_SUBSCRIBER) {
      throw new ValidationException("topics", "topics may list at most " + FiringHub.MAX_TOPICS_PER_SUBSCRIBER
          + " topics, had " + arr.size());
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < arr.size(); i++) {
      out.add(TopicRule.checkSubscription("topics[" + i + "]", arr.getValue(i)));
    }
    return List.copyOf(out);
  }

  /** The cursor as given (an integer seq as its decimal text); the hub parses it ({@link FiringCursor}). */
  private static String from(JsonObject o) {
    Object v = o.getValue("from");
    if (v == null) {
      return null;
    }
    if ((v instanceof Integer || v instanceof Long) && ((Number) v).longValue() >= 0) {
      return Long.toString(((Number) v).longValue());
    }
    if (v instanceof String str && !str.isEmpty()) {
      return str;
    }
    throw new ValidationException("from", "from must be the cursor of a firing (a string) or, on a single node, "
        + "the integer seq >= 0 of the last firing you saw, was " + TopicRule.quote(v));
  }
}
