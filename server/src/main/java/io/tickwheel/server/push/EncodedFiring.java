package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.server.wire.SseFormat;
import io.vertx.core.buffer.Buffer;

/**
 * One firing rendered for the wire, shared by every subscriber it goes to: the contract's JSON text in UTF-8, with its
 * {@code cursor} (and in a cluster its {@code partition}), is built once per publish, the Server-Sent Events frame
 * (whose {@code id} is the cursor) at most once (on first use). Replayed firings are encoded per subscriber (replay
 * is per subscriber anyway, and so is a replayed firing's cursor in a cluster).
 *
 * <p>Not thread safe: used on the hub's owner context only. The SSE {@link Buffer} is safe to write to many
 * responses (Vert.x writes a duplicate of the underlying bytes each time).
 */
final class EncodedFiring {

  final Firing firing;
  final int partition;
  final long seq;
  final String topic;
  /** The topic-filter stamp (see {@link TopicFilter}): the seq on a single node, the hub's publish count in a cluster. */
  final long stamp;
  final boolean clustered;
  final String cursor;
  /**
   * The contract's firing JSON ({@link TimerJson#firingJson}) plus {@code partition} (cluster) and {@code cursor}, in
   * UTF-8 ({@link FiringUtf8}); shared by every socket it is written to, never changed.
   */
  private final byte[] utf8;
  private Buffer sse;

  private EncodedFiring(Firing f, int partition, boolean clustered, String cursor, long stamp) {
    this.firing = f;
    this.partition = partition;
    this.seq = f.seq();
    this.topic = f.topic();
    this.stamp = stamp;
    this.clustered = clustered;
    this.cursor = cursor;
    this.utf8 = FiringUtf8.encode(f, partition, clustered, cursor);
  }

  /** A single node's firing: its cursor is its seq, so is its stamp. */
  static EncodedFiring single(Firing f) {
    return new EncodedFiring(f, 0, false, FiringCursor.single(f.seq()), f.seq());
  }

  static EncodedFiring of(Firing f, int partition, boolean clustered, String cursor, long stamp) {
    return new EncodedFiring(f, partition, clustered, cursor, stamp);
  }

  /** This firing with another cursor (a cluster subscriber's own position). */
  EncodedFiring withCursor(String c) {
    return c.equals(cursor) ? this : new EncodedFiring(firing, partition, clustered, c, stamp);
  }

  /** {@code id: <cursor>\nevent: fired\ndata: <json>\n\n}, built on first use and then reused. */
  Buffer sseFrame() {
    if (sse == null) {
      sse = SseFormat.event(cursor, "fired", utf8);
    }
    return sse;
  }

  /** The firing's wire text in UTF-8, shared by every socket it is written to: never change it. */
  byte[] utf8() {
    return utf8;
  }

  /** Approximate size in bytes, for the per-subscriber byte bound. */
  int size() {
    return utf8.length + cursor.length() + 32;
  }
}
