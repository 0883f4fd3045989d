/**
 * Callbacks, the server's part: the callback settings ({@link io.tickwheel.server.callback.WebhookOptions}, from
 * {@code --webhook-secret}, {@code --webhook-allow-private}, {@code --webhook-allow-cidr}) and the SSRF guard's
 * resolver ({@link io.tickwheel.server.callback.GuardedResolver}, answering a
 * {@link io.tickwheel.server.callback.ResolvedTarget} per delivery attempt). The delivery engine itself lives in
 * {@code io.tickwheel.server.delivery}; the signing key is {@code TickwheelServer.webhookSecret()}.
 */
package io.tickwheel.server.callback;
