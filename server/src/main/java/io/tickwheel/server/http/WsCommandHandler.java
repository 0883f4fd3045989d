package io.tickwheel.server.http;

import com.fasterxml.jackson.core.JsonParser;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.push.WsCommands;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * The WebSocket write commands, answered as their HTTP calls are: {@code schedule} as {@code POST /v1/timers},
 * {@code put} as {@code PUT /v1/timers/{id}} (the id is {@code timer.id}), {@code touch} as
 * {@code POST /v1/timers/{id}/touch}, {@code cancel} as {@code DELETE /v1/timers/{id}}. Validation names the field
 * as the message has it ({@code timer.delayMs}, {@code id}); statuses and errors come from {@link OutcomeMapping}.
 * Writes go through {@link Timers#pipelined()}: locally, the scheduler's pipeline, so the commands of one event-loop
 * turn share one store write; in a cluster, a command for a partition another node owns is forwarded to it (bounded
 * by the forwarder's cap of calls in flight). Results come back by {@code ref}, in any order.
 *
 * <p>Owner context only, as the scheduler.
 */
public final class WsCommandHandler implements WsCommands {

  private final Timers pipeline;
  private final TimerParser parser;
  private final LongSupplier clock;

  /** @param timers the node's timers (their {@link Timers#pipelined()} view is used) */
  public WsCommandHandler(Timers timers, TimerParser parser) {
    this.pipeline = timers.pipelined();
    this.parser = parser;
    this.clock = timers::now;
  }

  @Override
  public Future<Result> execute(Op op, Args args) {
    Promise<Result> p = Promise.promise();
    execute(op, args, p::complete);
    return p.future();
  }

  @Override
  public void execute(Op op, Args args, Handler<Result> done) {
    Future<WriteOutcome> written;
    try {
      JsonObject message = args.message();
      if (message != null) {
        try {
          WsCommands.checkFields(message, op.wire, op.fields);
        } catch (ValidationException e) {
          throw ErrorResponses.toApi(e, 400);
        }
        written = switch (op) {
          case SCHEDULE -> pipeline.create(timer(message, false));
          case PUT -> pipeline.upsert(timer(message, true));
          case TOUCH -> pipeline.touch(id(message), delay(message));
          case CANCEL -> pipeline.cancel(id(message));
        };
      } else {
        written = switch (op) {
          case SCHEDULE -> pipeline.create(timer(args.timer(), false));
          case PUT -> pipeline.upsert(timer(args.timer(), true));
          case TOUCH -> pipeline.touch(id(args.id()), args.hasDelay() ? delay(args.delayMs()) : null);
          case CANCEL -> pipeline.cancel(id(args.id()));
        };
      }
    } catch (ApiException e) {
      done.handle(error(e));
      return;
    }
    written.onComplete(ar -> done.handle(ar.succeeded() ? result(ar.result()) : Result.failed(ar.cause())));
  }

  private static Result result(WriteOutcome o) {
    if (o instanceof Refusal r) {
      return error(OutcomeMapping.error(r));
    }
    int status = OutcomeMapping.status(o);
    Timer t = o instanceof WriteOutcome.Created c ? c.timer()
        : o instanceof WriteOutcome.Replaced r ? r.timer()
        : o instanceof WriteOutcome.Touched u ? u.timer() : null;
    return new Result(status, t, null);
  }

  private static Result error(ApiException e) {
    return new Result(e.status(), null, ErrorBody.detail(e.code(), e.getMessage(), e.field()));
  }

  @Override
  public TimerFields readTimer(JsonParser p, byte[] src) throws IOException {
    return parser.read(p, src);
  }

  /** The {@code timer} object of a schedule or put; a put needs its id. */
  private TimerSpec timer(JsonObject message, boolean needsId) {
    Object v = message.getValue("timer");
    if (!(v instanceof JsonObject body)) {
      throw ApiException.invalid("timer", "timer must be an object (the timer as POST /v1/timers takes it), was "
          + JsonBodies.kind(v));
    }
    return timer(parser.fields(body), needsId);
  }

  /** A schedule's or put's timer, its fields read; a put needs its id. */
  private TimerSpec timer(TimerFields body, boolean needsId) {
    TimerSpec spec;
    try {
      spec = parser.parse(body, clock.getAsLong());
    } catch (ValidationException e) {
      ApiException a = ErrorResponses.toApi(e, 400);
      throw new ApiException(a.status(), a.code(), a.getMessage(), a.field() == null ? "timer" : "timer." + a.field());
    } catch (RuntimeException e) {
      throw ApiException.invalid("timer", "invalid timer: " + ErrorResponses.shorten(String.valueOf(e.getMessage())));
    }
    if (needsId && spec.id() == null) {
      throw ApiException.invalid("timer.id", "put needs timer.id (the id to create or replace)");
    }
    return spec;
  }

  private static String id(JsonObject message) {
    return id(message.getValue("id"));
  }

  private static String id(Object v) {
    if (!(v instanceof String id) || !TimerParser.isId(id)) {
      throw ApiException.invalid("id", "id must match " + TimerParser.ID_RULE + ", was "
          + (v == null ? "missing" : v instanceof String s ? "\"" + ErrorResponses.shorten(s) + "\"" : JsonBodies.kind(v)));
    }
    return id;
  }

  private Long delay(JsonObject message) {
    if (!message.containsKey("delayMs")) {
      return null;
    }
    return delay(message.getValue("delayMs"));
  }

  /** A touch's {@code delayMs}, validated as {@code POST /v1/timers/{id}/touch} does; {@code null}: none. */
  private Long delay(Object value) {
    try {
      return parser.parseTouch(new JsonObject().put("delayMs", value));
    } catch (ValidationException e) {
      throw ErrorResponses.toApi(e, 400);
    }
  }
}
