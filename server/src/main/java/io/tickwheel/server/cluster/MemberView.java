package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.Member;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The members a node counts in the assignment, damped so that partitions do not flap:
 * <ul>
 *   <li>a member that appears counts only once it has been seen for {@code settleMs} (one heartbeat period): a node
 *       that starts and dies at once, or flickers, moves nothing;</li>
 *   <li>the members already there at this node's first look count at once (they were there before it);</li>
 *   <li>a member stops counting when it is no longer live in the coordinator (its heartbeat expired after the lease,
 *       or it left); a failed heartbeat call (a Redis hiccup) changes nothing: the last answer stands;</li>
 *   <li>this node always counts itself.</li>
 * </ul>
 * Local times are this node's {@link MonotonicClock}, ms. Not thread safe: the lease keeper's context only.
 */
final class MemberView {

  private final String self;
  private final long settleMs;
  private final Map<String, Long> firstSeen = new HashMap<>();
  private List<Member> live = List.of();
  private boolean first = true;
  private long coordinatorTime;
  /** This node's local time (ms) at which it sent the heartbeat {@link #coordinatorTime} answered. */
  private long coordinatorTimeSent;

  MemberView(String self, long settleMs) {
    this.self = self;
    this.settleMs = settleMs;
  }

  /** The live members as the coordinator answered at local time {@code now}. */
  void update(List<Member> members, long now) {
    Map<String, Long> next = new HashMap<>();
    for (Member m : members) {
      Long seen = firstSeen.get(m.nodeId());
      next.put(m.nodeId(), seen != null ? seen : first ? now - settleMs : now);
    }
    firstSeen.clear();
    firstSeen.putAll(next);
    live = List.copyOf(members);
    first = false;
    for (Member m : members) {
      if (m.nodeId().equals(self) && m.lastSeenAt() > coordinatorTime) {
        coordinatorTime = m.lastSeenAt();
        coordinatorTimeSent = now;
      }
    }
  }

  /** The ids that count at local time {@code now}, sorted, this node included. */
  List<String> eligible(long now) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Long> e : firstSeen.entrySet()) {
      if (e.getKey().equals(self) || now - e.getValue() >= settleMs) {
        out.add(e.getKey());
      }
    }
    if (!out.contains(self)) {
      out.add(self);
    }
    out.sort(null);
    return out;
  }

  /** Whether {@code nodeId} was live at the last answer. */
  boolean isLive(String nodeId) {
    return firstSeen.containsKey(nodeId);
  }

  /**
   * The coordinator's clock when it last answered this node's heartbeat (this node's {@code lastSeenAt}), epoch ms:
   * a lease whose {@code expiresAt} is not after it has certainly ended. 0 before the first answer.
   */
  long coordinatorTime() {
    return coordinatorTime;
  }

  /**
   * The local time (this node's clock, ms) at which the coordinator's clock reads {@code coordinatorMs}, as estimated
   * from the last heartbeat: its send time stands for the coordinator's time of its answer, so the estimate is early by
   * at most that call's time. {@code coordinatorMs} itself before the first answer.
   */
  long localTimeOf(long coordinatorMs) {
    return coordinatorTime == 0 ? coordinatorMs : coordinatorTimeSent + (coordinatorMs - coordinatorTime);
  }

  /** The live members at the last answer, sorted by id. */
  List<Member> live() {
    return live;
  }
}
