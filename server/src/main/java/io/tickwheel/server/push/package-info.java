/**
 * Firing push: {@link io.tickwheel.server.push.FiringHub} delivers recorded firings to WebSocket and Server-Sent
 * Events subscribers.
 *
 * <h2>WebSocket {@code /v1/ws}</h2>
 * Client to server, one JSON object per text message (at most {@code maxWsFrameBytes}, else close 1009):
 * <ul>
 *   <li>{@code {"op":"subscribe","topics":["a","b"],"from":CURSOR?}}: adds the topics ({@code "*"} = all). With
 *       {@code from} (the {@code cursor} of the last firing the client saw, see
 *       {@link io.tickwheel.server.push.FiringCursor}; on a single node also its integer seq) the socket first gets
 *       every retained firing after it, then live ones; {@code from} is only accepted while nothing is subscribed
 *       on the socket (one ordered stream per socket) and, on a single node, must not be after the latest seq.
 *       Without {@code from}, a topic brings only firings published after the subscribe. Answer:
 *       {@code {"type":"subscribed","topics":[all the socket's topics, sorted, "*" first],"seq"?:latestSeq,
 *       "cursor":latestCursor}} ({@code seq} on a single node only), before any firing of the subscription.</li>
 *   <li>{@code {"op":"unsubscribe","topics":[…]}}: removes them ({@code "*"} removes the all-topics entry only).
 *       Answer: {@code {"type":"unsubscribed","topics":[the socket's remaining topics]}}.</li>
 *   <li>{@code {"op":"ping"}}: answer {@code {"type":"pong"}}.</li>
 *   <li>Write commands, each with a {@code "ref"} (a string of 1 to 200 characters):
 *       {@code {"op":"schedule","ref":R,"timer":{…}}}, {@code {"op":"put","ref":R,"timer":{"id":…,…}}},
 *       {@code {"op":"touch","ref":R,"id":…,"delayMs"?:n}}, {@code {"op":"cancel","ref":R,"id":…}}, executed by
 *       {@link io.tickwheel.server.push.WsCommands} (the HTTP edge) as the HTTP calls of the same meaning. Answer:
 *       exactly one {@code {"type":"result","ref":R,"status":…,"timer"?:…,"error"?:…}} per command, with the HTTP
 *       call's status and error; durable on 2xx. Results may come out of order (match by ref) and are sent in
 *       order with firings on the socket. At {@link io.tickwheel.server.push.PushOptions#maxCommandsInFlight}
 *       commands in flight, or while results wait beyond the socket's write queue, the socket is paused (nothing
 *       more is read) until results drain. A command without a valid ref gets an {@code error} with field
 *       {@code ref}.</li>
 * </ul>
 * Server to client: firings {@code {"type":"fired","seq":N,"id":…,"topic":…,"firing":n,"dueAt":ms,"nominalAt":ms,"firedAt":ms,
 * "payload":…,"partition"?:p,"cursor":C}} in seq order (per partition in a cluster, where {@code partition} is
 * set and every node streams every partition's firings, see {@link io.tickwheel.server.push.ClusterFiringFeed}); the replies above; errors {@code {"type":"error","code":…,"message":…,"field":…?}}
 * with code {@code invalid_argument} (bad JSON, unknown op, bad topics or from; the socket stays open and nothing
 * of the bad request is applied), {@code gap} (with {@code "from":a,"to":b} and in a cluster {@code "partition":p}: firings a..b were trimmed from the
 * log before a resuming subscriber could get them; what is retained follows) or {@code unavailable} (the log
 * could not be read; the socket is then closed with 1011).
 * Close codes: 1013 "subscriber too slow, resume with from", 1009 message (or a single frame, over the HTTP
 * server's {@code maxWebSocketFrameSize}) too big, 1002/1007 malformed frame, 1001 server shutting down,
 * 1011 firing log unavailable.
 *
 * <h2>Server-Sent Events {@code GET /v1/events?topic=a,b&from=CURSOR}</h2>
 * {@code text/event-stream}: each firing as {@code id: <cursor>}, {@code event: fired}, {@code data: <firing JSON>};
 * gap notices as {@code event: gap} (no id); a comment heartbeat every 15 s when idle; a slow client gets
 * {@code event: error} with code {@code slow_consumer} and the response ends. No {@code topic} means all topics.
 * Resumes after the {@code Last-Event-ID} header, else after {@code from} (a cursor; on a single node also a seq). A bad {@code topic}, {@code from} or
 * {@code Last-Event-ID} is a 400 {@code {"error":{"code":"invalid_argument","message":…,"field":…}}}.
 */
package io.tickwheel.server.push;
