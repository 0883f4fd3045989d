/**
 * Callback dispatch: {@link io.tickwheel.server.dispatch.DeliveryService} sends each firing of a timer with a
 * callback, signed, over Vert.x's HTTP client, with per-host queues, caps and breakers, retries by the timer's
 * schedule, and records every attempt in the store. One service per node; each partition it serves is a lane.
 * The callback settings ({@link io.tickwheel.server.dispatch.WebhookOptions}, from {@code --webhook-secret},
 * {@code --webhook-allow-private}, {@code --webhook-allow-cidr}) and the SSRF guard's resolver
 * ({@link io.tickwheel.server.dispatch.GuardedResolver}, answering a
 * {@link io.tickwheel.server.dispatch.ResolvedTarget} per attempt) live here too.
 *
 * <p>Imports {@code core.delivery}, {@code core.callback} and {@code core.store}; never the HTTP edge.
 */
package io.tickwheel.server.dispatch;
