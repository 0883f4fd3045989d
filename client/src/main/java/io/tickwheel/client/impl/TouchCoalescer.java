package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * Merges touches of one (id, delayMs): a touch joins the command of that key that is not yet written (queued, or
 * requeued for a retry); if that key's command is written and unanswered, the touch becomes (or joins) the key's
 * single follow-up, submitted when the written one is answered. Every joined caller gets the answer of a command
 * written after its call. Follow-ups count against {@code maxQueued} with the channel's queue.
 *
 * <p>Not thread safe: the client's context only.
 */
final class TouchCoalescer {

  private record Key(String id, long delayMs) {}

  /** The key's current command (queued or in flight) and its follow-up, or null. */
  private static final class Slot {
    Command current;
    Command followUp;
  }

  private final CommandChannel channel;
  private final Map<Key, Slot> slots = new HashMap<>();
  private int followUps;
  private long merged;

  TouchCoalescer(CommandChannel channel) {
    this.channel = channel;
  }

  /** Follow-ups waiting for their key's command to be answered. */
  int followUps() {
    return followUps;
  }

  /** Touches that joined another's command so far. */
  long merged() {
    return merged;
  }

  /**
   * A touch of {@code id}: the {@code result} message of the command that carries it.
   *
   * @param delayMs the new countdown, or -1 for the timer's own
   */
  Future<JsonObject> touch(String id, long delayMs) {
    Key key = new Key(id, delayMs);
    Slot slot = slots.get(key);
    if (slot == null) {
      slot = new Slot();
      slots.put(key, slot);
      slot.current = command(id, delayMs);
      start(key, slot);
      return slot.current.promise.future();
    }
    if (!slot.current.written && !slot.current.done()) {
      merged++;
      return slot.current.promise.future();
    }
    if (slot.followUp != null) {
      merged++;
      return slot.followUp.promise.future();
    }
    if (!channel.roomToQueue(followUps + 1)) {
      return Future.failedFuture(TickwheelException.client(TickwheelException.QUEUE_FULL, "touch " + id
          + " not sent: " + channel.inFlight() + " commands in flight and " + (channel.queued() + followUps)
          + " queued (maxQueued)", false));
    }
    slot.followUp = command(id, delayMs);
    followUps++;
    return slot.followUp.promise.future();
  }

  private Command command(String id, long delayMs) {
    JsonObject fields = new JsonObject().put("id", id);
    if (delayMs >= 0) {
      fields.put("delayMs", delayMs);
    }
    return new Command("touch", fields, true, channel.deadline());
  }

  private void start(Key key, Slot slot) {
    Command c = slot.current;
    c.promise.future().onComplete(ar -> advance(key, slot));
    channel.submit(c);
  }

  private void advance(Key key, Slot slot) {
    if (slot.followUp == null) {
      slots.remove(key);
      return;
    }
    slot.current = slot.followUp;
    slot.followUp = null;
    followUps--;
    start(key, slot);
  }
}
