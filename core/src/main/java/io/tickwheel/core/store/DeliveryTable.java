package io.tickwheel.core.store;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Function;

/**
 * The callback deliveries part of a store: one record per firing of a timer with a callback, keyed by the firing's
 * seq, in one of the {@link DeliveryState}s. Records are created only by {@link FiringLog#recordFirings}, atomically
 * with their firing; this part reads, replaces, counts and trims them.
 *
 * <p>Follows the contract common to every part ({@link TimerStore}): asynchronous, completing on the caller's
 * context, each write atomic and durable, calls from one thread applied in order, failures as
 * {@link StoreException}s. Times are epoch milliseconds. Implementations are thread safe. Contract suite:
 * {@code DeliveryTableContract} in core's test-jar.
 */
public interface DeliveryTable {

  /**
   * The delivery of the firing {@code seq} (its id is {@code Delivery.idOf(seq)}), or {@code null} when there is none
   * (never created, or trimmed).
   */
  Future<Delivery> getDelivery(long seq);

  /**
   * A page of deliveries in seq order, strictly after {@code afterSeq} ({@code 0}: from the start), at most
   * {@code limit}, only those in {@code state} if not {@code null}.
   */
  Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit);

  /**
   * Replaces the stored delivery {@code d.seq()} with {@code d} (after an attempt or a postponement), whatever its
   * state: {@link #updateDelivery(Delivery, DeliveryState)} expecting no state.
   *
   * @return whether it was stored (and is now replaced)
   */
  default Future<Boolean> updateDelivery(Delivery d) {
    return updateDelivery(d, null);
  }

  /**
   * Replaces the stored delivery {@code d.seq()} with {@code d} if the stored one is in state {@code expected}:
   * a compare-and-set on the state, atomic with the replacement, so of concurrent calls that expect the state the
   * stored record is in, exactly one succeeds (a re-queue of a dead delivery expects {@link DeliveryState#DEAD}).
   * Durable and ordered like every write. A delivery that is not stored (trimmed, never created) is not created.
   *
   * @param expected the state the stored delivery must be in, or {@code null}: any
   * @return whether it was stored in that state (and is now replaced); {@code false} changes nothing
   */
  Future<Boolean> updateDelivery(Delivery d, DeliveryState expected);

  /**
   * Streams every {@link DeliveryState#PENDING} delivery to {@code sink} in batches of at most {@code batchSize},
   * waiting for the future {@code sink} returns before the next batch. Used at recovery.
   *
   * @return how many were streamed
   */
  Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink);

  /**
   * {@link #loadPendingDeliveries} built on {@link #listDeliveries}, for implementations whose reads complete
   * asynchronously: pages of {@code batchSize} read one after the other, each handed to {@code sink} and waited for
   * before the next is read, into one result. One promise for the whole read, not a future composed per page:
   * thousands of pages would complete that many futures one inside the other and overflow the stack.
   *
   * @return how many were streamed
   */
  static Future<Long> pagePending(DeliveryTable table, int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    io.vertx.core.Promise<Long> done = io.vertx.core.Promise.promise();
    pagePending(table, 0, batchSize, sink, 0, done);
    return done.future();
  }

  private static void pagePending(DeliveryTable table, long after, int batchSize,
      Function<List<Delivery>, Future<Void>> sink, long n, io.vertx.core.Promise<Long> done) {
    table.listDeliveries(DeliveryState.PENDING, after, batchSize).compose(page -> page.items().isEmpty()
        ? Future.succeededFuture(page) : sink.apply(page.items()).map(v -> page)).onComplete(ar -> {
          if (ar.failed()) {
            done.fail(ar.cause());
            return;
          }
          DeliveryPage page = ar.result();
          long total = n + page.items().size();
          if (page.items().isEmpty() || page.nextAfter() < 0) {
            done.complete(total);
          } else {
            pagePending(table, page.nextAfter(), batchSize, sink, total, done);
          }
        });
  }

  /**
   * Removes finished deliveries (succeeded or dead; pending ones are never removed) beyond {@code retention}:
   * the oldest (by seq) above {@code maxCount} finished ones, and those last changed before
   * {@code nowMs - maxAgeMs}. Bounded work per call: a store may stop after some thousands and finish on a later
   * call. This is the cap of the delivery records: their number stays about {@code maxCount} plus the pending ones.
   *
   * @return how many were removed
   */
  Future<Long> trimDeliveries(Retention retention, long nowMs);

  /** The number of deliveries in {@code state} now stored. */
  Future<Long> countDeliveries(DeliveryState state);
}
