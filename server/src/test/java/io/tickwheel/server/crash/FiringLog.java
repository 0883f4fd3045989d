package io.tickwheel.server.crash;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Every firing the test received over all its WebSocket connections, in arrival order, and every protocol
 * violation seen on the way: a seq that is not exactly the previous one plus one (a gap, a duplicate or a
 * reordering), or an error message from the server. Thread safe.
 */
final class FiringLog {

  /** One received firing, with the test's receipt time (same machine, same clock as the server). */
  record Received(long seq, String id, long firing, long dueAt, long firedAt, long receivedAtMs) {}

  private final List<Received> firings = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private long lastSeq;

  synchronized void fired(JsonObject m, long receivedAtMs) {
    long seq = m.getLong("seq");
    if (seq != lastSeq + 1) {
      violations.add((seq <= lastSeq ? "duplicate or reordered" : "gap:") + " seq " + seq + " after " + lastSeq
          + " (" + m.encode() + ")");
    }
    if (seq <= lastSeq) {
      return;
    }
    lastSeq = seq;
    firings.add(new Received(seq, m.getString("id"), m.getLong("firing"), m.getLong("dueAt"), m.getLong("firedAt"),
        receivedAtMs));
  }

  synchronized void violation(String what) {
    violations.add(what);
  }

  synchronized long lastSeq() {
    return lastSeq;
  }

  synchronized List<Received> firings() {
    return List.copyOf(firings);
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }
}
