/**
 * What the edge trusts: the TLS certificate and key ({@link io.tickwheel.server.security.TlsOptions},
 * {@link io.tickwheel.server.security.TlsMaterial}), the tokens and their roles
 * ({@link io.tickwheel.server.security.Role}, {@link io.tickwheel.server.security.TokenTable},
 * {@link io.tickwheel.server.security.Tokens}), and the polling that re-reads their files when they change
 * ({@link io.tickwheel.server.security.FilePoll}).
 *
 * <p>No status codes here (the HTTP edge maps a missing role to 403); nothing here logs a secret.
 */
package io.tickwheel.server.security;
