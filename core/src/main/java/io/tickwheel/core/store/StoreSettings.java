package io.tickwheel.core.store;

import io.vertx.core.Future;
import java.util.Set;

/**
 * The settings part of a store: the few values a server keeps beside its timers, the set of paused topics and the
 * webhook secret. They are apart from {@link TimerTable} because they are not per timer: in a cluster they belong to
 * the whole cluster, while timers, firings and deliveries belong to a partition.
 *
 * <p>Follows the contract common to every part ({@link TimerStore}): asynchronous, completing on the caller's
 * context, writes durable like a timer write and ordered with the caller's other writes, failures as
 * {@link StoreException}s. Implementations are thread safe. Contract suite: {@code StoreSettingsContract} in core's
 * test-jar.
 */
public interface StoreSettings {

  /**
   * Marks {@code topic} paused or resumed (no timer of a paused topic fires; see the contract's "Calendars"). The
   * store only keeps the set of paused topics: what pausing means is the server's business. Durable like a timer
   * write (a successful future survives a restart as {@link TimerTable#put} does), ordered with the caller's other
   * writes, completing on the caller's context; idempotent (pausing a paused topic, or resuming one that is not
   * paused, changes nothing and succeeds). Failures as for every write.
   *
   * @param topic a topic name as the API admits it ({@code [A-Za-z0-9._-]{1,100}}); the store does not check
   *              whether any timer has it
   */
  Future<Void> setTopicPaused(String topic, boolean paused);

  /**
   * The topics currently paused (see {@link #setTopicPaused}), as a new set the caller may keep; empty when none.
   * A read: it sees every {@code setTopicPaused} called before it from the same thread.
   */
  Future<Set<String>> pausedTopics();

  /**
   * The webhook secret this store keeps (the key callbacks are signed with, {@code whsec_…}): when the store holds
   * none yet it stores {@code generatedIfAbsent}; either way it answers the one it holds. Set-if-absent is atomic, so
   * servers starting together on one store (a cluster on one Redis) all end up with the same secret, and it survives
   * restarts as a timer write does. The store does not read the text; it keeps it as given.
   *
   * @param generatedIfAbsent the secret to keep when there is none, non-null
   * @return the secret kept (the one already stored, or {@code generatedIfAbsent}); failed with
   *     {@link StoreFaultException} by a store without a place for it (it cannot serve callbacks)
   */
  Future<String> webhookSecret(String generatedIfAbsent);
}
