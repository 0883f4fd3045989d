package io.tickwheel.client;

import io.tickwheel.client.impl.ClientImpl;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * A client of one tickwheel server.
 *
 * <h2>Transport</h2>
 * {@link #schedule} goes as batch creates ({@code POST /v1/timers/batch}, gathered like touches: see below).
 * {@link #put} and {@link #cancel} are the contract's WebSocket commands, sent over one WebSocket
 * per client ({@code /v1/ws}, opened at the first command; with several endpoints, one per node the calls go to:
 * see {@link TickwheelClientOptions#setEndpoints}), each with its own {@code ref}, pipelined: a command is
 * written without waiting for earlier answers, and answers are matched by {@code ref}, in whatever order they come.
 * A command's result means what the HTTP call's answer means: a 2xx is durable in the server's store.
 * {@link #touch} goes as batch touches ({@code POST /v1/timers/touch}, one store write per request; see below).
 * {@link #get} and {@link #list} are HTTP calls ({@code GET /v1/timers…}), and so are the timer and topic actions
 * {@link #pause}, {@link #resume}, {@link #fire}, {@link #pauseTopic} and {@link #resumeTopic} ({@code POST}, one
 * request each, never retried by the client: a request that got no answer fails with
 * {@link TickwheelException#CONNECTION_LOST}, {@link TickwheelException#mayHaveApplied()} true; pause and resume
 * may simply be called again, a {@code fire} called again fires again).
 *
 * <h2>Backpressure</h2>
 * At most {@link TickwheelClientOptions#getMaxInFlight()} commands are written and unanswered; further calls wait
 * in a queue of at most {@link TickwheelClientOptions#getMaxQueued()} and are written, in call order, as answers
 * come back (and while the socket's write queue has room). A call that finds the queue full fails at once with
 * {@link TickwheelException#QUEUE_FULL}. Every call fails with {@link TickwheelException#TIMEOUT} if it has no answer
 * {@link TickwheelClientOptions#getRequestTimeoutMs()} after it was made.
 *
 * <h2>Touches: batches and coalescing</h2>
 * Touches are gathered per {@code delayMs} and sent as {@code POST /v1/timers/touch} requests of at most
 * {@link TickwheelClientOptions#getMaxTouchBatchIds()} ids, at most
 * {@link TickwheelClientOptions#getMaxTouchBatchesInFlight()} requests unanswered at a time (each on an HTTP
 * keep-alive connection of its own). Touches made in one event-loop turn, or while the requests in flight are at
 * that bound, go together in the next request. Each caller's future completes from its id's item of the answer:
 * 200 with the timer's new {@code nextDueAt} (epoch ms); 404 fails with {@link TickwheelException} {@code not_found};
 * a 503 item (the timer stayed busy with its firing, or the store is down) fails with that 503
 * ({@code unavailable}, {@link TickwheelException#mayHaveApplied()} as the server's message says): it is not
 * retried, touch again if the countdown must restart. A non-200 answer to the whole request fails each of its
 * touches with it. At most {@link TickwheelClientOptions#getMaxQueued()} touches wait for a request (follow-ups
 * included, counted apart from the commands); beyond that a touch fails at once with
 * {@link TickwheelException#QUEUE_FULL}.
 *
 * <p>Touches of one id with the same {@code delayMs} are merged: a touch made while such a touch still waits (not
 * yet sent) joins it; one made while such a touch is in a request in flight waits as the single follow-up touch of
 * that id (further touches join the follow-up), which goes in the first request after that one is answered. A touch
 * storm on one key thus costs at most one id in flight and one waiting. The caller's future completes with the
 * answer of a request sent <em>after</em> the call, so on success the countdown was restarted no earlier than the
 * call (never from an older touch); on {@code 404} the timer did not exist when that request ran.
 *
 * <h2>Schedules: batches</h2>
 * Schedules wait in call order and go as {@code POST /v1/timers/batch} requests of at most
 * {@link TickwheelClientOptions#getMaxScheduleBatchTimers()} timers, at most
 * {@link TickwheelClientOptions#getMaxScheduleBatchesInFlight()} requests unanswered at a time. A batch holds half
 * of the schedules outstanding (waiting and in flight); while a request is unanswered, later schedules gather until
 * that many wait or an answer comes, so callers keeping C schedules in flight make about two requests of C/2 in
 * flight rather than many small ones (a lone schedule on an idle client is sent at once). Each caller's future completes from its item of the answer, as the single create would have
 * answered: the timer (201), or its error (409 {@code already_exists} for an existing id, also for a second
 * schedule of one id in the same batch; 400 naming the field; ...). A non-200 answer to the whole request fails
 * each of its schedules with it. On the server a batched timer costs a fraction of a single create (one HTTP
 * exchange and one store write per request). At most {@link TickwheelClientOptions#getMaxQueued()} schedules wait;
 * beyond it a schedule fails at once with {@link TickwheelException#QUEUE_FULL}.
 *
 * <h2>Disconnects</h2>
 * Every HTTP request (batch touches and creates, reads, actions) is answered in full within {@code requestTimeoutMs}
 * or fails: waiting for a pooled connection, for the answer's head and for its body all count. A batch touch request
 * that gets no answer (connection refused or lost, or not all of it within {@code requestTimeoutMs}) is sent again
 * after the backoff below, with those of its touches whose request timeout has not passed (idempotent in effect);
 * the others fail with {@link TickwheelException#TIMEOUT}, {@code mayHaveApplied} true. When the WebSocket closes,
 * the client reconnects (backoff {@code reconnectInitialBackoffMs} doubling to {@code reconnectMaxBackoffMs}) as long
 * as commands are waiting.
 * Commands that were in flight are:
 * <ul>
 *   <li>{@code put}, {@code cancel}: idempotent in effect, written again on the new connection
 *   (ahead of the queue) until their request timeout. A retried {@code put} may answer 200 (replaced) where the lost
 *   attempt created the timer; a retried {@code cancel} may answer 404 where the lost attempt cancelled it: 404
 *   then means "not there any more".</li>
 *   <li>{@code schedule} (batch creates over HTTP): never sent twice (a second attempt could create a second timer,
 *   or answer 409 for the caller's own timer); a batch sent and not answered fails its schedules with
 *   {@link TickwheelException#CONNECTION_LOST} or {@link TickwheelException#TIMEOUT},
 *   {@link TickwheelException#mayHaveApplied()} true. Use {@code put} with an id for a retried create.</li>
 * </ul>
 * Commands still queued (never written) are written after the reconnect whatever their kind. Retried commands go
 * ahead of the queue even when that holds {@code maxQueued} already (they held in-flight slots before), so at most
 * {@code maxInFlight + maxQueued} commands wait at any time. While no connection can be opened, calls wait in the
 * queue until their request timeout, whose message names the last connect failure.
 *
 * <h2>Ordering</h2>
 * Commands are written in call order (a retried one before the queue). The server may answer, and apply, pipelined
 * commands out of order; do not pipeline two commands on one id whose order matters (e.g. {@code cancel} then
 * {@code put}): wait for the first answer. Touches travel apart from the commands (batch requests over HTTP), so a
 * touch is not ordered with a command on the same id made before it: wait for the command's answer first.
 *
 * <h2>Threads</h2>
 * Thread safe: every method may be called from any thread. The client belongs to one Vert.x context: the caller's
 * when it is created on one, else a new event-loop context. Every request and frame is sent from that context,
 * whatever thread made the call. Its futures complete, and subscription handlers run, on that context: do not block
 * in them.
 */
public interface TickwheelClient {

  /**
   * A client of the server at {@code options.getEndpoint()}. Nothing is connected until the first call.
   *
   * @throws IllegalArgumentException when the options do not validate ({@link TickwheelClientOptions#validate()})
   */
  static TickwheelClient create(Vertx vertx, TickwheelClientOptions options) {
    return new ClientImpl(vertx, new TickwheelClientOptions(options).validate());
  }

  /**
   * Creates a timer (an item of a {@code POST /v1/timers/batch}, answered as {@code POST /v1/timers}): the stored
   * timer (201), or a {@link TickwheelException}: 409 {@code already_exists} if its id exists, 400
   * {@code invalid_argument}, 429 …. Never sent twice: a request that could not be sent (no connection) is tried
   * again until the request timeout; one sent and not answered fails with {@link TickwheelException#TIMEOUT} or
   * {@link TickwheelException#CONNECTION_LOST}, {@link TickwheelException#mayHaveApplied()} true.
   */
  Future<TimerInfo> schedule(TimerRequest timer);

  /**
   * Creates or replaces the timer of {@code timer.id()} ({@code {"op":"put"}}, as {@code PUT /v1/timers/{id}}):
   * the stored timer (the server answered 201 created or 200 replaced).
   */
  Future<TimerInfo> put(TimerRequest timer);

  /**
   * Restarts the countdown of timer {@code id} with its own {@code delayMs} (once) or {@code periodMs} (periodic),
   * as {@code POST /v1/timers/{id}/touch} would, sent in a batch touch: the timer's new {@code nextDueAt} (epoch
   * ms), or 404 {@code not_found}, 503 {@code unavailable}. Batched and coalesced: see the class comment for what
   * the future then means.
   */
  Future<Long> touch(String id);

  /** As {@link #touch(String)} with the new countdown {@code delayMs} milliseconds (≥ 0). */
  Future<Long> touch(String id, long delayMs);

  /** Cancels timer {@code id} ({@code {"op":"cancel"}}, as {@code DELETE}): completes on 204; 404 if absent. */
  Future<Void> cancel(String id);

  /**
   * {@code POST /v1/timers/{id}/pause}: the timer fires no more until resumed ({@link TimerInfo#paused()} true);
   * touch and put keep it paused. The timer, or 404 {@code not_found}.
   */
  Future<TimerInfo> pause(String id);

  /**
   * {@code POST /v1/timers/{id}/resume}: due times that passed while it was paused are skipped, except a {@code once}
   * timer's whose time passed, which fires at once. The timer, or 404 {@code not_found}.
   */
  Future<TimerInfo> resume(String id);

  /**
   * {@code POST /v1/timers/{id}/fire}: one firing now, recorded and pushed like any other (a {@code once} timer is
   * then done; a periodic one keeps its schedule). The timer after the firing, or 404 {@code not_found}.
   */
  Future<TimerInfo> fire(String id);

  /**
   * {@code POST /v1/topics/{topic}/pause}, durable: no timer of the topic fires until it is resumed (due ones are
   * held back unchanged). The topic's state; 429 {@code resource_exhausted} when 10,000 topics are paused.
   */
  Future<TopicInfo> pauseTopic(String topic);

  /**
   * {@code POST /v1/topics/{topic}/resume}: the held-back timers are armed again and their missed due times follow
   * their {@code misfire} rule (a {@code once} timer fires late). The topic's state.
   */
  Future<TopicInfo> resumeTopic(String topic);

  /** {@code GET /v1/timers/{id}}: the timer, or 404 {@code not_found}. */
  Future<TimerInfo> get(String id);

  /**
   * {@code GET /v1/timers?topic=&limit=&cursor=}: one page ordered by {@code nextDueAt}.
   *
   * @param topic only this topic, or null for all
   * @param limit page size (the server's bounds apply), or 0 for the server's default
   * @param cursor the previous page's {@link TimerPage#next()}, or null for the first page
   */
  Future<TimerPage> list(String topic, int limit, String cursor);

  /**
   * Subscribes to the firings of {@code topics} ({@code "*"}: all) on a WebSocket of its own, and keeps the
   * subscription alive: see {@link Subscription}. {@code handler} runs on the client's context, once per firing,
   * in the server's order; an exception it throws is logged and the next firing is delivered.
   *
   * @param from where to start: null for only new firings, a {@code Long} seq (every retained firing after it) or
   *     a cursor String (a firing's {@link Firing#cursor()})
   */
  Subscription subscribe(List<String> topics, Object from, Handler<Firing> handler);

  /** The same client with {@code CompletionStage}s, for callers outside Vert.x. */
  TickwheelStages stages();

  /** Commands written and not yet answered, plus touches in batch requests not yet answered (a snapshot). */
  int inFlight();

  /** Commands waiting for a slot or the connection, plus touches waiting for a batch (follow-ups included; a snapshot). */
  int queued();

  /**
   * Closes the WebSocket, the HTTP client and every subscription; calls not yet answered fail with
   * {@link TickwheelException#CLIENT_CLOSED} (those in flight with {@code mayHaveApplied} true). Idempotent.
   */
  Future<Void> close();
}
