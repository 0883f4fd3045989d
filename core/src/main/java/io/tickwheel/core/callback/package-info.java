/**
 * Callbacks, the pure part (no I/O, no threads): a timer's {@link io.tickwheel.core.callback.Callback} and its retry
 * schedule, the {@link io.tickwheel.core.callback.CallbackUrl} rules, the SSRF guard's rule
 * ({@link io.tickwheel.core.callback.AddressPolicy} over {@link io.tickwheel.core.callback.HostLiteral} and
 * {@link io.tickwheel.core.callback.Cidr}), and Standard Webhooks v1 signing
 * ({@link io.tickwheel.core.callback.WebhookSigner} with a {@link io.tickwheel.core.callback.WebhookSecret}).
 * Everything here is immutable or stateless and thread safe.
 */
package io.tickwheel.core.callback;
