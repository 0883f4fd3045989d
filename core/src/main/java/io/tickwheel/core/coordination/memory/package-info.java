/**
 * The in-memory coordinator and its fenced store view, for tests and in-process clusters: several nodes in one JVM
 * share one {@link io.tickwheel.core.coordination.memory.MemoryCoordinator}.
 *
 * <p>Implements {@code core.coordination} over {@code core.store.memory}; nothing outside core.
 */
package io.tickwheel.core.coordination.memory;
