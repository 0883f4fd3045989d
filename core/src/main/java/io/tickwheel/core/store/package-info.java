/**
 * The store SPI: {@link io.tickwheel.core.store.TimerStore} (timers, the firing log, deliveries, topic pauses, the
 * webhook secret), its pages, cursors and failures. Every store (memory, RocksDB, Redis) passes the contract suite
 * in core's test-jar.
 *
 * <p>May import {@code core.model}, {@code core.delivery} and {@code core.callback}; never a store implementation.
 */
package io.tickwheel.core.store;
