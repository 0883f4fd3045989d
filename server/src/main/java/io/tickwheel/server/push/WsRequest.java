package io.tickwheel.server.push;

import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A client's WebSocket message, validated: {@code {"op":"subscribe","topics":[…],"from":SEQ?}},
 * {@code {"op":"unsubscribe","topics":[…]}}, {@code {"op":"ping"}}, or a write command ({@code schedule},
 * {@code put}, {@code touch}, {@code cancel}) with its {@code ref}, whose own fields {@link WsCommands} validates.
 * Unknown fields are ignored. Stateless parsing, thread safe.
 */
sealed interface WsRequest {

  /** Subscribe to {@code topics} ({@code "*"} = all); {@code from} is the last seq the client saw, or {@code null}. */
  record Subscribe(List<String> topics, String from) implements WsRequest {}

  /** Stop receiving {@code topics}. */
  record Unsubscribe(List<String> topics) implements WsRequest {}

  /** Answered with {@code {"type":"pong"}}. */
  record Ping() implements WsRequest {}

  /** A write command with the client's {@code ref}; {@code message} is the whole message. */
  record Command(WsCommands.Op op, String ref, JsonObject message) implements WsRequest {}

  /** Longest {@code ref}, characters. */
  int MAX_REF_LENGTH = 200;

  /** What an unknown or missing op is told. */
  String OPS = "subscribe, unsubscribe, ping, schedule, put, touch or cancel";

  /**
   * Parses one text message.
   *
   * @throws ValidationException naming the field and the bad value: not JSON, not an object, unknown op,
   *                             missing or bad topics, bad from
   */
  static WsRequest parse(String text) {
    JsonObject o;
    try {
      Object v = io.vertx.core.json.Json.decodeValue(text);
      if (!(v instanceof JsonObject obj)) {
        throw new ValidationException(null, "message must be a JSON object like {\"op\":\"subscribe\",…}, was "
            + TopicRule.quote(text));
      }
      o = obj;
    } catch (DecodeException e) {
      throw new ValidationException(null, "message is not valid JSON: " + TopicRule.quote(text));
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
        return new Subscribe(topics(o), from(o));
      case "unsubscribe":
        return new Unsubscribe(topics(o));
      case "ping":
        return new Ping();
      default:
        WsCommands.Op command = WsCommands.Op.of(name);
        if (command == null) {
          throw new ValidationException("op", "op " + TopicRule.quote(name) + " is unknown: expected " + OPS);
        }
        return new Command(command, ref(o), o);
    }
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
