package io.tickwheel.client;

import io.vertx.core.json.JsonObject;

/**
 * A topic's state as the server answered it ({@code {"topic","pending","paused"}}).
 *
 * @param topic   the topic's name
 * @param pending its pending timers (armed, paused, or held back by the topic's pause)
 * @param paused  whether the topic is paused: none of its timers fires until it is resumed
 */
public record TopicInfo(String topic, long pending, boolean paused) {

  /** The server's topic JSON. */
  public static TopicInfo fromJson(JsonObject json) {
    return new TopicInfo(json.getString("topic"), json.getLong("pending", 0L), json.getBoolean("paused", false));
  }
}
