/**
 * The HTTP edge, the only place that knows status codes: {@link io.tickwheel.server.http.HttpEdge} (server options,
 * connection cap, header deadline, TLS), {@link io.tickwheel.server.http.Routes} (auth, Host and origin checks,
 * bodies, the recovery gate, every route), the roles' table ({@link io.tickwheel.server.http.Permissions}: which role
 * each call needs, checked by {@code AuthHandler}), the handlers of the public API, the internal route between
 * nodes ({@link io.tickwheel.server.http.InternalApi}), and how refusals map to errors
 * ({@link io.tickwheel.server.http.OutcomeMapping}).
 *
 * <p>Handlers stay thin: they validate, call {@code route.Timers} or the delivery and topic services, and answer.
 */
package io.tickwheel.server.http;
