package io.tickwheel.core.coordination.memory;

import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One partition of a {@link MemoryCoordinator}: every write runs under the coordinator's lock after checking the
 * partition's lease (epoch current, not expired), so the check and the write are one atomic step; a refused write
 * fails with {@link StoreFencedException} and changes nothing. A reader ({@code readOnly}) fails every write. Topic
 * pauses and the webhook secret are the cluster's ({@link MemoryCoordinator#setTopicPaused}). {@link #close()} ends this handle only (later
 * calls fail with {@link StoreClosedException}), not the shared data.
 *
 * <p>Thread safe.
 */
final class FencedMemoryStore implements TimerStore, io.tickwheel.core.store.TimerExport {

  private final MemoryCoordinator coordinator;
  private final MemoryTimerStore data;
  private final int partition;
  private final long epoch;
  private final boolean readOnly;
  private volatile boolean closed;

  FencedMemoryStore(MemoryCoordinator coordinator, MemoryTimerStore data, int partition, long epoch, boolean readOnly) {
    this.coordinator = coordinator;
    this.data = data;
    this.partition = partition;
    this.epoch = epoch;
    this.readOnly = readOnly;
  }

  private <T> Future<T> read(Supplier<Future<T>> op) {
    return closed ? Future.failedFuture(new StoreClosedException(name() + " closed")) : op.get();
  }

  private <T> Future<T> write(Supplier<Future<T>> op) {
    if (closed) {
      return Future.failedFuture(new StoreClosedException(name() + " closed"));
    }
    if (readOnly) {
      return Future.failedFuture(new StoreFaultException("partition " + partition + " reader: writes are not allowed",
          null, false));
    }
    synchronized (coordinator) {
      if (!coordinator.fenceHolds(partition, epoch)) {
        return Future.failedFuture(new StoreFencedException(partition, epoch));
      }
      return op.get();
    }
  }

  @Override
  public String name() {
    return "memory-partition-" + partition;
  }

  @Override
  public boolean keepsTimersOnHeap() {
    return true;
  }

  @Override
  public Future<Void> put(Timer t) {
    return write(() -> data.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return write(() -> data.putAll(timers));
  }

  @Override
  public Future<Void> createAll(List<Timer> timers) {
    return write(() -> data.createAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return write(() -> data.update(next, expectedGeneration));
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return write(() -> data.updateAll(next, expectedGenerations));
  }

  @Override
  public Future<Timer> get(String id) {
    return read(() -> data.get(id));
  }

  @Override
  public Future<Boolean> remove(String id) {
    return write(() -> data.remove(id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return write(() -> data.recordFirings(requests));
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return read(() -> data.loadAll(batchSize, sink));
  }

  /** The partition's memory store's export ({@link MemoryTimerStore#exportAll}). */
  @Override
  public Future<Long> exportAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return read(() -> data.exportAll(batchSize, sink));
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return read(() -> data.list(topic, after, limit));
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return read(() -> data.readFirings(afterSeq, limit));
  }

  @Override
  public Future<Long> lastSeq() {
    return read(() -> data.lastSeq());
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return write(() -> data.trimFirings(retention, nowMs));
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return write(() -> coordinator.setTopicPaused(topic, paused));
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return read(() -> data.getDelivery(seq));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return read(() -> data.listDeliveries(state, afterSeq, limit));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    return write(() -> data.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    return read(() -> data.loadPendingDeliveries(batchSize, sink));
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return write(() -> data.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return read(() -> data.countDeliveries(state));
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return read(() -> coordinator.webhookSecret(generatedIfAbsent));
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return read(() -> coordinator.pausedTopics().map(HashSet::new));
  }
}
