package io.tickwheel.core.wheel;

import java.util.ArrayList;
import java.util.List;

/** Test handler: records every timer handed out together with the {@code now} of the advance that did it. */
final class Recorder<V> implements ExpiryHandler<V> {

  record Fired(String key, long dueAtMs, Object value, long nowMs) {}

  /** Extra behaviour run after recording (re-entrant calls into the wheel). */
  interface Then<V> {
    void run(String key, long dueAtMs, V value);
  }

  final List<Fired> fired = new ArrayList<>();
  private long now;
  private Then<V> then;

  Recorder<V> then(Then<V> action) {
    this.then = action;
    return this;
  }

  int advance(TimerWheel<V> wheel, long nowMs) {
    return advance(wheel, nowMs, Integer.MAX_VALUE);
  }

  int advance(TimerWheel<V> wheel, long nowMs, int limit) {
    now = nowMs;
    return wheel.advance(nowMs, this, limit);
  }

  @Override
  public void onExpiry(String key, long dueAtMs, V value) {
    fired.add(new Fired(key, dueAtMs, value, now));
    if (then != null) {
      then.run(key, dueAtMs, value);
    }
  }

  List<String> keys() {
    List<String> keys = new ArrayList<>(fired.size());
    for (Fired f : fired) {
      keys.add(f.key());
    }
    return keys;
  }

  /** The keys handed out since the last call. */
  List<String> takeKeys() {
    List<String> keys = keys();
    fired.clear();
    return keys;
  }
}
