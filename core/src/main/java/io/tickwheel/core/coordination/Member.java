package io.tickwheel.core.coordination;

/**
 * A live node of a cluster as the coordinator last saw it.
 *
 * @param nodeId     the node's id ({@code --node-id}), unique in the cluster
 * @param address    the base URL other nodes route calls to ({@code --advertise}), e.g. {@code http://10.0.0.5:8080}
 * @param lastSeenAt the coordinator's time (epoch ms) of the node's last heartbeat
 */
public record Member(String nodeId, String address, long lastSeenAt) {}
