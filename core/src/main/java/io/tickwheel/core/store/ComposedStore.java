package io.tickwheel.core.store;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link TimerStore} assembled from its parts: every call goes to the part it belongs to, unchanged. This is the
 * one place that forwards the whole surface, so that
 * <ul>
 *   <li>a store implemented as separate parts (Redis) is the assembly of them, and</li>
 *   <li>a decorator replaces only the part it decorates ({@link #withTimers}, {@link #withFiringLog}, …), or extends
 *       this class and overrides only the calls it changes, calling {@code super} for the part.</li>
 * </ul>
 * Same contract as its parts; thread safe when they are. Default methods of the parts are forwarded too (a store's
 * own {@link TimerTable#createAll} is used, not the default).
 */
public class ComposedStore implements TimerStore {

  private final String name;
  private final TimerTable timers;
  private final FiringLog firings;
  private final DeliveryTable deliveries;
  private final StoreSettings settings;
  private final Supplier<Future<Void>> close;

  /**
   * @param name       {@link #name()}
   * @param close      what {@link #close()} does (closes whatever the parts share)
   */
  public ComposedStore(String name, TimerTable timers, FiringLog firings, DeliveryTable deliveries,
      StoreSettings settings, Supplier<Future<Void>> close) {
    this.name = Objects.requireNonNull(name, "name");
    this.timers = Objects.requireNonNull(timers, "timers");
    this.firings = Objects.requireNonNull(firings, "firings");
    this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.close = Objects.requireNonNull(close, "close");
  }

  /** The same parts as {@code parts} (for a subclass that decorates some calls of an assembly). */
  protected ComposedStore(ComposedStore parts) {
    this(parts.name, parts.timers, parts.firings, parts.deliveries, parts.settings, parts.close);
  }

  /**
   * {@code store} as an assembly of parts: the very parts of a plain assembly, else {@code store} as each part (a
   * subclass's decorated calls are kept).
   */
  public static ComposedStore of(TimerStore store) {
    if (store.getClass() == ComposedStore.class) {
      return (ComposedStore) store;
    }
    return new ComposedStore(store.name(), store, store, store, store, store::close);
  }

  /** This store with {@code t} as its timers part, its other parts as they are. */
  public ComposedStore withTimers(TimerTable t) {
    ComposedStore p = of(this);
    return new ComposedStore(name, t, p.firings, p.deliveries, p.settings, p.close);
  }

  /** This store with {@code f} as its firing log part, its other parts as they are. */
  public ComposedStore withFiringLog(FiringLog f) {
    ComposedStore p = of(this);
    return new ComposedStore(name, p.timers, f, p.deliveries, p.settings, p.close);
  }

  /** This store with {@code d} as its deliveries part, its other parts as they are. */
  public ComposedStore withDeliveries(DeliveryTable d) {
    ComposedStore p = of(this);
    return new ComposedStore(name, p.timers, p.firings, d, p.settings, p.close);
  }

  /** This store with {@code s} as its settings part, its other parts as they are. */
  public ComposedStore withSettings(StoreSettings s) {
    ComposedStore p = of(this);
    return new ComposedStore(name, p.timers, p.firings, p.deliveries, s, p.close);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Future<Void> close() {
    return close.get();
  }

  // ------------------------------------------------------------------ timers

  @Override
  public boolean keepsTimersOnHeap() {
    return timers.keepsTimersOnHeap();
  }

  @Override
  public Future<Void> put(Timer t) {
    return timers.put(t);
  }

  @Override
  public Future<Void> putAll(List<Timer> ts) {
    return timers.putAll(ts);
  }

  @Override
  public Future<Void> createAll(List<Timer> ts) {
    return timers.createAll(ts);
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return timers.update(next, expectedGeneration);
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return timers.updateAll(next, expectedGenerations);
  }

  @Override
  public Future<Timer> get(String id) {
    return timers.get(id);
  }

  @Override
  public Future<Boolean> remove(String id) {
    return timers.remove(id);
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return timers.list(topic, after, limit);
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return timers.loadAll(batchSize, sink);
  }

  // ------------------------------------------------------------------ firing log

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return firings.recordFirings(requests);
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return firings.readFirings(afterSeq, limit);
  }

  @Override
  public Future<Long> lastSeq() {
    return firings.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return firings.trimFirings(retention, nowMs);
  }

  // ------------------------------------------------------------------ deliveries

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return deliveries.getDelivery(seq);
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return deliveries.listDeliveries(state, afterSeq, limit);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    return deliveries.updateDelivery(d);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    return deliveries.updateDelivery(d, expected);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    return deliveries.loadPendingDeliveries(batchSize, sink);
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return deliveries.trimDeliveries(retention, nowMs);
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return deliveries.countDeliveries(state);
  }

  // ------------------------------------------------------------------ settings

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return settings.setTopicPaused(topic, paused);
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return settings.pausedTopics();
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return settings.webhookSecret(generatedIfAbsent);
  }
}
