package io.tickwheel.server.route;

import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.Future;
import java.util.List;

/**
 * What the HTTP and WebSocket edge asks of the timers, wherever they live: the {@link Scheduler}'s calls, answered
 * with the same domain outcomes ({@link WriteOutcome}, {@link ReadOutcome}). A single node serves them with its one
 * scheduler ({@link LocalTimers}); a cluster node routes each to its partition's owner ({@link RoutedTimers}) and
 * answers exactly what the owner answers, plus the routing refusals ({@code NotOwner}, {@code Unrouted}).
 *
 * <p><b>Owner context only</b> (the node's event loop): not thread safe; futures complete there and never fail (a
 * failed future is a bug).
 */
public interface Timers {

  /** The current time by the node's clock, epoch ms (a spec's {@code delayMs} counts from it). */
  long now();

  /** As {@link Scheduler#create}; a spec without id gets a server-generated one. */
  Future<WriteOutcome> create(TimerSpec spec);

  /** As {@link Scheduler#createAll}: one outcome per spec, in order. */
  Future<List<WriteOutcome>> createAll(List<TimerSpec> specs);

  /**
   * As {@link Scheduler#restoreAll}: timers with their whole state (the import), ids distinct; one outcome per timer,
   * in order. In a cluster each goes to its partition's owner, as {@link #createAll}'s items do.
   */
  Future<List<WriteOutcome>> restoreAll(List<io.tickwheel.core.model.Timer> timers);

  /** As {@link Scheduler#upsert} ({@code spec.id()} set). */
  Future<WriteOutcome> upsert(TimerSpec spec);

  /** As {@link Scheduler#get}. */
  Future<ReadOutcome> get(String id);

  /** As {@link Scheduler#cancel}. */
  Future<WriteOutcome> cancel(String id);

  /** As {@link Scheduler#touch}. */
  Future<WriteOutcome> touch(String id, Long delayOverride);

  /** As {@link Scheduler#touchAll}: one outcome per id, in order. */
  Future<List<WriteOutcome>> touchAll(List<String> ids, Long delayOverride);

  /** As {@link Scheduler#pause}. */
  Future<WriteOutcome> pause(String id);

  /** As {@link Scheduler#resume}. */
  Future<WriteOutcome> resume(String id);

  /** As {@link Scheduler#fireNow}. */
  Future<WriteOutcome> fireNow(String id);

  /**
   * A page of timers by {@code nextDueAt}, then id, strictly after {@code after}, across every partition:
   * {@link ReadOutcome.Listed} or a refusal.
   */
  Future<ReadOutcome> list(String topic, TimerCursor after, int limit);

  /**
   * Topics that have pending timers or are paused, by name, strictly after {@code after}, at most {@code limit}:
   * {@link ReadOutcome.Topics} or a refusal.
   *
   * @param only a topic name to answer for alone, or {@code null} for all
   */
  Future<ReadOutcome> topics(String after, int limit, String only);

  /** As {@link Scheduler#pauseTopic}; in a cluster, for every node. */
  Future<WriteOutcome> pauseTopic(String topic);

  /** As {@link Scheduler#resumeTopic}; in a cluster, for every node. */
  Future<WriteOutcome> resumeTopic(String topic);

  /**
   * The same calls, with {@code create}, {@code upsert}, {@code touch} and {@code cancel} group-committed where they
   * run locally ({@link Scheduler#pipeline()}): for the single writes of every client (WebSocket commands, HTTP calls),
   * so those of one event-loop turn share one store write.
   */
  Timers pipelined();

  /**
   * The same calls for a request another node forwarded here: served only from this node's partitions, never
   * forwarded again (a partition this node does not serve answers {@code Refusal.NotOwner}; a listing covers this
   * node's partitions only). A single node returns itself.
   */
  Timers direct();
}
