/**
 * Callback deliveries: {@link io.tickwheel.server.delivery.DeliveryService} sends each firing of a timer with a
 * callback, signed, over Vert.x's HTTP client, with per-host queues, caps and breakers, retries by the timer's
 * schedule, and records every attempt in the store. One service per node; each partition it serves is a lane.
 *
 * <p>Imports {@code core.delivery}, {@code core.callback} and {@code server.callback}; never the HTTP edge.
 */
package io.tickwheel.server.delivery;
