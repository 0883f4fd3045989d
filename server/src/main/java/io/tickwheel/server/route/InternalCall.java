package io.tickwheel.server.route;

import io.tickwheel.core.model.TimerSpec;
import java.util.List;

/**
 * A call one node makes to another (to {@link InternalCodec#PATH}: a message on its call socket, or a
 * {@code POST}): the work a partition's owner does for the node that received the client's call. Each is served from the owner's own partitions only, never forwarded
 * again. Ids travel in the body, never in a path. Immutable.
 */
public sealed interface InternalCall {

  /**
   * Create these timers (a client's batch for the owner's partitions, or single creates gathered).
   *
   * @param specs   the timers, in order; after decoding, {@code null} where the owner's parser refused the item
   * @param refused after decoding, per item the parser's refusal or {@code null}; {@code null} when sending
   */
  record CreateAll(List<TimerSpec> specs, RuntimeException[] refused) implements InternalCall {
    public CreateAll(List<TimerSpec> specs) {
      this(specs, null);
    }
  }

  /** Create or replace these timers with their whole state (an import's items for the owner's partitions). */
  record RestoreAll(List<io.tickwheel.core.model.Timer> timers) implements InternalCall {}

  /** Touch these timers, with one {@code delayMs} override or {@code null}. */
  record TouchAll(List<String> ids, Long delayMs) implements InternalCall {}

  /** Create or replace {@code spec} ({@code spec.id()} set). */
  record Upsert(TimerSpec spec) implements InternalCall {}

  /** One of the calls on one timer that take only its id. */
  record OnTimer(Op op, String id) implements InternalCall {}

  /** The calls {@link OnTimer} carries, by their wire names. */
  enum Op {
    GET("get"), CANCEL("cancel"), PAUSE("pause"), RESUME("resume"), FIRE("fire");

    final String wire;

    Op(String wire) {
      this.wire = wire;
    }

    static Op ofWire(String s) {
      for (Op op : values()) {
        if (op.wire.equals(s)) {
          return op;
        }
      }
      return null;
    }
  }

  /** The topics of the owner's partitions, as {@link Timers#topics} takes them. */
  record Topics(String after, int limit, String only) implements InternalCall {}

  /** Re-queue dead delivery {@code id} ({@code msg_<partition>_<seq>}). */
  record RetryDelivery(String id) implements InternalCall {}
}
