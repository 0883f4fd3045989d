/**
 * The wire shapes clients depend on, each written in one place: the error body
 * {@code {"error":{"code","message","field"?}}} ({@link io.tickwheel.server.wire.ErrorBody}), the push channels'
 * error and gap notices ({@link io.tickwheel.server.wire.PushNotices}), Server-Sent Events framing
 * ({@link io.tickwheel.server.wire.SseFormat}) and the request body limit
 * ({@link io.tickwheel.server.wire.BodyLimit}). The topic rule is core's {@code TopicRule}. Nothing here knows a
 * route or a status code's meaning; all of it is stateless and thread safe.
 */
package io.tickwheel.server.wire;
