package io.tickwheel.server.http;

import io.tickwheel.server.route.CallMessages;
import io.tickwheel.server.scheduler.Refusal;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The calls between nodes over a WebSocket: {@code GET} {@link io.tickwheel.server.route.InternalCodec#PATH} with an
 * upgrade, behind the internal route's guards (node header, no {@code Origin}, token, recovery gate at the upgrade).
 * Each binary message is one call ({@link CallMessages}), answered by one message with what a {@code POST} of it
 * would have been answered ({@link InternalApi#answer}), in the order the answers are ready.
 *
 * <p>The token it was opened with is checked again before each call: one that lost the admin role closes it
 * ({@value TokenStreams#CLOSE_POLICY}; a removed token closes it at once, {@link TokenStreams}).
 *
 * <p>Limits: at most {@value #MAX_CALLS} calls of one socket in flight; one more is answered 503 with
 * {@code Retry-After: 1} at once, nothing applied. A call while this node is not ready (recovering) is answered 503 as
 * the gate answers a {@code POST}. A binary message shorter than a call's id, or a text message, closes the socket
 * ({@value FiringPushApi#CLOSE_INVALID}, {@value FiringPushApi#CLOSE_UNSUPPORTED}); the calls in flight then go
 * unanswered (the caller reads them as "may have been applied"). Messages over the server's WebSocket message limit
 * are refused by Vert.x (close 1009).
 *
 * <p>Owner context (the node's; the socket's handlers run there).
 */
public final class InternalSocket {

  /** Most calls of one socket in flight at once (a forwarding node's own cap: {@code RouteOptions.maxInFlight}). */
  public static final int MAX_CALLS = 4096;

  private final InternalApi api;
  private final BooleanSupplier ready;

  /** @param ready whether this node takes calls now (its recovery gate) */
  public InternalSocket(InternalApi api, BooleanSupplier ready) {
    this.api = Objects.requireNonNull(api, "api");
    this.ready = Objects.requireNonNull(ready, "ready");
  }

  /**
   * Takes the calls of an accepted WebSocket until it closes.
   *
   * @param admin whether the token it was opened with is still an admin token (asked before each call; when it is
   *              not, the socket is closed with {@value TokenStreams#CLOSE_POLICY}, the call not taken)
   */
  public void serve(ServerWebSocket ws, BooleanSupplier admin) {
    int[] inFlight = {0};
    boolean[] closed = {false};
    ws.closeHandler(v -> closed[0] = true);
    ws.binaryMessageHandler(m -> {
      if (closed[0]) {
        return;
      }
      if (!admin.getAsBoolean()) {
        closed[0] = true;
        ws.close(TokenStreams.CLOSE_POLICY, "the token is no longer an admin token");
        return;
      }
      if (m.length() < CallMessages.CALL_HEAD_BYTES) {
        closed[0] = true;
        ws.close(FiringPushApi.CLOSE_INVALID, FiringPushApi.reason("a call message starts with its "
            + CallMessages.CALL_HEAD_BYTES + "-byte id; this one has " + m.length() + " bytes"));
        return;
      }
      long id = CallMessages.id(m);
      if (inFlight[0] >= MAX_CALLS) {
        refuse(ws, id, ApiException.unavailable("this node has " + MAX_CALLS + " calls of this socket in flight;"
            + " nothing was applied").withRetryAfter(1));
        return;
      }
      if (!ready.getAsBoolean()) {
        refuse(ws, id, OutcomeMapping.error(new Refusal.Recovering()));
        return;
      }
      Buffer body = CallMessages.callBody(m);
      if (body.length() == 0) {
        refuse(ws, id, ApiException.invalid(null, "an internal call needs a body"));
        return;
      }
      inFlight[0]++;
      api.answer(body).onComplete(ar -> {
        inFlight[0]--;
        if (closed[0]) {
          return;
        }
        if (ar.succeeded()) {
          ws.writeBinaryMessage(CallMessages.answer(id, 200, 0, ar.result()));
        } else {
          refuse(ws, id, ErrorResponses.toApi(ar.cause(), 500));
        }
      });
    });
    ws.textMessageHandler(text -> {
      closed[0] = true;
      ws.close(FiringPushApi.CLOSE_UNSUPPORTED, "a call is a binary message, not text");
    });
  }

  private static void refuse(ServerWebSocket ws, long id, ApiException e) {
    ws.writeBinaryMessage(CallMessages.answer(id, e.status(), e.retryAfterSeconds(),
        ErrorResponses.body(e).toBuffer()));
  }
}
