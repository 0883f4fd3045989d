package io.tickwheel.client;

import java.util.concurrent.CompletionStage;

/**
 * {@link TickwheelClient} with {@link CompletionStage}s, for callers outside Vert.x: each method does exactly what
 * the client's method of the same name does. Stages complete on the client's Vert.x context: dependent actions
 * added with the non-async methods run there and must not block; use the {@code …Async} variants to leave it.
 * Thread safe.
 */
public interface TickwheelStages {
  CompletionStage<TimerInfo> schedule(TimerRequest timer);

  CompletionStage<TimerInfo> put(TimerRequest timer);

  CompletionStage<Long> touch(String id);

  CompletionStage<Long> touch(String id, long delayMs);

  CompletionStage<Void> cancel(String id);

  CompletionStage<TimerInfo> get(String id);

  CompletionStage<TimerPage> list(String topic, int limit, String cursor);

  CompletionStage<TimerInfo> pause(String id);

  CompletionStage<TimerInfo> resume(String id);

  CompletionStage<TimerInfo> fire(String id);

  CompletionStage<TopicInfo> pauseTopic(String topic);

  CompletionStage<TopicInfo> resumeTopic(String topic);

  /** The Vert.x client these stages come from. */
  TickwheelClient client();
}
