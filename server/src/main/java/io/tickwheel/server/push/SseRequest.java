package io.tickwheel.server.push;

import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The parameters of {@code GET /v1/events}, validated.
 *
 * <ul>
 *   <li>{@code topic}: topic names separated by commas, the parameter may repeat; absent means all topics
 *       ({@code *} also does);</li>
 *   <li>{@code Last-Event-ID} header, else {@code from} query parameter: the cursor of the last firing the
 *       client saw (on a single node also its integer seq); it then gets every retained firing after it. Parsed
 *       by the hub, which knows the partitions ({@link FiringCursor}). The header wins because a browser's EventSource sends it
 *       on reconnection while the URL still carries the original {@code from}.</li>
 * </ul>
 * Other parameters are not this class's business: {@code access_token} is the auth handler's, and the route refuses
 * any other ({@code http.RouteInputs}).
 *
 * @param topics the topics, {@code ["*"]} for all
 * @param from   the cursor to resume after, unparsed, or {@code null} for new firings only
 * @param fromField where {@code from} came from: {@code Last-Event-ID} or {@code from}
 */
record SseRequest(List<String> topics, String from, String fromField) {

  static final String LAST_EVENT_ID = "Last-Event-ID";

  /**
   * @throws ValidationException naming the parameter and the bad value
   */
  static SseRequest parse(RoutingContext rc) {
    Set<String> topics = new LinkedHashSet<>();
    for (String value : rc.queryParam("topic")) {
      for (String t : value.split(",", -1)) {
        topics.add(TopicRule.checkSubscription("topic", t));
        if (topics.size() > FiringHub.MAX_TOPICS_PER_SUBSCRIBER) {
          throw new ValidationException("topic", "topic may list at most " + FiringHub.MAX_TOPICS_PER_SUBSCRIBER
              + " topics");
        }
      }
    }
    if (topics.isEmpty()) {
      topics.add(TopicFilter.ALL);
    }
    String from = null;
    String field = null;
    String header = rc.request().getHeader(LAST_EVENT_ID);
    if (header != null && !header.isEmpty()) {
      from = header;
      field = LAST_EVENT_ID;
    } else {
      List<String> values = rc.queryParam("from");
      if (values.size() > 1) {
        throw new ValidationException("from", "from must be given once, was given " + values.size() + " times");
      }
      if (values.size() == 1) {
        from = values.get(0);
        field = "from";
      }
    }
    return new SseRequest(List.copyOf(topics), from, field);
  }

}
