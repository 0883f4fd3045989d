/**
 * The node: {@link io.tickwheel.server.Main} parses the flags ({@link io.tickwheel.server.ServerCli} into
 * {@link io.tickwheel.server.ServerConfig}), {@link io.tickwheel.server.TickwheelServer} opens the store or the
 * coordinator, listens behind {@link io.tickwheel.server.HttpGate} and builds one {@link io.tickwheel.server.Node}:
 * the same wiring whatever the store, a single node being a cluster of one.
 *
 * <p>The only package that knows every other one; nothing imports it but {@code main} and the tests.
 */
package io.tickwheel.server;
