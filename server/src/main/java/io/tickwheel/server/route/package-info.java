/**
 * Where a timer call is served: {@link io.tickwheel.server.route.Timers} is the one interface the handlers call;
 * {@link io.tickwheel.server.route.LocalTimers} serves it on this node, {@link io.tickwheel.server.route.RoutedTimers}
 * sends what another node owns over the internal route ({@link io.tickwheel.server.route.InternalCall},
 * {@link io.tickwheel.server.route.InternalAnswer}, one {@link io.tickwheel.server.route.InternalCodec}), gathering
 * calls per owner and turn; cluster listings merge the partitions' pages under a scan budget.
 *
 * <p>Imports the scheduler and the cluster view; never the HTTP edge's handlers.
 */
package io.tickwheel.server.route;
