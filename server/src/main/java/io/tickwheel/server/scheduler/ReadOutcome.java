package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerPage;

/**
 * What a read of the {@link Scheduler} found: {@link Found} or {@link Listed}, or a {@link Refusal}
 * ({@link Refusal.NotFound}, or the store's failure). Immutable.
 */
public sealed interface ReadOutcome permits ReadOutcome.Found, ReadOutcome.Listed, ReadOutcome.Topics, Refusal {

  /** The stored timer, with its payload. */
  record Found(Timer timer) implements ReadOutcome {}

  /** One page of a listing. */
  record Listed(TimerPage page) implements ReadOutcome {}

  /** One page of the topic listing, by name. */
  record Topics(java.util.List<TopicInfo> topics) implements ReadOutcome {}
}
