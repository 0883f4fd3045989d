package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;

/**
 * One queued write call. {@link #apply} runs on the writer thread inside a {@link WriteGroup} and computes
 * the result; the result is handed out (on the caller's context) only after the group's batch was written.
 *
 * @param <T> the result type of the call
 */
abstract class WriteOp<T> {

  final Context context;
  final Promise<T> promise = Promise.promise();
  /** Position in the write queue; assigned under the store's submission lock. */
  long ticket;
  T result;
  Throwable failure;

  WriteOp(Context context) {
    this.context = context;
  }

  /** Adds this call's writes to the group and returns its result. Writer thread only. */
  abstract T apply(WriteGroup g) throws Exception;

  /** Completes the caller's promise; runs on {@link #context}. */
  final void complete() {
    if (failure != null) {
      promise.fail(failure);
    } else {
      promise.complete(result);
    }
  }

  /**
   * put / putAll: creates or replaces every timer, payload included. createAll ({@code absent}): the caller
   * promises the ids are not in the database, so only this group's own writes are consulted for old versions.
   */
  static final class Put extends WriteOp<Void> {
    private final List<Timer> timers;
    private final boolean absent;

    Put(Context c, List<Timer> timers) {
      this(c, timers, false);
    }

    Put(Context c, List<Timer> timers, boolean absent) {
      super(c);
      this.timers = timers;
      this.absent = absent;
    }

    @Override
    Void apply(WriteGroup g) throws RocksDBException {
      if (absent) {
        for (Timer t : timers) {
          g.putTimer(t, g.written(t.id()));
        }
        return null;
      }
      if (timers.size() == 1) {
        Timer t = timers.get(0);
        g.putTimer(t, g.current(t.id()));
        return null;
      }
      // one multiGet for the old versions (their index entries must go); overlays first, so a repeated id
      // in the list replaces the version written just before it
      Map<String, Timer> stored = g.prefetch(timers.stream().map(Timer::id).toList());
      for (Timer t : timers) {
        g.putTimer(t, g.current(t.id(), stored));
      }
      return null;
    }
  }

  /**
   * createAbsent: creates the timers whose ids have no record (in the database or this group's writes), leaves the
   * others; answers the ids that had one. The old versions are read with one multiGet.
   */
  static final class CreateAbsent extends WriteOp<java.util.Set<String>> {
    private final List<Timer> timers;

    CreateAbsent(Context c, List<Timer> timers) {
      super(c);
      this.timers = timers;
    }

    @Override
    java.util.Set<String> apply(WriteGroup g) throws RocksDBException {
      java.util.Set<String> found = new java.util.HashSet<>();
      Map<String, Timer> stored = timers.size() == 1 ? Map.of() : g.prefetch(timers.stream().map(Timer::id).toList());
      for (Timer t : timers) {
        Timer old = timers.size() == 1 ? g.current(t.id()) : g.current(t.id(), stored);
        if (old != null) {
          found.add(t.id());
        } else {
          g.putTimer(t, null);
        }
      }
      return found;
    }
  }

  /**
   * update: replaces the schedule if the stored generation matches, keeping the stored payload; answers the
   * stored timer, or {@code null} when nothing was changed.
   */
  static final class Update extends WriteOp<Timer> {
    private final Timer next;
    private final long expectedGeneration;

    Update(Context c, Timer next, long expectedGeneration) {
      super(c);
      this.next = next;
      this.expectedGeneration = expectedGeneration;
    }

    @Override
    Timer apply(WriteGroup g) throws RocksDBException {
      Timer old = g.current(next.id());
      if (old == null || old.generation() != expectedGeneration) {
        return null;
      }
      Timer stored = next.withPayload(old.payload());
      g.putTimer(stored, old);
      return stored;
    }
  }

  /**
   * updateAll: per item, as {@link Update}; the old versions are read with one multiGet. Answers, per item, the
   * stored timer or {@code null}.
   */
  static final class UpdateAll extends WriteOp<List<Timer>> {
    private final List<Timer> next;
    private final long[] expectedGenerations;

    UpdateAll(Context c, List<Timer> next, long[] expectedGenerations) {
      super(c);
      this.next = next;
      this.expectedGenerations = expectedGenerations;
    }

    @Override
    List<Timer> apply(WriteGroup g) throws RocksDBException {
      Map<String, Timer> stored = next.size() == 1 ? Map.of() : g.prefetch(next.stream().map(Timer::id).toList());
      List<Timer> out = new ArrayList<>(next.size());
      g.deferDueWrites();
      for (int i = 0; i < next.size(); i++) {
        Timer n = next.get(i);
        Timer old = g.current(n.id(), stored);
        if (old == null || old.generation() != expectedGenerations[i]) {
          out.add(null);
          continue;
        }
        Timer t = n.withPayload(old.payload());
        g.putTimer(t, old);
        out.add(t);
      }
      g.endDeferDueWrites();
      return out;
    }
  }

  /** remove: deletes a timer and its index entry; says whether it existed. */
  static final class Remove extends WriteOp<Boolean> {
    private final String id;

    Remove(Context c, String id) {
      super(c);
      this.id = id;
    }

    @Override
    Boolean apply(WriteGroup g) throws RocksDBException {
      Timer old = g.current(id);
      if (old == null) {
        return false;
      }
      g.deleteTimer(old);
      return true;
    }
  }

  /** recordFirings: per request, append its firing and advance or remove its timer unless stale. */
  static final class RecordFirings extends WriteOp<List<FiringResult>> {
    private final List<FiringRequest> requests;

    RecordFirings(Context c, List<FiringRequest> requests) {
      super(c);
      this.requests = requests;
    }

    @Override
    List<FiringResult> apply(WriteGroup g) throws RocksDBException {
      List<FiringResult> out = new ArrayList<>(requests.size());
      // one multiGet for the batch instead of a get per timer (a JNI call and a memtable/SST look-up each)
      Map<String, Codec.Head> prefetched = requests.size() == 1 ? Map.of()
          : g.prefetchHeads(requests.stream().map(FiringRequest::id).toList());
      g.deferDueWrites();
      for (FiringRequest r : requests) {
        Codec.Head stored = g.head(r.id(), prefetched);
        if (stored == null || stored.generation() != r.generation() || stored.firings() != r.firingsBefore()) {
          out.add(FiringResult.stale());
          continue;
        }
        Firing f = null;
        if (r.fire()) {
          f = g.appendFiring(new Firing(0, r.id(), stored.topic(), r.firingsBefore() + 1, r.dueAt(), r.firedAt(),
              stored.payload(), r.nominalAt()));
        }
        Delivery d = null;
        if (f != null && r.callback() != null) {
          d = Delivery.pending(f, r.callback());
          g.putDelivery(d, null);
        }
        if (r.next() == null) {
          g.deleteTimer(stored);
        } else {
          Timer next = r.next().withPayload(stored.payload());
          g.putTimer(next, stored.stored() == null ? null : Codec.rearmed(stored.stored(), next), stored);
        }
        out.add(f == null ? FiringResult.advanced() : FiringResult.fired(f, d));
      }
      g.endDeferDueWrites();
      return out;
    }
  }

  /**
   * updateDelivery: replaces a stored delivery (state index and counts in step) if it is in the expected state (any
   * when null); creates none. The check reads the group's own earlier writes, so two ops of one group compare in
   * order.
   */
  static final class UpdateDelivery extends WriteOp<Boolean> {
    private final Delivery d;
    private final DeliveryState expected;

    UpdateDelivery(Context c, Delivery d, DeliveryState expected) {
      super(c);
      this.d = d;
      this.expected = expected;
    }

    @Override
    Boolean apply(WriteGroup g) throws RocksDBException {
      Delivery old = g.currentDelivery(d.seq());
      if (old == null || (expected != null && old.state() != expected)) {
        return false;
      }
      g.putDelivery(d, old);
      return true;
    }
  }


  /** setTopicPaused: one {@code meta} key per paused topic, written or deleted (idempotent either way). */
  static final class SetTopicPaused extends WriteOp<Void> {
    private final String topic;
    private final boolean paused;

    SetTopicPaused(Context c, String topic, boolean paused) {
      super(c);
      this.topic = topic;
      this.paused = paused;
    }

    @Override
    Void apply(WriteGroup g) throws RocksDBException {
      if (paused) {
        g.batch.put(g.db.meta, Keys.pausedTopic(topic), new byte[0]);
      } else {
        g.batch.delete(g.db.meta, Keys.pausedTopic(topic));
      }
      return null;
    }
  }

  /** webhookSecret: set-if-absent of one {@code meta} key; the writer thread's order makes it atomic. */
  static final class WebhookSecret extends WriteOp<String> {
    private final String generatedIfAbsent;

    WebhookSecret(Context c, String generatedIfAbsent) {
      super(c);
      this.generatedIfAbsent = generatedIfAbsent;
    }

    @Override
    String apply(WriteGroup g) throws RocksDBException {
      if (g.webhookSecret == null) {
        byte[] stored = g.db.db.get(g.db.meta, Keys.WEBHOOK_SECRET);
        if (stored != null) {
          g.webhookSecret = new String(stored, java.nio.charset.StandardCharsets.UTF_8);
        } else {
          g.batch.put(g.db.meta, Keys.WEBHOOK_SECRET, generatedIfAbsent.getBytes(java.nio.charset.StandardCharsets.UTF_8));
          g.webhookSecret = generatedIfAbsent;
        }
      }
      return g.webhookSecret;
    }
  }

  /** The last call of a store: the writer thread writes everything queued before it, then closes. */
  static final class Close extends WriteOp<Void> {
    Close(Context c) {
      super(c);
    }

    @Override
    Void apply(WriteGroup g) {
      throw new IllegalStateException("Close is handled by the writer loop");
    }
  }
}
