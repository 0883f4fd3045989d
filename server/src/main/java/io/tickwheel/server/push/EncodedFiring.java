package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.server.wire.SseFormat;
import io.vertx.core.buffer.Buffer;

/**
 * One firing rendered for the wire, shared by every subscriber it goes to: the contract's JSON text is built
 * once per publish, the Server-Sent Events frame at most once (on first use). Replayed firings are encoded
 * per subscriber (replay is per subscriber anyway).
 *
 * <p>Not thread safe: used on the hub's owner context only. The SSE {@link Buffer} is safe to write to many
 * responses (Vert.x writes a duplicate of the underlying bytes each time).
 */
final class EncodedFiring {

  final long seq;
  final String topic;
  /** The contract's firing JSON ({@link TimerJson#firingJson}). */
  final String json;
  private Buffer sse;

  private EncodedFiring(long seq, String topic, String json) {
    this.seq = seq;
    this.topic = topic;
    this.json = json;
  }

  static EncodedFiring of(Firing f) {
    return new EncodedFiring(f.seq(), f.topic(), TimerJson.firingJson(f));
  }

  /** {@code id: <seq>\nevent: fired\ndata: <json>\n\n}, built on first use and then reused. */
  Buffer sseFrame() {
    if (sse == null) {
      sse = SseFormat.event(Long.toString(seq), "fired", json);
    }
    return sse;
  }

  /** Approximate size in bytes, for the per-subscriber byte bound. */
  int size() {
    return json.length() + 32;
  }
}
