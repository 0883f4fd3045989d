package io.tickwheel.server.push;

import com.fasterxml.jackson.core.JsonParser;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerFields;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/**
 * Executes the write commands a WebSocket client sends on {@code /v1/ws} ({@code schedule}, {@code put},
 * {@code touch}, {@code cancel}): what the HTTP call of the same meaning does, answered as that call would be. The
 * push package frames the answer as {@code {"type":"result","ref":R,…}}; the implementation (the HTTP edge, which
 * owns the mapping of outcomes to statuses) decides the status and body.
 *
 * <p>Called on the hub's owner context only; the future completes there and never fails.
 */
public interface WsCommands {

  /** The write commands, by their {@code op}. */
  enum Op {
    SCHEDULE("schedule", "timer"), PUT("put", "timer"), TOUCH("touch", "id", "delayMs"), CANCEL("cancel", "id");

    /** The {@code op} on the wire. */
    public final String wire;
    /** The fields its message takes, {@code op} and {@code ref} included. */
    public final java.util.Set<String> fields;

    Op(String wire, String... args) {
      this.wire = wire;
      java.util.Set<String> all = new java.util.HashSet<>(java.util.List.of(args));
      all.add("op");
      all.add("ref");
      this.fields = java.util.Set.copyOf(all);
    }

    /** The op named {@code wire}, or {@code null}. */
    static Op of(String wire) {
      for (Op o : values()) {
        if (o.wire.equals(wire)) {
          return o;
        }
      }
      return null;
    }
  }

  /**
   * Refuses a client message of op {@code op} that has a field other than {@code taken}, as an HTTP body's unknown
   * field is refused.
   *
   * @throws ValidationException naming the first such field, its message listing what the op takes
   */
  static void checkFields(JsonObject message, String op, java.util.Set<String> taken) {
    for (String name : message.fieldNames()) {
      if (!taken.contains(name)) {
        java.util.TreeSet<String> others = new java.util.TreeSet<>(taken);
        others.remove("op");
        String shown = ValidationException.shown(name);
        throw new ValidationException(shown, "unknown field '" + shown + "' (op \"" + op + "\" takes "
            + (others.isEmpty() ? "no other" : String.join(", ", others)) + ")");
      }
    }
  }

  /**
   * What a command answers: the HTTP status it would have had, and the timer (a 2xx with a body) or the error
   * (any other status).
   *
   * @param status    the HTTP call's status: 201, 200, 204, or 4xx/5xx
   * @param timer  the timer as the HTTP call's body shows it, or {@code null}
   * @param error  the error object {@code {"code","message","field"?}}, or {@code null}
   */
  record Result(int status, Timer timer, JsonObject error) {

    /** The result of a command whose execution failed (a bug): 500 {@code internal}. */
    public static Result failed(Throwable cause) {
      return new Result(500, null, ErrorBody.detail("internal", "the command failed: " + cause, null));
    }
  }

  /**
   * A command's arguments, not yet validated beyond {@code op} and {@code ref}: either the decoded {@code message}
   * (any shape), or, read straight from the message's tokens when they have the command's shape, its {@code timer}
   * (a schedule's or put's, {@link #readTimer}), or its {@code id} and {@code delayMs} (a touch's or cancel's).
   *
   * @param message  the whole client message, decoded; or {@code null} when the other fields hold the arguments
   * @param timer    the {@code timer} object's fields, or {@code null}
   * @param id       the {@code id} string, or {@code null}
   * @param hasDelay whether the message has a {@code delayMs} field
   * @param delayMs  its value (a number, or {@code null} for JSON null)
   */
  record Args(JsonObject message, TimerFields timer, String id, boolean hasDelay, Number delayMs) {

    /** The arguments of a decoded message. */
    public static Args of(JsonObject message) {
      return new Args(message, null, null, false, null);
    }
  }

  /**
   * Executes one command.
   *
   * @param op   which command
   * @param args its arguments
   * @return its result; a 2xx means what the HTTP call's 2xx means (durable)
   */
  Future<Result> execute(Op op, Args args);

  /**
   * {@link #execute(Op, Args)}, its result passed to {@code done} on the owner context (a failed execution as a 500
   * result), possibly before this returns. Implementations may override it to spare the result's future.
   */
  default void execute(Op op, Args args, Handler<Result> done) {
    execute(op, args).onComplete(ar -> done.handle(ar.succeeded() ? ar.result() : Result.failed(ar.cause())));
  }

  /**
   * Reads a command's {@code timer} object straight from the message's tokens (the parser at its
   * {@code START_OBJECT}, left at its {@code END_OBJECT}; {@code src} the message's bytes from offset 0), or
   * {@code null} if this implementation does not: the message is then decoded as a whole.
   *
   * @throws IOException if the text is not valid JSON
   */
  default TimerFields readTimer(JsonParser p, byte[] src) throws IOException {
    return null;
  }

  /**
   * Whether one connection may send a command now (its token's role, which a re-read tokens file may change).
   * Called on the owner context before each command.
   */
  @FunctionalInterface
  interface Gate {
    /** {@code null} to execute the command, else the result to answer it with instead (nothing is executed). */
    Result refuse(Op op);
  }
}
