/**
 * The coordinator's inside: the pub/sub subscriber of the broadcast channel. Not API.
 */
package io.tickwheel.store.redis.coordination.impl;
