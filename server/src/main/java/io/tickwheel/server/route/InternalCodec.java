package io.tickwheel.server.route;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.route.InternalAnswer.Done;
import io.tickwheel.server.route.InternalAnswer.Item;
import io.tickwheel.server.route.InternalAnswer.Refused;
import io.tickwheel.server.route.InternalAnswer.Result;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.wire.BodyLimit;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The JSON of the calls between nodes, both ways: {@link InternalCall}s sent to {@value #PATH}, and the
 * {@link InternalAnswer}s that come back (HTTP 200; a refusal of the whole call, such as 401 or 503 recovering, is an
 * HTTP error with the API's error body, read by {@link #answer} as a {@link Refused}).
 *
 * <ul>
 *   <li>Calls: {@code {"call":"create_all","timers":[spec…]}}, {@code {"call":"restore_all","timers":[state…]}} (an
 *       import's timers with their whole state, {@link TimerJson#appendState}, validated by the node that received
 *       them), {@code {"call":"touch_all","ids":[…],"delayMs"?}},
 *       {@code {"call":"upsert","timer":spec}}, {@code {"call":"get"|"cancel"|"pause"|"resume"|"fire","id"}},
 *       {@code {"call":"topics","limit","after"?,"topic"?}}, {@code {"call":"retry_delivery","id"}}. A spec is the
 *       timer body the API takes, defaults left out ({@link #appendSpec}), so the owner parses and validates it as it
 *       would the client's ({@code delayMs} then counts from the owner's acceptance: later by the call's latency,
 *       never earlier).</li>
 *   <li>Answers: {@code {"items":[item…]}}, {@code {"item":item}}, {@code {"topics":[{"topic","pending","paused"}…]}},
 *       {@code {"delivery":{"outcome",…}}}, or {@code {"refused":…}} for the whole call (or a single one). An item is
 *       {@code {"result":"created"|…,"timer":state}} (the timer with its whole state: {@link TimerJson#appendState}),
 *       {@code {"result":"cancelled"}} or {@code {"refused":{"status","code","message","field"?,"retryAfter"}}}.</li>
 * </ul>
 *
 * <p>The version is the path's ({@code v1}); a node refuses a version it does not speak with 400, which the caller
 * reads as a refusal naming it. Bodies are at most {@link #MAX_BODY_BYTES}; senders split batches under it.
 *
 * <p>Stateless, thread safe.
 */
public final class InternalCodec {

  /** The version of this protocol, as its path carries it. */
  public static final String VERSION = "v1";
  /** Where every call is sent ({@code POST}). */
  public static final String PATH = "/internal/" + VERSION + "/calls";
  /** The header naming the calling node (a custom header, so no browser page sends it without a preflight). */
  public static final String NODE_HEADER = "X-Tickwheel-Node";
  /**
   * The largest body of a call the internal route reads, bytes: the API's body limit, so any client call, forwarded
   * whole (its defaults left out, never larger), fits.
   */
  public static final long MAX_BODY_BYTES = BodyLimit.MAX_BODY_BYTES;

  private InternalCodec() {}

  // ------------------------------------------------------------------ calls

  /** The body of {@code call}. */
  public static Buffer encode(InternalCall call) {
    return Buffer.buffer(append(new StringBuilder(256), call).toString());
  }

  private static StringBuilder append(StringBuilder sb, InternalCall call) {
    if (call instanceof InternalCall.RestoreAll r) {
      sb.append(RESTORE_PREFIX);
      for (int i = 0; i < r.timers().size(); i++) {
        TimerJson.appendState(i == 0 ? sb : sb.append(','), r.timers().get(i));
      }
      return sb.append(batchSuffix(null));
    }
    if (call instanceof InternalCall.CreateAll c) {
      sb.append(batchPrefix(false));
      for (int i = 0; i < c.specs().size(); i++) {
        appendSpec(i == 0 ? sb : sb.append(','), c.specs().get(i));
      }
      return sb.append(batchSuffix(null));
    }
    if (call instanceof InternalCall.TouchAll t) {
      sb.append(batchPrefix(true));
      for (int i = 0; i < t.ids().size(); i++) {
        (i == 0 ? sb : sb.append(',')).append(idText(t.ids().get(i)));
      }
      return sb.append(batchSuffix(t.delayMs()));
    }
    if (call instanceof InternalCall.Upsert u) {
      return appendSpec(sb.append("{\"call\":\"upsert\",\"timer\":"), u.spec()).append('}');
    }
    if (call instanceof InternalCall.OnTimer o) {
      return TimerJson.appendString(sb.append("{\"call\":\"").append(o.op().wire).append("\",\"id\":"), o.id())
          .append('}');
    }
    if (call instanceof InternalCall.Topics t) {
      sb.append("{\"call\":\"topics\",\"limit\":").append(t.limit());
      if (t.after() != null) {
        TimerJson.appendString(sb.append(",\"after\":"), t.after());
      }
      if (t.only() != null) {
        TimerJson.appendString(sb.append(",\"topic\":"), t.only());
      }
      return sb.append('}');
    }
    InternalCall.RetryDelivery r = (InternalCall.RetryDelivery) call;
    return TimerJson.appendString(sb.append("{\"call\":\"retry_delivery\",\"id\":"), r.id()).append('}');
  }

  /*
   * A create or touch batch's body, item by item, for senders that cut a batch by bytes: its prefix, the items' texts
   * (a spec's, an id's) comma-separated, then its suffix. Exactly what encode writes for the same call.
   */

  /** The text before a batch's first item ({@code touch}: a {@link InternalCall.TouchAll}, else a create). */
  static String batchPrefix(boolean touch) {
    return touch ? "{\"call\":\"touch_all\",\"ids\":[" : "{\"call\":\"create_all\",\"timers\":[";
  }

  /** The text after a batch's last item ({@code delayMs}: a touch batch's override, else {@code null}). */
  static String batchSuffix(Long delayMs) {
    return delayMs == null ? "]}" : "],\"delayMs\":" + delayMs + "}";
  }

  /** An id's text in a touch batch (a valid id needs no escaping). */
  static String idText(String id) {
    return '"' + id + '"';
  }

  /** The text before a restore batch's first item (a {@link InternalCall.RestoreAll}). */
  static final String RESTORE_PREFIX = "{\"call\":\"restore_all\",\"timers\":[";

  /** A timer's text in a restore batch: its whole state ({@link TimerJson#appendState}). */
  static String stateText(Timer t) {
    return TimerJson.appendState(new StringBuilder(160 + (t.payload() == null ? 0 : t.payload().length())), t)
        .toString();
  }

  /** A spec's text in a create batch. */
  static String specText(TimerSpec s) {
    return appendSpec(new StringBuilder(128 + (s.payload() == null ? 0 : s.payload().length())), s).toString();
  }

  /**
   * Reads a call.
   *
   * @param spec parses a spec as the API would (throws for an invalid one: that item is refused, the others stand)
   * @throws IllegalArgumentException if the body is not a call of this version
   */
  public static InternalCall decode(Buffer body, Function<JsonObject, TimerSpec> spec) {
    JsonObject o;
    try {
      o = body.toJsonObject();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the body is not a JSON object: " + e.getMessage());
    }
    String call = o.getValue("call") instanceof String s ? s : null;
    try {
      if ("create_all".equals(call)) {
        JsonArray arr = o.getJsonArray("timers");
        List<TimerSpec> specs = new ArrayList<>(arr.size());
        RuntimeException[] refused = new RuntimeException[arr.size()];
        for (int i = 0; i < arr.size(); i++) {
          try {
            specs.add(spec.apply(arr.getJsonObject(i)));
          } catch (RuntimeException e) {
            specs.add(null);
            refused[i] = e;
          }
        }
        return new InternalCall.CreateAll(specs, refused);
      }
      if ("restore_all".equals(call)) {
        // between nodes: the receiving node validated every line at its edge, the state is taken as sent
        JsonArray arr = o.getJsonArray("timers");
        List<Timer> ts = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
          Timer t = timer(arr.getJsonObject(i));
          TimerParser.checkId(t.id());
          ts.add(t);
        }
        return new InternalCall.RestoreAll(ts);
      }
      if ("touch_all".equals(call)) {
        JsonArray arr = o.getJsonArray("ids");
        List<String> ids = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
          ids.add(id(arr.getString(i)));
        }
        return new InternalCall.TouchAll(ids, o.getLong("delayMs"));
      }
      if ("upsert".equals(call)) {
        TimerSpec s = spec.apply(o.getJsonObject("timer"));
        if (s.id() == null) {
          throw new IllegalArgumentException("an upsert's timer has no id");
        }
        return new InternalCall.Upsert(s);
      }
      if ("topics".equals(call)) {
        return new InternalCall.Topics(o.getString("after"), o.getInteger("limit"), o.getString("topic"));
      }
      if ("retry_delivery".equals(call)) {
        return new InternalCall.RetryDelivery(id(o.getString("id")));
      }
      InternalCall.Op op = InternalCall.Op.ofWire(call);
      if (op != null) {
        return new InternalCall.OnTimer(op, id(o.getString("id")));
      }
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("a malformed \"" + call + "\" call: " + e.getMessage());
    }
    throw new IllegalArgumentException("unknown call " + (call == null ? "(none)" : "\"" + shorten(call) + "\"")
        + " (this node speaks the " + VERSION + " calls)");
  }

  private static String id(String id) {
    if (id == null) {
      throw new IllegalArgumentException("an id is missing");
    }
    return id;
  }

  /** The text of a spec: the timer body the API takes, its defaults (topic, kind, misfire) left out. */
  static StringBuilder appendSpec(StringBuilder sb, TimerSpec s) {
    sb.append('{');
    if (s.id() != null) {
      field(sb).append("\"id\":\"").append(s.id()).append('"');              // ids and topics need no escaping
    }
    if (!"default".equals(s.topic())) {
      field(sb).append("\"topic\":\"").append(s.topic()).append('"');
    }
    if (s.kind() != Kind.ONCE) {
      field(sb).append("\"kind\":\"").append(s.kind().wireName()).append('"');
    }
    if (s.delayMs() != null) {
      field(sb).append("\"delayMs\":").append(s.delayMs());
    }
    if (s.atMs() != null) {
      field(sb).append("\"at\":").append(s.atMs());
    }
    if (s.kind().hasPeriod()) {
      field(sb).append("\"periodMs\":").append(s.periodMs());
    }
    if (s.misfire() != Misfire.FIRE_ONCE) {
      field(sb).append("\"misfire\":\"").append(s.misfire().wireName()).append('"');
    }
    if (s.maxFirings() > 0) {
      field(sb).append("\"maxFirings\":").append(s.maxFirings());
    }
    ZonedCron c = s.cron();
    if (c != null) {
      TimerJson.appendString(field(sb).append("\"cron\":"), c.expression())
          .append(",\"timeZone\":\"").append(c.zone().getId())
          .append("\",\"dstGap\":\"").append(c.gap().wireName())
          .append("\",\"dstOverlap\":\"").append(c.overlap().wireName()).append('"');
    }
    if (s.endAt() != Timer.NO_END) {
      field(sb).append("\"endAt\":").append(s.endAt());
    }
    if (s.jitterMs() > 0) {
      field(sb).append("\"jitterMs\":").append(s.jitterMs());
    }
    Callback cb = s.callback();
    if (cb != null) {
      TimerJson.appendCallback(field(sb).append("\"callback\":"), cb);
    }
    if (s.payload() != null) {
      field(sb).append("\"payload\":").append(s.payload());
    }
    return sb.append('}');
  }

  /** {@code sb} after the separator its next field needs. */
  private static StringBuilder field(StringBuilder sb) {
    return sb.charAt(sb.length() - 1) == '{' ? sb : sb.append(',');
  }

  // ------------------------------------------------------------------ answers

  /** The body of {@code answer}. */
  public static Buffer encode(InternalAnswer answer) {
    StringBuilder sb = new StringBuilder(256);
    if (answer instanceof InternalAnswer.Items items) {
      sb.append("{\"items\":[");
      for (int i = 0; i < items.items().size(); i++) {
        appendItem(i == 0 ? sb : sb.append(','), items.items().get(i));
      }
      sb.append("]}");
    } else if (answer instanceof Refused r) {
      appendRefused(sb.append("{\"refused\":"), r).append('}');
    } else if (answer instanceof Done d) {
      appendItem(sb.append("{\"item\":"), d).append('}');
    } else if (answer instanceof InternalAnswer.TopicPage page) {
      sb.append("{\"topics\":[");
      for (int i = 0; i < page.topics().size(); i++) {
        TopicInfo t = page.topics().get(i);
        (i == 0 ? sb : sb.append(',')).append("{\"topic\":\"").append(t.topic()).append("\",\"pending\":")
            .append(t.pending()).append(",\"paused\":").append(t.paused()).append('}');
      }
      sb.append("]}");
    } else {
      appendDelivery(sb.append("{\"delivery\":"), ((InternalAnswer.Delivery) answer).outcome()).append('}');
    }
    return Buffer.buffer(sb.toString());
  }

  private static StringBuilder appendItem(StringBuilder sb, Item item) {
    if (item instanceof Refused r) {
      return appendRefused(sb.append("{\"refused\":"), r).append('}');
    }
    Done d = (Done) item;
    sb.append("{\"result\":\"").append(d.result().wire).append('"');
    if (d.timer() != null) {
      TimerJson.appendState(sb.append(",\"timer\":"), d.timer());
    }
    return sb.append('}');
  }

  private static StringBuilder appendRefused(StringBuilder sb, Refused r) {
    TimerJson.appendString(sb.append("{\"status\":").append(r.status()).append(",\"code\":"), r.code());
    TimerJson.appendString(sb.append(",\"message\":"), r.message());
    if (r.field() != null) {
      TimerJson.appendString(sb.append(",\"field\":"), r.field());
    }
    return sb.append(",\"retryAfter\":").append(r.retryAfter()).append('}');
  }

  private static StringBuilder appendDelivery(StringBuilder sb, DeliveryOutcome o) {
    if (o instanceof DeliveryOutcome.Requeued r) {
      TimerJson.appendString(sb.append("{\"outcome\":\"requeued\",\"id\":"), r.id());
      return sb.append(",\"record\":").append(new String(DeliveryJson.encode(r.delivery()), StandardCharsets.UTF_8))
          .append('}');
    }
    JsonObject j;
    if (o instanceof DeliveryOutcome.NotFound n) {
      j = new JsonObject().put("outcome", "not_found").put("id", n.id());
    } else if (o instanceof DeliveryOutcome.NotDead n) {
      j = new JsonObject().put("outcome", "not_dead").put("id", n.id()).put("state", n.state());
    } else if (o instanceof DeliveryOutcome.Full f) {
      j = new JsonObject().put("outcome", "full").put("max", f.max());
    } else if (o instanceof DeliveryOutcome.StoreFailed s) {
      j = new JsonObject().put("outcome", "store_failed").put("message", s.message());
    } else if (o instanceof DeliveryOutcome.Unrouted u) {
      j = new JsonObject().put("outcome", "unrouted").put("reason", u.reason());
    } else {
      throw new IllegalArgumentException("not an outcome of a delivery retry: " + o);
    }
    return sb.append(j.encode());
  }

  /**
   * Reads an owner's answer to {@code call}: for a status other than 200, the API's error body as a {@link Refused}
   * of the whole call (with its {@code Retry-After}).
   *
   * @throws IllegalArgumentException if it is none of these (a node of another version, a proxy's page)
   */
  static InternalAnswer answer(InternalCall call, Forwarder.Answer a) {
    JsonObject o;
    try {
      o = a.body().toJsonObject();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage());
    }
    try {
      if (a.status() != 200) {
        JsonObject e = o.getJsonObject("error");
        return new Refused(a.status(), e.getString("code"), e.getString("message"), e.getString("field"),
            a.retryAfter());
      }
      if (o.containsKey("refused")) {
        return item(o);
      }
      if (call instanceof InternalCall.CreateAll || call instanceof InternalCall.TouchAll
          || call instanceof InternalCall.RestoreAll) {
        JsonArray arr = o.getJsonArray("items");
        int n = call instanceof InternalCall.CreateAll c ? c.specs().size()
            : call instanceof InternalCall.RestoreAll r ? r.timers().size() : ((InternalCall.TouchAll) call).ids().size();
        if (arr.size() != n) {
          throw new IllegalArgumentException(arr.size() + " items for " + n + " calls");
        }
        List<Item> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          items.add(item(arr.getJsonObject(i)));
        }
        return new InternalAnswer.Items(items);
      }
      if (call instanceof InternalCall.Topics) {
        JsonArray arr = o.getJsonArray("topics");
        List<TopicInfo> out = new ArrayList<>(arr.size());
        for (int i = 0; i < arr.size(); i++) {
          JsonObject t = arr.getJsonObject(i);
          out.add(new TopicInfo(t.getString("topic"), t.getLong("pending"), t.getBoolean("paused")));
        }
        return new InternalAnswer.TopicPage(out);
      }
      if (call instanceof InternalCall.RetryDelivery) {
        return new InternalAnswer.Delivery(delivery(o.getJsonObject("delivery")));
      }
      return item(o.getJsonObject("item"));
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("a malformed answer: " + e);
    }
  }

  private static Item item(JsonObject o) {
    JsonObject r = o.getJsonObject("refused");
    if (r != null) {
      return new Refused(r.getInteger("status"), r.getString("code"), r.getString("message"), r.getString("field"),
          r.getInteger("retryAfter", 0));
    }
    Result result = Result.ofWire(o.getString("result"));
    if (result == null) {
      throw new IllegalArgumentException("unknown result \"" + shorten(String.valueOf(o.getString("result"))) + "\"");
    }
    JsonObject t = o.getJsonObject("timer");
    if (t == null && result != Result.CANCELLED) {
      throw new IllegalArgumentException("a \"" + result.wire + "\" result without its timer");
    }
    return new Done(result, t == null ? null : timer(t));
  }

  private static DeliveryOutcome delivery(JsonObject o) {
    String outcome = o.getString("outcome");
    return switch (outcome == null ? "" : outcome) {
      case "requeued" -> new DeliveryOutcome.Requeued(
          DeliveryJson.decode(o.getJsonObject("record").encode().getBytes(StandardCharsets.UTF_8)), o.getString("id"));
      case "not_found" -> new DeliveryOutcome.NotFound(o.getString("id"));
      case "not_dead" -> new DeliveryOutcome.NotDead(o.getString("id"), o.getString("state"));
      case "full" -> new DeliveryOutcome.Full(o.getInteger("max"));
      case "store_failed" -> new DeliveryOutcome.StoreFailed(o.getString("message"));
      case "unrouted" -> new DeliveryOutcome.Unrouted(o.getString("reason"));
      default -> throw new IllegalArgumentException("unknown delivery outcome \"" + shorten(outcome) + "\"");
    };
  }

  /**
   * A timer from its state ({@link TimerJson#appendState}).
   *
   * @throws IllegalArgumentException if it is not one
   */
  static Timer timer(JsonObject j) {
    try {
      Kind kind = Kind.fromWire(j.getString("kind"));
      if (kind == null) {
        throw new IllegalArgumentException("unknown kind " + j.getString("kind"));
      }
      String m = j.getString("misfire");
      Misfire misfire = m == null ? Misfire.FIRE_ONCE : Misfire.fromWire(m);
      ZonedCron cron = null;
      if (j.getString("cron") != null) {
        cron = ZonedCron.of(j.getString("cron"), ZoneId.of(j.getString("timeZone")),
            DstGap.fromWire(j.getString("dstGap")), DstOverlap.fromWire(j.getString("dstOverlap")));
      }
      Object payload = j.getValue("payload");
      JsonObject c = j.getJsonObject("callback");
      Callback callback = c == null ? null : new Callback(c.getString("url"), c.getInteger("timeoutMs"),
          c.getInteger("maxAttempts"), c.getLong("minBackoffMs", Callback.NO_BACKOFF),
          c.getLong("maxBackoffMs", Callback.NO_BACKOFF));
      Timer.Extras extras = new Timer.Extras(cron, j.getLong("endAt", Timer.NO_END), j.getLong("jitterMs", 0L),
          j.getBoolean("paused", false), j.getLong("nominalAt", 0L), callback);
      return new Timer(j.getString("id"), j.getString("topic"), kind, j.getLong("delayMs"), j.getLong("periodMs", 0L),
          j.getLong("maxFirings", 0L), misfire, payload == null ? null : Json.encode(payload), j.getLong("createdAt"),
          j.getLong("nextDueAt"), j.getLong("firings"), j.getLong("generation", 0L), extras);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a timer's state: " + e.getMessage(), e);
    }
  }

  private static String shorten(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "…";
  }
}
