/**
 * The store SPI in parts: {@link io.tickwheel.core.store.TimerTable} (timers),
 * {@link io.tickwheel.core.store.FiringLog} (settling due timers into the firing log),
 * {@link io.tickwheel.core.store.DeliveryTable} (callback deliveries) and
 * {@link io.tickwheel.core.store.StoreSettings} (topic pauses, the webhook secret); the store a server opens,
 * {@link io.tickwheel.core.store.TimerStore}, is all of them, and {@link io.tickwheel.core.store.ComposedStore}
 * assembles one from parts (for decorators). Also their pages, cursors and failures. Every store (memory, RocksDB,
 * Redis) passes each part's contract suite in core's test-jar. {@link io.tickwheel.core.store.TimerExport} (every timer
 * of one snapshot, for the export) is a part those stores implement beside {@code TimerStore}.
 *
 * <p>May import {@code core.model}, {@code core.delivery} and {@code core.callback}; never a store implementation.
 */
package io.tickwheel.core.store;
