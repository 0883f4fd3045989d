/**
 * The Java client's inside: the connection's command channel, the schedule and touch batchers, the HTTP exchange
 * with its whole-answer deadline, subscriptions and their reconnection. Not API: users see {@code io.tickwheel.client}.
 *
 * <p>Everything runs on the client's Vert.x context; imports only {@code io.tickwheel.client} and vertx-core.
 */
package io.tickwheel.client.impl;
