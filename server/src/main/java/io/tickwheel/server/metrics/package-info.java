/**
 * Micrometer meters and their Prometheus scrape: the server's own (pending timers, firings, lateness, HTTP requests
 * with bounded labels, store operations, deliveries) and the JVM's. {@link io.tickwheel.server.metrics.MeteredStore}
 * times every store operation.
 *
 * <p>Imports {@code core} only; every other package reports into it.
 */
package io.tickwheel.server.metrics;
