package io.tickwheel.core.delivery;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivery records as JSON: the API form the contract specifies, and the storage form every store keeps (the API
 * fields plus what a restart needs: the whole callback, the round, the change time). Thread safe (stateless).
 */
public final class DeliveryJson {

  private DeliveryJson() {}

  /**
   * The contract's form: {@code {"id","timerId","firing","url","state","attempts":[{"n","at","status"?,"error"?,
   * "durationMs"}],"nextAttemptAt"?}}; {@code firing} is the firing JSON as pushed on the WebSocket.
   */
  public static JsonObject api(Delivery d) {
    return api(d, d.id());
  }

  /** {@link #api(Delivery)} with the id {@code id} (a cluster's {@code msg_<partition>_<seq>}). */
  public static JsonObject api(Delivery d, String id) {
    JsonObject o = new JsonObject()
        .put("id", id)
        .put("timerId", d.firing().id())
        .put("firing", new JsonObject(TimerJson.firingJson(d.firing())))
        .put("url", d.callback().url())
        .put("state", d.state().wire())
        .put("attempts", attempts(d.attempts()));
    if (d.state() == DeliveryState.PENDING) {
      o.put("nextAttemptAt", d.nextAttemptAt());
    }
    return o;
  }

  /** The storage form, UTF-8. */
  public static byte[] encode(Delivery d) {
    Firing f = d.firing();
    Callback c = d.callback();
    JsonObject o = new JsonObject()
        .put("seq", d.seq())
        .put("f", new JsonObject().put("id", f.id()).put("topic", f.topic()).put("firing", f.firing())
            .put("dueAt", f.dueAt()).put("firedAt", f.firedAt()).put("nominalAt", f.nominalAt())
            .put("payload", f.payload()))
        .put("cb", new JsonObject().put("url", c.url()).put("timeoutMs", c.timeoutMs())
            .put("maxAttempts", c.maxAttempts()).put("minBackoffMs", c.minBackoffMs())
            .put("maxBackoffMs", c.maxBackoffMs()))
        .put("state", d.state().wire())
        .put("attempts", attempts(d.attempts()))
        .put("nextAttemptAt", d.nextAttemptAt())
        .put("round", d.roundStart())
        .put("updatedAt", d.updatedAt());
    return o.encode().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads the storage form.
   *
   * @throws IllegalArgumentException when {@code bytes} is not a stored delivery
   */
  public static Delivery decode(byte[] bytes) {
    try {
      JsonObject o = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
      long seq = o.getLong("seq");
      JsonObject f = o.getJsonObject("f");
      Firing firing = new Firing(seq, f.getString("id"), f.getString("topic"), f.getLong("firing"),
          f.getLong("dueAt"), f.getLong("firedAt"), f.getString("payload"), f.getLong("nominalAt"));
      JsonObject c = o.getJsonObject("cb");
      Callback cb = new Callback(c.getString("url"), c.getInteger("timeoutMs"), c.getInteger("maxAttempts"),
          c.getLong("minBackoffMs"), c.getLong("maxBackoffMs"));
      DeliveryState state = DeliveryState.ofWire(o.getString("state"));
      if (state == null) {
        throw new IllegalArgumentException("unknown state " + o.getString("state"));
      }
      JsonArray a = o.getJsonArray("attempts");
      List<Attempt> attempts = new ArrayList<>(a.size());
      for (int i = 0; i < a.size(); i++) {
        JsonObject x = a.getJsonObject(i);
        attempts.add(new Attempt(x.getInteger("n"), x.getLong("at"), x.getInteger("status", 0), x.getString("error"),
            x.getLong("durationMs")));
      }
      return new Delivery(seq, firing, cb, state, attempts, o.getLong("nextAttemptAt"), o.getInteger("round"),
          o.getLong("updatedAt"));
    } catch (DecodeException | ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("not a stored delivery: " + e.getMessage(), e);
    }
  }

  private static JsonArray attempts(List<Attempt> list) {
    JsonArray a = new JsonArray();
    for (Attempt x : list) {
      JsonObject o = new JsonObject().put("n", x.n()).put("at", x.at());
      if (x.status() != 0) {
        o.put("status", x.status());
      }
      if (x.error() != null) {
        o.put("error", x.error());
      }
      a.add(o.put("durationMs", x.durationMs()));
    }
    return a;
  }
}
