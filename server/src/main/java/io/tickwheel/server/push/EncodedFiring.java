package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.server.wire.SseFormat;
import io.vertx.core.buffer.Buffer;

/**
 * One firing rendered for the wire, shared by every subscriber it goes to: the contract's JSON text, with its
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
  /** The contract's firing JSON ({@link TimerJson#firingJson}) plus {@code partition} (cluster) and {@code cursor}. */
  final String json;
  private Buffer sse;
  private byte[] utf8;

  private EncodedFiring(Firing f, int partition, boolean clustered, String cursor, long stamp) {
    this.firing = f;
    this.partition = partition;
    this.seq = f.seq();
    this.topic = f.topic();
    this.stamp = stamp;
    this.clustered = clustered;
    this.cursor = cursor;
    StringBuilder sb = new StringBuilder(160 + cursor.length() + (f.payload() == null ? 0 : f.payload().length()));
    TimerJson.appendFiringFields(sb, f);
    if (clustered) {
      sb.append(",\"partition\":").append(partition);
    }
    this.json = sb.append(",\"cursor\":\"").append(cursor).append("\"}").toString();
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
      sse = SseFormat.event(cursor, "fired", json);
    }
    return sse;
  }

  /** {@link #json} in UTF-8, built on first use and shared by every socket it is written to (never changed). */
  byte[] utf8() {
    if (utf8 == null) {
      utf8 = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    return utf8;
  }

  /** Approximate size in bytes, for the per-subscriber byte bound. */
  int size() {
    return json.length() + cursor.length() + 32;
  }
}
