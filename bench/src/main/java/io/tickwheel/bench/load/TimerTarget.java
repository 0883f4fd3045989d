package io.tickwheel.bench.load;

/** One timer system under load: tickwheel over HTTP+WebSocket, or a peer in its durable mode. */
public interface TimerTarget extends AutoCloseable {
  String name();                                                         // e.g. "tickwheel-rocksdb", "quartz-jdbc"
  void start(FiringSink sink) throws Exception;                          // connect / start workers; from now on report firings
  java.util.concurrent.CompletionStage<Void> schedule(String id, long dueAtMs);         // completes when durably accepted
  java.util.concurrent.CompletionStage<Void> scheduleBatch(java.util.List<String> ids, long[] dueAtMs); // one durable batch; peers without a batch API do what their docs recommend for bulk
  java.util.concurrent.CompletionStage<Void> reschedule(String id, long newDueAtMs);    // heartbeat: postpone a pending timer
  void reset() throws Exception;                                         // remove every timer/firing the tool created (between scenarios)

  /**
   * Between two passes of the throughput scenario's warm-up: a target whose speed or memory depends on how many timers
   * it holds may remove the timers the warm-up created, without restarting anything the warm-up warmed, so each pass
   * and the measured run start near the same count. The default keeps them (the target then holds every pass's).
   */
  default void dropWarmup() throws Exception {
  }
  @Override void close() throws Exception;
}
