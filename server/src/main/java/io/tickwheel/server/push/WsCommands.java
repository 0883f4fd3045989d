package io.tickwheel.server.push;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

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
    SCHEDULE("schedule"), PUT("put"), TOUCH("touch"), CANCEL("cancel");

    /** The {@code op} on the wire. */
    public final String wire;

    Op(String wire) {
      this.wire = wire;
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
   * What a command answers: the HTTP status it would have had, and the timer (a 2xx with a body) or the error
   * (any other status).
   *
   * @param status    the HTTP call's status: 201, 200, 204, or 4xx/5xx
   * @param timer  the timer as the HTTP call's body shows it, or {@code null}
   * @param error  the error object {@code {"code","message","field"?}}, or {@code null}
   */
  record Result(int status, Timer timer, JsonObject error) {}

  /**
   * Executes one command.
   *
   * @param op      which command
   * @param message the whole client message ({@code op} and {@code ref} included), not yet validated beyond them
   * @return its result; a 2xx means what the HTTP call's 2xx means (durable)
   */
  Future<Result> execute(Op op, JsonObject message);

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
