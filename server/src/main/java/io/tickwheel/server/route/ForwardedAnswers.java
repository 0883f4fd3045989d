package io.tickwheel.server.route;

import io.tickwheel.core.model.Timer;
import io.tickwheel.server.route.Forwarder.Answer;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns an owner's answer to a forwarded call back into the domain outcome the owner's scheduler gave, so this node's
 * edge answers with the owner's status, body and {@code Location}: a success rebuilds its timer
 * ({@link TimerWire#timer}); {@code not_found} and {@code already_exists} become {@link Refusal.NotFound} and
 * {@link Refusal.Conflict}; any other refusal is carried verbatim ({@link Refusal.Remote}, with its
 * {@code Retry-After}). An answer that is none of these (another version, a proxy's page) is a
 * {@link Refusal.Remote} 502 naming it.
 *
 * <p>Stateless, thread safe.
 */
final class ForwardedAnswers {

  private ForwardedAnswers() {}

  /** A single write's outcome: {@code success} wraps the timer of a 200/201 (a 204 is {@code Cancelled}). */
  static WriteOutcome write(String id, Answer a, Function<Timer, WriteOutcome> success) {
    try {
      if (a.status() == 204) {
        return new WriteOutcome.Cancelled(id);
      }
      if (a.status() == 201) {
        return new WriteOutcome.Created(TimerWire.timer(a.body().toJsonObject()));
      }
      if (a.status() == 200) {
        return success.apply(TimerWire.timer(a.body().toJsonObject()));
      }
      return refusal(id, a.status(), a.body().toJsonObject(), a.retryAfter());
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** A read of one timer. */
  static ReadOutcome read(String id, Answer a) {
    try {
      if (a.status() == 200) {
        return new ReadOutcome.Found(TimerWire.timer(a.body().toJsonObject()));
      }
      return refusal(id, a.status(), a.body().toJsonObject(), a.retryAfter());
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /**
   * The items of a forwarded batch ({@code {"results":[{"status","timer"|"error"}…]}}), {@code n} of them, or one
   * refusal for the whole call.
   */
  static Object batch(List<String> ids, Answer a, boolean touch) {
    try {
      JsonObject body = a.body().toJsonObject();
      if (a.status() != 200) {
        return refusal(null, a.status(), body, a.retryAfter());
      }
      JsonArray results = body.getJsonArray("results");
      if (results.size() != ids.size()) {
        throw new IllegalArgumentException(results.size() + " results for " + ids.size() + " items");
      }
      List<WriteOutcome> out = new ArrayList<>(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        JsonObject r = results.getJsonObject(i);
        int status = r.getInteger("status");
        if (status == 201 || status == 200) {
          Timer t = TimerWire.timer(r.getJsonObject("timer"));
          out.add(status == 201 ? new WriteOutcome.Created(t) : new WriteOutcome.Touched(t));
        } else {
          out.add(refusal(ids.get(i), status, new JsonObject().put("error", r.getJsonObject("error")), 0));
        }
      }
      return out;
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** A forwarded topic listing ({@code {"topics":[…]}}), or a refusal. */
  static Object topics(Answer a) {
    try {
      JsonObject body = a.body().toJsonObject();
      if (a.status() != 200) {
        return refusal(null, a.status(), body, a.retryAfter());
      }
      JsonArray arr = body.getJsonArray("topics");
      List<TopicInfo> out = new ArrayList<>(arr.size());
      for (int i = 0; i < arr.size(); i++) {
        JsonObject t = arr.getJsonObject(i);
        out.add(new TopicInfo(t.getString("topic"), t.getLong("pending"), t.getBoolean("paused")));
      }
      return out;
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** The refusal an error answer stands for. */
  static Refusal refusal(String id, int status, JsonObject body, int retryAfter) {
    JsonObject e = body.getJsonObject("error");
    String code = e.getString("code");
    if (id != null && status == 404 && "not_found".equals(code)) {
      return new Refusal.NotFound(id);
    }
    if (id != null && status == 409 && "already_exists".equals(code)) {
      return new Refusal.Conflict(id);
    }
    return new Refusal.Remote(status, code, e.getString("message"), e.getString("field"), retryAfter);
  }

  private static Refusal garbled(Answer a, RuntimeException e) {
    return new Refusal.Remote(502, "unavailable", "the partition's owner gave an answer this node cannot read (HTTP "
        + a.status() + "): " + e.getMessage(), null, 1);
  }
}
