/**
 * Store measurements without the server: recovery timing, group commit, pipelining, replica acknowledgement and bytes
 * per timer, each a main printing medians over its runs.
 */
package io.tickwheel.bench.store;
