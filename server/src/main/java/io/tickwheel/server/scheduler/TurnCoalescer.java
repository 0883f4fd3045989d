package io.tickwheel.server.scheduler;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Group commit for pipelined writes: a {@link TimerStore} view whose single-timer writes made in one event-loop turn
 * go to the store as one write per kind at the end of the turn. Every {@link #createAll} of the turn becomes one
 * {@link TimerStore#createAll}, every {@link #createAbsent} one {@link DueIndex#createAbsent}, every {@link #put} one
 * {@link TimerStore#putAll}, every {@link #update} one {@link TimerStore#updateAll}; each caller's future completes
 * with its own item's result (or the whole write's failure). Everything else (reads, {@link #remove}, firings) goes
 * to the store at once. It is a {@link DueIndex} when the store is one ({@link #dueIndexAvailable()}).
 *
 * <h2>When a turn ends</h2>
 * The first write of a turn schedules a flush with {@link Context#runOnContext}: the event loop runs it after the
 * I/O events it is handling now, so the commands of every connection read in that pass share one store write.
 *
 * <h2>Writes in flight</h2>
 * At most {@link #MAX_IN_FLIGHT} end-of-turn writes of one kind are in flight. While that many are out, the turn's
 * writes of that kind wait, and the next turns' join them, until one of those answers: under load a write carries
 * what arrived during a store round trip, not one turn's few commands (a WebSocket client's commands, sent one per
 * answer, arrive over many turns). When idle a write goes at the end of its turn, as before.
 *
 * <h2>Bounds and order</h2>
 * A kind's pending list is flushed at once, whatever is in flight, when it reaches {@code maxBatch} items, or when an
 * id repeats in it (a store call takes distinct ids), so it never holds more than {@code maxBatch} timers. Callers
 * that need an order between writes of one id get it from the scheduler's id holds: an id has one write in flight at
 * a time. Writes of different kinds made in one turn are not ordered against each other (they concern different
 * ids).
 *
 * <p><b>Owner context only</b> (not thread safe): every write must be made on {@code owner}, where futures
 * complete.
 */
final class TurnCoalescer implements TimerStore, DueIndex {

  /** One kind of coalesced write: its pending items and their promises. */
  private abstract static class Pending<T> {
    final List<Timer> timers = new ArrayList<>();
    final List<Promise<T>> promises = new ArrayList<>();
    final Set<String> ids = new HashSet<>();
    /** Store writes of this kind sent and not answered yet. */
    int inFlight;

    /** Takes the pending items away (for a flush). */
    final List<Timer> takeTimers() {
      List<Timer> t = new ArrayList<>(timers);
      timers.clear();
      ids.clear();
      return t;
    }

    final List<Promise<T>> takePromises() {
      List<Promise<T>> p = new ArrayList<>(promises);
      promises.clear();
      return p;
    }
  }

  /** Most end-of-turn writes of one kind in flight; more wait for one of them to answer (see the class comment). */
  static final int MAX_IN_FLIGHT = 2;

  private final TimerStore store;
  private final Context owner;
  private final int maxBatch;
  private final Pending<Void> creates = new Pending<>() { };
  private final Pending<Set<String>> absents = new Pending<>() { };
  private final Pending<Void> puts = new Pending<>() { };
  private final Pending<Timer> updates = new Pending<>() { };
  /** Expected generations of {@link #updates}, in step with its timers. */
  private long[] updateGenerations = new long[16];
  private boolean flushScheduled;
  private long storeWrites;

  /**
   * @param store    where the coalesced writes go
   * @param owner    the context the writes are made on (the scheduler's)
   * @param maxBatch most timers in one coalesced store write, {@code >= 1}
   */
  TurnCoalescer(TimerStore store, Context owner, int maxBatch) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be >= 1, was " + maxBatch);
    }
    this.store = store;
    this.owner = owner;
    this.maxBatch = maxBatch;
  }

  /** How many coalesced store writes (createAll, createAbsent, putAll, updateAll) were made since start (tests, metrics). */
  long storeWrites() {
    return storeWrites;
  }

  /** Timers pending in this turn or waiting for a write of their kind to answer. */
  int waiting() {
    return creates.timers.size() + absents.timers.size() + puts.timers.size() + updates.timers.size();
  }

  // ------------------------------------------------------------------ coalesced writes

  /** Coalesced into the turn's {@link TimerStore#createAll}, with the same promise (ids not stored, held). */
  @Override
  public Future<Void> createAll(List<Timer> timers) {
    if (timers.size() != 1) {
      flushCreates();
      return store.createAll(timers);
    }
    return add(creates, timers.get(0), this::flushCreates);
  }

  /**
   * Coalesced into the turn's {@link DueIndex#createAbsent} (ids held, none in memory); each caller gets the ids of
   * its own timers the store kept. Fails with {@link IllegalStateException} when the store is not a due index.
   */
  @Override
  public Future<Set<String>> createAbsent(List<Timer> timers) {
    if (timers.size() != 1) {
      flushAbsents();
      return index().createAbsent(timers);
    }
    return add(absents, timers.get(0), this::flushAbsents);
  }

  private DueIndex index() {
    if (store instanceof DueIndex d) {
      return d;
    }
    throw new IllegalStateException("store " + store.name() + " has no due index");
  }

  /** Coalesced into the turn's {@link TimerStore#putAll}. */
  @Override
  public Future<Void> put(Timer t) {
    return add(puts, t, this::flushPuts);
  }

  /** Coalesced into the turn's {@link TimerStore#updateAll}. */
  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    if (updates.ids.contains(next.id())) {
      flushUpdates();
    }
    int i = updates.timers.size();
    if (i == updateGenerations.length) {
      updateGenerations = Arrays.copyOf(updateGenerations, i * 2);
    }
    updateGenerations[i] = expectedGeneration;
    return add(updates, next, this::flushUpdates);
  }

  private <T> Future<T> add(Pending<T> kind, Timer t, Runnable flushKind) {
    if (kind.ids.contains(t.id())) {
      flushKind.run();
    }
    Promise<T> p = Promise.promise();
    kind.timers.add(t);
    kind.ids.add(t.id());
    kind.promises.add(p);
    if (kind.timers.size() >= maxBatch) {
      flushKind.run();
    } else if (!flushScheduled) {
      flushScheduled = true;
      owner.runOnContext(v -> flush());
    }
    return p.future();
  }

  /**
   * Sends what is pending to the store at the end of a turn: one write per kind, for each kind with fewer than
   * {@link #MAX_IN_FLIGHT} writes in flight (the others go when one of theirs answers).
   */
  void flush() {
    flushScheduled = false;
    if (creates.inFlight < MAX_IN_FLIGHT) {
      flushCreates();
    }
    if (absents.inFlight < MAX_IN_FLIGHT) {
      flushAbsents();
    }
    if (puts.inFlight < MAX_IN_FLIGHT) {
      flushPuts();
    }
    if (updates.inFlight < MAX_IN_FLIGHT) {
      flushUpdates();
    }
  }

  /** One of {@code kind}'s writes answered: what waited goes at the end of this turn. */
  private void answered(Pending<?> kind) {
    kind.inFlight--;
    if (!kind.timers.isEmpty() && !flushScheduled) {
      flushScheduled = true;
      owner.runOnContext(v -> flush());
    }
  }

  private void flushAbsents() {
    if (absents.timers.isEmpty()) {
      return;
    }
    List<Promise<Set<String>>> ps = absents.takePromises();
    List<Timer> ts = absents.takeTimers();
    storeWrites++;
    absents.inFlight++;
    index().createAbsent(ts).onComplete(ar -> {
      answered(absents);
      for (int i = 0; i < ps.size(); i++) {
        if (ar.failed()) {
          ps.get(i).fail(ar.cause());
        } else {
          Set<String> mine = new HashSet<>(2);
          if (ar.result().contains(ts.get(i).id())) {
            mine.add(ts.get(i).id());
          }
          ps.get(i).complete(mine);
        }
      }
    });
  }

  private void flushCreates() {
    if (creates.timers.isEmpty()) {
      return;
    }
    List<Promise<Void>> ps = creates.takePromises();
    storeWrites++;
    creates.inFlight++;
    store.createAll(creates.takeTimers()).onComplete(ar -> {
      answered(creates);
      ps.forEach(p -> p.handle(ar));
    });
  }

  private void flushPuts() {
    if (puts.timers.isEmpty()) {
      return;
    }
    List<Promise<Void>> ps = puts.takePromises();
    storeWrites++;
    puts.inFlight++;
    store.putAll(puts.takeTimers()).onComplete(ar -> {
      answered(puts);
      ps.forEach(p -> p.handle(ar));
    });
  }

  private void flushUpdates() {
    if (updates.timers.isEmpty()) {
      return;
    }
    long[] gens = Arrays.copyOf(updateGenerations, updates.timers.size());
    List<Promise<Timer>> ps = updates.takePromises();
    storeWrites++;
    updates.inFlight++;
    store.updateAll(updates.takeTimers(), gens).onComplete(ar -> {
      answered(updates);
      for (int i = 0; i < ps.size(); i++) {
        if (ar.succeeded()) {
          ps.get(i).complete(ar.result().get(i));
        } else {
          ps.get(i).fail(ar.cause());
        }
      }
    });
  }

  // ------------------------------------------------------------------ straight through

  @Override
  public String name() {
    return store.name();
  }

  @Override
  public boolean keepsTimersOnHeap() {
    return store.keepsTimersOnHeap();
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    flushPuts();
    return store.putAll(timers);
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    flushUpdates();
    return store.updateAll(next, expectedGenerations);
  }

  @Override
  public Future<Timer> get(String id) {
    return store.get(id);
  }

  @Override
  public Future<Boolean> remove(String id) {
    return store.remove(id);
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return store.recordFirings(requests);
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return store.loadAll(batchSize, sink);
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return store.list(topic, after, limit);
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return store.readFirings(afterSeq, limit);
  }

  @Override
  public Future<Long> lastSeq() {
    return store.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return store.trimFirings(retention, nowMs);
  }

  /** Flushes what is pending first, so it stays ordered after the writes made before it. */
  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    flush();
    return store.setTopicPaused(topic, paused);
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return store.pausedTopics();
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    flush();
    return store.webhookSecret(generatedIfAbsent);
  }

  /** Flushes what is pending, then closes the store. */
  @Override
  public Future<Void> close() {
    flush();
    return store.close();
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return store.getDelivery(seq);
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return store.listDeliveries(state, afterSeq, limit);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    flush();
    return store.updateDelivery(d);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    flush();
    return store.updateDelivery(d, expected);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, java.util.function.Function<java.util.List<Delivery>, Future<Void>> sink) {
    return store.loadPendingDeliveries(batchSize, sink);
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    flush();
    return store.trimDeliveries(retention, nowMs);
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return store.countDeliveries(state);
  }

  // ------------------------------------------------------------------ the due index, straight through

  @Override
  public boolean dueIndexAvailable() {
    return store instanceof DueIndex d && d.dueIndexAvailable();
  }

  @Override
  public Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int limit) {
    return index().dueBetween(fromMs, toMs, after, limit);
  }

  @Override
  public Future<Long> timerCount() {
    return index().timerCount();
  }

  @Override
  public Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    return index().topicCounts(after, limit);
  }

  @Override
  public Future<Long> topicCount(String topic) {
    return index().topicCount(topic);
  }

  @Override
  public Future<Long> pausedCount() {
    return index().pausedCount();
  }

  @Override
  public Future<Set<String>> storedIds(List<String> ids) {
    return index().storedIds(ids);
  }
}
