/**
 * Real processes for tests and the load tool: the server jar ({@link io.tickwheel.testkit.ServerProcess}), private
 * redis-servers and Redis Clusters, a TCP proxy that can cut a connection, signals (kill -9, SIGSTOP, SIGTERM), and
 * certificates made with openssl ({@link io.tickwheel.testkit.TestCertificates}).
 *
 * <p>Imports nothing of tickwheel: it drives the jar and redis-server from outside, as a user would.
 */
package io.tickwheel.testkit;
