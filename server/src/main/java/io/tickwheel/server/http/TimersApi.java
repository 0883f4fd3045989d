package io.tickwheel.server.http;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The {@code /v1/timers} handlers: parse and validate at the edge, call the {@link Timers} (the node's scheduler, or
 * the cluster's routing), answer its outcome (a refusal through {@link OutcomeMapping}). Thin: no scheduling logic
 * here. The single writes ({@code POST}, {@code PUT}, {@code DELETE}, touch) go through {@link Timers#pipelined()}, as
 * the WebSocket's commands do: the creates, replaces and touches of an event-loop turn, from any connection, share one
 * store write per kind (deletes go to the store one by one). Runs on the owner context; the JSON work of a large batch runs on the codec workers. (Calls between nodes
 * have their own route: {@link InternalApi}.)
 */
public final class TimersApi {

  /** Most timers in one batch call. */
  public static final int MAX_BATCH = 10_000;
  /** Default and largest page of a listing. */
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 1000;

  private final Timers timers;
  /** {@link #timers}' group-committed view: the single writes of a turn share one store write with the WebSocket's. */
  private final Timers pipelined;
  private final TimerParser parser;
  private final WorkerExecutor codec;

  /**
   * @param codec the workers that decode and encode batch bodies (off the owner event loop)
   */
  public TimersApi(Timers timers, TimerParser parser, WorkerExecutor codec) {
    this.timers = timers;
    this.pipelined = timers.pipelined();
    this.parser = parser;
    this.codec = codec;
  }

  /** {@code POST /v1/timers}: 201 with {@code Location}, 409 if the id exists. */
  public void create(RoutingContext rc) {
    TimerSpec spec = parseBody(rc);
    Replies.write(rc, pipelined.create(spec), created -> {
      Timer t = timer(created);
      rc.response().putHeader(HttpHeaders.LOCATION, "/v1/timers/" + t.id());
      Replies.timer(rc, OutcomeMapping.status(created), t);
    });
  }

  /** {@code PUT /v1/timers/{id}}: 201 created, 200 replaced. */
  public void upsert(RoutingContext rc) {
    String id = pathId(rc);
    TimerSpec spec = parseBody(rc);
    if (spec.id() != null && !spec.id().equals(id)) {
      throw ApiException.invalid("id", "the body's id \"" + spec.id() + "\" differs from the path's \"" + id + "\"");
    }
    Replies.write(rc, pipelined.upsert(spec.withId(id)), written -> {
      if (written instanceof WriteOutcome.Created) {
        rc.response().putHeader(HttpHeaders.LOCATION, "/v1/timers/" + id);
      }
      Replies.timer(rc, OutcomeMapping.status(written), timer(written));
    });
  }

  /** {@code GET /v1/timers/{id}}: 200, 404. */
  public void get(RoutingContext rc) {
    String id = pathId(rc);
    Replies.read(rc, timers.get(id), found ->
        Replies.timer(rc, OutcomeMapping.status(found), ((ReadOutcome.Found) found).timer()));
  }

  /** {@code DELETE /v1/timers/{id}}: 204, 404. */
  public void delete(RoutingContext rc) {
    String id = pathId(rc);
    Replies.write(rc, pipelined.cancel(id), cancelled -> rc.response().setStatusCode(OutcomeMapping.status(cancelled)).end());
  }

  /** {@code POST /v1/timers/{id}/touch}, optional body {@code {"delayMs": n}}: 200, 404. */
  public void touch(RoutingContext rc) {
    String id = pathId(rc);
    Long delay;
    try {
      delay = parser.parseTouch(JsonBodies.object(rc, true));
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    }
    Replies.write(rc, pipelined.touch(id, delay), touched -> Replies.timer(rc, OutcomeMapping.status(touched), timer(touched)));
  }

  /** {@code POST /v1/timers/{id}/pause}: 200 (the paused timer), 404. */
  public void pause(RoutingContext rc) {
    String id = pathId(rc);
    Replies.write(rc, timers.pause(id), paused -> Replies.timer(rc, OutcomeMapping.status(paused), timer(paused)));
  }

  /** {@code POST /v1/timers/{id}/resume}: 200 (the resumed timer), 404. */
  public void resume(RoutingContext rc) {
    String id = pathId(rc);
    Replies.write(rc, timers.resume(id), resumed -> Replies.timer(rc, OutcomeMapping.status(resumed), timer(resumed)));
  }

  /** {@code POST /v1/timers/{id}/fire}: 200 (the timer after its firing), 404. */
  public void fire(RoutingContext rc) {
    String id = pathId(rc);
    Replies.write(rc, timers.fireNow(id), fired -> Replies.timer(rc, OutcomeMapping.status(fired), timer(fired)));
  }

  /** {@code GET /v1/timers?topic=&limit=&cursor=}: a page ordered by {@code nextDueAt}, then id. */
  public void list(RoutingContext rc) {
    String topic = rc.request().getParam("topic");
    if (topic != null) {
      try {
        TopicRule.check("topic", topic);
      } catch (ValidationException e) {
        throw ErrorResponses.toApi(e, 400);
      }
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
    TimerCursor after = null;
    String c = rc.request().getParam("cursor");
    if (c != null && !c.isEmpty()) {
      try {
        after = TimerCursor.decode(c);
      } catch (IllegalArgumentException e) {
        throw ApiException.invalid("cursor", ErrorResponses.shorten(e.getMessage()));
      }
    }
    Replies.read(rc, timers.list(topic, after, limit), listed -> {
      TimerPage page = ((ReadOutcome.Listed) listed).page();
      StringBuilder sb = new StringBuilder(64 + 200 * page.timers().size()).append("{\"timers\":[");
      for (int i = 0; i < page.timers().size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        TimerJson.append(sb, page.timers().get(i));
      }
      sb.append("],\"next\":");
      if (page.next() == null) {
        sb.append("null");
      } else {
        sb.append('"').append(page.next().encode()).append('"');      // dueAt~id: no character needs escaping
      }
      Replies.json(rc, OutcomeMapping.status(listed), Buffer.buffer(sb.append('}').toString()));
    });
  }

  /**
   * {@code POST /v1/timers/batch} with {@code {"timers":[…]}} (at most {@value #MAX_BATCH}): every valid timer is
   * created in one atomic store write; answers 200 {@code {"results":[…]}} in order, each
   * {@code {"status":201,"timer":…}} or {@code {"status":4xx,"error":…}}.
   *
   * <p>Decoding and validating the body, and encoding the answer, run on the codec workers when the body passes
   * {@value Replies#INLINE_JSON_BYTES} bytes ({@link Replies#json(WorkerExecutor, boolean, java.util.concurrent.Callable)}).
   * Only {@link Timers#createAll} runs on the owner either way.
   */
  public void batch(RoutingContext rc) {
    Buffer body = rc.body() == null ? null : rc.body().buffer();
    long now = timers.now();
    boolean inline = body != null && body.length() <= Replies.INLINE_JSON_BYTES;
    Future<ParsedBatch> parsed = Replies.json(codec, inline, () -> parseBatch(body, now));
    Replies.settle(rc, parsed.compose(p -> timers.createAll(p.specs)
        .compose(outcomes -> Replies.json(codec, inline, () -> encodeBatch(p.invalid, outcomes)))),
        json -> Replies.json(rc, 200, json));
  }

  /** A decoded batch: the valid items' specs, in order, and per item its error or {@code null} if it is valid. */
  private record ParsedBatch(List<TimerSpec> specs, ApiException[] invalid) {}

  /** Decodes and validates a batch body. Any thread (pure). */
  private ParsedBatch parseBatch(Buffer b, long now) {
    List<TimerFields> items = JsonBodies.timers(b, parser, MAX_BATCH);
    if (items != null) {
      int n = items.size();
      List<TimerSpec> specs = new ArrayList<>(n);
      ApiException[] invalid = new ApiException[n];
      for (int i = 0; i < n; i++) {
        try {
          specs.add(parse(parser, items.get(i), now));
        } catch (ApiException e) {
          invalid[i] = e;
        }
      }
      return new ParsedBatch(specs, invalid);
    }
    JsonObject body = JsonBodies.object(b, false);
    for (String f : body.fieldNames()) {
      if (!"timers".equals(f)) {
        throw ApiException.invalid(f, "unknown field '" + ErrorResponses.shorten(f) + "' (a batch is {\"timers\":[…]})");
      }
    }
    Object v = body.getValue("timers");
    if (!(v instanceof JsonArray arr)) {
      throw ApiException.invalid("timers", "timers must be an array of timers, was " + JsonBodies.kind(v));
    }
    if (arr.size() > MAX_BATCH) {
      throw ApiException.invalid("timers", "a batch holds at most " + MAX_BATCH + " timers, was " + arr.size());
    }
    int n = arr.size();
    List<TimerSpec> specs = new ArrayList<>(n);
    ApiException[] invalid = new ApiException[n];
    for (int i = 0; i < n; i++) {
      Object item = arr.getValue(i);
      if (!(item instanceof JsonObject o)) {
        invalid[i] = ApiException.invalid("timers[" + i + "]", "timers[" + i + "] must be an object, was " + JsonBodies.kind(item));
        continue;
      }
      try {
        specs.add(parseAt(o, now));
      } catch (ApiException e) {
        invalid[i] = e;
      }
    }
    return new ParsedBatch(specs, invalid);
  }

  /**
   * Encodes a batch answer: per item its parse error, or else the next of {@code outcomes} (one per valid item).
   * Any thread (outcomes and errors are immutable).
   */
  private static Buffer encodeBatch(ApiException[] invalid, List<WriteOutcome> outcomes) {
    int n = invalid.length;
    Iterator<WriteOutcome> created = outcomes.iterator();
    StringBuilder sb = new StringBuilder(32 + 200 * n).append("{\"results\":[");
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
      }
      WriteOutcome o = invalid[i] == null ? created.next() : null;
      if (o != null && !(o instanceof Refusal)) {
        sb.append("{\"status\":").append(OutcomeMapping.status(o)).append(",\"timer\":");
        TimerJson.append(sb, timer(o)).append('}');
      } else {
        ApiException e = o == null ? invalid[i] : OutcomeMapping.error((Refusal) o);
        sb.append("{\"status\":").append(e.status()).append(",\"error\":")
            .append(ErrorBody.detail(e.code(), e.getMessage(), e.field()).encode()).append('}');
      }
    }
    return Buffer.buffer(sb.append("]}").toString());
  }

  /**
   * {@code POST /v1/timers/touch} with {@code {"ids":[…], "delayMs"?: n}} (at most {@value #MAX_BATCH} ids): restarts
   * every timer's countdown with one store write; answers 200 {@code {"results":[…]}} in request order, each
   * {@code {"id","status":200,"nextDueAt"}} or {@code {"id","status":404|503,"error":…}}. A repeated id is touched
   * once; each occurrence gets that one result. Decoding and encoding run as for {@link #batch}.
   */
  public void touchBatch(RoutingContext rc) {
    Buffer body = rc.body() == null ? null : rc.body().buffer();
    boolean inline = body != null && body.length() <= Replies.INLINE_JSON_BYTES;
    Future<TouchBatch> parsed = Replies.json(codec, inline, () -> parseTouchBatch(body));
    Replies.settle(rc, parsed.compose(p -> timers.touchAll(p.ids, p.delayMs)
        .compose(outcomes -> Replies.json(codec, inline, () -> encodeTouchBatch(p.ids, outcomes)))),
        json -> Replies.json(rc, 200, json));
  }

  /** A decoded batch touch. */
  private record TouchBatch(List<String> ids, Long delayMs) {}

  /** Decodes and validates a batch touch body. Any thread (pure). */
  private TouchBatch parseTouchBatch(Buffer b) {
    JsonObject body = JsonBodies.object(b, false);
    for (String f : body.fieldNames()) {
      if (!"ids".equals(f) && !"delayMs".equals(f)) {
        throw ApiException.invalid(f, "unknown field '" + ErrorResponses.shorten(f)
            + "' (a batch touch is {\"ids\":[…],\"delayMs\"?:n})");
      }
    }
    Object v = body.getValue("ids");
    if (!(v instanceof JsonArray arr) || arr.isEmpty()) {
      throw ApiException.invalid("ids", "ids must be a non-empty array of timer ids, was "
          + (v instanceof JsonArray ? "empty" : JsonBodies.kind(v)));
    }
    if (arr.size() > MAX_BATCH) {
      throw ApiException.invalid("ids", "a batch touch holds at most " + MAX_BATCH + " ids, was " + arr.size());
    }
    List<String> ids = new ArrayList<>(arr.size());
    for (int i = 0; i < arr.size(); i++) {
      Object id = arr.getValue(i);
      if (!(id instanceof String s) || !TimerParser.isId(s)) {
        throw ApiException.invalid("ids[" + i + "]", "ids[" + i + "] must match " + TimerParser.ID_RULE + ", was "
            + (id instanceof String s ? "\"" + ErrorResponses.shorten(s) + "\"" : JsonBodies.kind(id)));
      }
      ids.add(s);
    }
    Long delay;
    try {
      delay = parser.parseTouch(body.containsKey("delayMs") ? new JsonObject().put("delayMs", body.getValue("delayMs"))
          : null);
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    }
    return new TouchBatch(ids, delay);
  }

  /** Encodes a batch touch answer. Any thread (outcomes are immutable). */
  private static Buffer encodeTouchBatch(List<String> ids, List<WriteOutcome> outcomes) {
    StringBuilder sb = new StringBuilder(32 + 64 * ids.size()).append("{\"results\":[");
    for (int i = 0; i < ids.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      WriteOutcome o = outcomes.get(i);
      sb.append("{\"id\":\"").append(ids.get(i)).append("\",\"status\":");   // a valid id needs no escaping
      if (o instanceof Refusal r) {
        ApiException e = OutcomeMapping.error(r);
        sb.append(e.status()).append(",\"error\":").append(ErrorBody.detail(e.code(), e.getMessage(), e.field()).encode());
      } else {
        sb.append(OutcomeMapping.status(o)).append(",\"nextDueAt\":").append(timer(o).nextDueAt());
      }
      sb.append('}');
    }
    return Buffer.buffer(sb.append("]}").toString());
  }

  // ------------------------------------------------------------------ helpers

  /**
   * The request's body as a timer: read straight from its bytes ({@link JsonBodies#timer}), or, for a body that is not
   * one well-formed object, decoded as a tree, which gives its error.
   */
  private TimerSpec parseBody(RoutingContext rc) {
    Buffer b = rc.body() == null ? null : rc.body().buffer();
    TimerFields f = JsonBodies.timer(b, parser);
    if (f != null) {
      return parse(parser, f, timers.now());
    }
    return parseAt(JsonBodies.object(b, false), timers.now());
  }

  private TimerSpec parseAt(JsonObject body, long now) {
    return parse(parser, body, now);
  }

  /** A timer body parsed and validated as {@code POST /v1/timers} takes it; a refusal is an {@link ApiException}. */
  static TimerSpec parse(TimerParser parser, JsonObject body, long now) {
    try {
      return parser.parse(body, now);
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    } catch (RuntimeException e) {
      // A value the parser could not even read (e.g. a number beyond double range): still the client's input.
      throw ApiException.invalid(null, "invalid timer: " + ErrorResponses.shorten(String.valueOf(e.getMessage())));
    }
  }

  /** {@link #parse(TimerParser, JsonObject, long)} for fields already read ({@link TimerParser#read}). */
  static TimerSpec parse(TimerParser parser, TimerFields body, long now) {
    try {
      return parser.parse(body, now);
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    } catch (RuntimeException e) {
      // A value the parser could not even read (e.g. a number beyond double range): still the client's input.
      throw ApiException.invalid(null, "invalid timer: " + ErrorResponses.shorten(String.valueOf(e.getMessage())));
    }
  }

  private static String pathId(RoutingContext rc) {
    String id = rc.pathParam("id");
    try {
      TimerParser.checkId(id);
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    }
    return id;
  }

  /** The timer a successful write answers with. */
  static Timer timer(WriteOutcome success) {
    if (success instanceof WriteOutcome.Created c) {
      return c.timer();
    }
    if (success instanceof WriteOutcome.Replaced r) {
      return r.timer();
    }
    if (success instanceof WriteOutcome.Touched t) {
      return t.timer();
    }
    if (success instanceof WriteOutcome.Paused p) {
      return p.timer();
    }
    if (success instanceof WriteOutcome.Resumed r) {
      return r.timer();
    }
    if (success instanceof WriteOutcome.FiredNow f) {
      return f.timer();
    }
    throw new IllegalArgumentException("no timer in " + success);
  }
}
