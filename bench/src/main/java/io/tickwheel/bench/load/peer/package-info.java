/**
 * The durable peers as load-tool targets: Quartz with its JDBC store, db-scheduler (both on PostgreSQL) and Redisson's
 * delayed queue, each a {@link io.tickwheel.bench.load.TimerTarget}. See bench/PEERS.md.
 */
package io.tickwheel.bench.load.peer;
