package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelClient;
import io.tickwheel.client.TickwheelStages;
import io.tickwheel.client.TimerInfo;
import io.tickwheel.client.TimerPage;
import io.tickwheel.client.TimerRequest;
import io.tickwheel.client.TopicInfo;
import java.util.concurrent.CompletionStage;

/** {@link TickwheelStages} over a client's futures. Thread safe. */
final class StagesImpl implements TickwheelStages {
  private final TickwheelClient client;

  StagesImpl(TickwheelClient client) {
    this.client = client;
  }

  @Override
  public CompletionStage<TimerInfo> schedule(TimerRequest timer) {
    return client.schedule(timer).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerInfo> put(TimerRequest timer) {
    return client.put(timer).toCompletionStage();
  }

  @Override
  public CompletionStage<Long> touch(String id) {
    return client.touch(id).toCompletionStage();
  }

  @Override
  public CompletionStage<Long> touch(String id, long delayMs) {
    return client.touch(id, delayMs).toCompletionStage();
  }

  @Override
  public CompletionStage<Void> cancel(String id) {
    return client.cancel(id).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerInfo> get(String id) {
    return client.get(id).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerPage> list(String topic, int limit, String cursor) {
    return client.list(topic, limit, cursor).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerInfo> pause(String id) {
    return client.pause(id).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerInfo> resume(String id) {
    return client.resume(id).toCompletionStage();
  }

  @Override
  public CompletionStage<TimerInfo> fire(String id) {
    return client.fire(id).toCompletionStage();
  }

  @Override
  public CompletionStage<TopicInfo> pauseTopic(String topic) {
    return client.pauseTopic(topic).toCompletionStage();
  }

  @Override
  public CompletionStage<TopicInfo> resumeTopic(String topic) {
    return client.resumeTopic(topic).toCompletionStage();
  }

  @Override
  public TickwheelClient client() {
    return client;
  }
}
