package io.tickwheel.core.store;

import io.tickwheel.core.model.Firing;
import io.vertx.core.Future;
import java.util.List;

/**
 * The firing log part of a store: settling due timers into numbered firings, reading them back in order, trimming.
 *
 * <p>Follows the contract common to every part ({@link TimerStore}). In addition:
 * <ul>
 *   <li><b>Sequence.</b> Firing {@code seq} is one strictly increasing sequence per store, starting at 1, without
 *       gaps, surviving restarts and trimming.</li>
 *   <li><b>Atomicity.</b> Each {@link FiringRequest} of {@link #recordFirings} is atomic on its own with the
 *       {@link TimerTable} and {@link DeliveryTable} parts of the same store: the firing appended, its timer
 *       advanced or removed, and its delivery created (when it has a callback) together or not at all.</li>
 *   <li><b>Units.</b> Times are epoch milliseconds.</li>
 * </ul>
 * Implementations are thread safe. Contract suite: {@code FiringLogContract} in core's test-jar.
 */
public interface FiringLog {

  /**
   * Settles due timers: for each request, atomically append its firing to the log (when it fires) and
   * advance or remove its timer, if it is not stale (see {@link FiringRequest}). A store may group-commit
   * the whole list in one write.
   *
   * @return one result per request, in order; applied firings get consecutive increasing seqs in list order
   */
  Future<List<FiringResult>> recordFirings(List<FiringRequest> requests);

  /** Retained firings with {@code seq > afterSeq}, ascending, at most {@code limit}. */
  Future<List<Firing>> readFirings(long afterSeq, int limit);

  /** The seq of the latest firing ever recorded (retained or trimmed), {@code 0} if none. */
  Future<Long> lastSeq();

  /**
   * Trims the firing log to {@code retention} as of {@code nowMs}; the newest firing is always kept.
   *
   * @return how many firings were removed
   */
  Future<Long> trimFirings(Retention retention, long nowMs);
}
