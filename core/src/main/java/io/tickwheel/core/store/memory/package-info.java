/**
 * The in-memory store: everything on the heap, nothing durable (tests, demos, {@code --store memory}).
 *
 * <p>Implements {@code core.store}; thread safe by one lock.
 */
package io.tickwheel.core.store.memory;
