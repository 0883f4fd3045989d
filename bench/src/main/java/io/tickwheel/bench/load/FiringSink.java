package io.tickwheel.bench.load;

/** Receives every firing a target reports; called from any thread, must be cheap and thread safe. */
@FunctionalInterface
public interface FiringSink {
  /** @param id the timer's id; @param dueAtMs its due time (epoch ms) as the target reports it, or as scheduled;
   *  @param receivedAtMs when the client learned of the firing (System.currentTimeMillis()) */
  void fired(String id, long dueAtMs, long receivedAtMs);
}
