package io.tickwheel.bench.wheel;

import java.util.List;

/** Creates the peers by the names the benchmarks' {@code peer} parameter uses. */
public final class Peers {

  /** Every peer, ours first. */
  public static final List<String> NAMES = List.of("ours", "agrona", "agronaRaw", "netty", "kafka", "stpe");

  private Peers() {
  }

  /**
   * A peer set up for the schedule/cancel/churn workloads (timers hours away).
   *
   * @param name   one of {@link #NAMES}
   * @param timers how many distinct timers (keys) the workload uses
   */
  public static TimerPeer forPending(String name, int timers) {
    return switch (name) {
      case "ours" -> new OursPeer();
      case "agrona" -> new AgronaPeer(AgronaPeer.PENDING_TICKS_PER_WHEEL, timers);
      case "agronaRaw" -> new AgronaRawPeer(AgronaPeer.PENDING_TICKS_PER_WHEEL, timers);
      case "netty" -> new NettyPeer(timers);
      case "kafka" -> new KafkaPeer(true, timers);
      case "stpe" -> new StpePeer(timers);
      default -> throw unknown(name);
    };
  }

  /**
   * A peer set up for the drain workload ({@link TimerPeer#prepareDue}, {@link TimerPeer#drainDue}).
   *
   * @param name   one of {@link #NAMES}
   * @param timers how many timers one drain hands out
   */
  public static TimerPeer forDrain(String name, int timers) {
    return switch (name) {
      case "ours" -> new OursPeer();
      case "agrona" -> new AgronaPeer(AgronaPeer.DRAIN_TICKS_PER_WHEEL, timers);
      case "agronaRaw" -> new AgronaRawPeer(AgronaPeer.DRAIN_TICKS_PER_WHEEL, timers);
      case "netty" -> new NettyPeer(timers);
      case "kafka" -> new KafkaPeer(false, timers);
      case "stpe" -> new StpePeer(timers);
      default -> throw unknown(name);
    };
  }

  private static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException("peer must be one of " + NAMES + ", was '" + name + "'");
  }
}
