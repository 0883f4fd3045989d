package io.tickwheel.server.http;

import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The {@code /v1/topics} handlers: {@code GET /v1/topics} (topics with their pending counts and paused state) and
 * {@code POST /v1/topics/{topic}/pause} and {@code /resume}. Thin: validate, call the {@link Timers}, answer its
 * outcome. Runs on the owner context.
 */
public final class TopicsApi {

  /** Default and largest page of the topic listing. */
  public static final int DEFAULT_LIMIT = 1000;
  public static final int MAX_LIMIT = 10_000;

  private final Timers timers;

  public TopicsApi(Timers timers) {
    this.timers = timers;
  }

  /**
   * {@code GET /v1/topics?limit=&after=&topic=}: {@code {"topics":[{"topic","pending","paused"}…],"next"}} by name;
   * {@code next} is the last name of a full page (pass it as {@code after}), else {@code null}. With {@code topic},
   * only that topic (if it has pending timers or is paused).
   */
  public void list(RoutingContext rc) {
    String after = rc.request().getParam("after");
    if (after != null && !after.isEmpty()) {
      checkTopic("after", after);
    } else {
      after = null;
    }
    int limit = DEFAULT_LIMIT;
    String l = rc.request().getParam("limit");
    if (l != null) {
      try {
        limit = Integer.parseInt(l);
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > MAX_LIMIT) {
        throw ApiException.invalid("limit", "limit must be an integer between 1 and " + MAX_LIMIT
            + ", was \"" + ErrorResponses.shorten(l) + "\"");
      }
    }
    String only = rc.request().getParam("topic");
    if (only != null) {
      checkTopic("topic", only);
    }
    int max = limit;
    Replies.read(rc, timers.topics(after, limit, only), listed -> {
      List<TopicInfo> page = ((ReadOutcome.Topics) listed).topics();
      JsonArray arr = new JsonArray();
      page.forEach(x -> arr.add(json(x)));
      Object next = page.size() == max ? page.get(page.size() - 1).topic() : null;
      Replies.json(rc, OutcomeMapping.status(listed), new JsonObject().put("topics", arr).put("next", next).toBuffer());
    });
  }

  /** {@code POST /v1/topics/{topic}/pause}: 200 {@code {"topic","pending","paused":true}}. */
  public void pause(RoutingContext rc) {
    String topic = pathTopic(rc);
    changed(rc, timers.pauseTopic(topic));
  }

  /** {@code POST /v1/topics/{topic}/resume}: 200 {@code {"topic","pending","paused":false}}. */
  public void resume(RoutingContext rc) {
    String topic = pathTopic(rc);
    changed(rc, timers.resumeTopic(topic));
  }

  private static void changed(RoutingContext rc, io.vertx.core.Future<WriteOutcome> f) {
    Replies.write(rc, f, o ->
        Replies.json(rc, OutcomeMapping.status(o), json(((WriteOutcome.TopicChanged) o).topic()).toBuffer()));
  }

  static JsonObject json(TopicInfo t) {
    return new JsonObject().put("topic", t.topic()).put("pending", t.pending()).put("paused", t.paused());
  }

  private static String pathTopic(RoutingContext rc) {
    String topic = rc.pathParam("topic");
    checkTopic("topic", topic);
    return topic;
  }

  private static void checkTopic(String field, String topic) {
    try {
      TopicRule.check(field, topic);
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    }
  }
}
