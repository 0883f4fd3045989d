package io.tickwheel.server.route;

import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Scheduler;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.Future;
import java.util.List;

/**
 * The single node's {@link Timers}: every call goes straight to its one {@link Scheduler} (one partition, always
 * local), so a single node answers and performs as before. Owner context only, as the scheduler.
 */
public final class LocalTimers implements Timers {

  private final Scheduler scheduler;
  private final boolean pipelined;
  private final LocalTimers other;

  public LocalTimers(Scheduler scheduler) {
    this.scheduler = scheduler;
    this.pipelined = false;
    this.other = new LocalTimers(scheduler, this);
  }

  private LocalTimers(Scheduler scheduler, LocalTimers plain) {
    this.scheduler = scheduler;
    this.pipelined = true;
    this.other = plain;
  }

  @Override
  public long now() {
    return scheduler.now();
  }

  @Override
  public Future<WriteOutcome> create(TimerSpec spec) {
    return pipelined ? scheduler.pipeline().create(spec) : scheduler.create(spec);
  }

  @Override
  public Future<List<WriteOutcome>> createAll(List<TimerSpec> specs) {
    return scheduler.createAll(specs);
  }

  @Override
  public Future<List<WriteOutcome>> restoreAll(List<io.tickwheel.core.model.Timer> timers) {
    return scheduler.restoreAll(timers);
  }

  @Override
  public Future<WriteOutcome> upsert(TimerSpec spec) {
    return pipelined ? scheduler.pipeline().upsert(spec) : scheduler.upsert(spec);
  }

  @Override
  public Future<ReadOutcome> get(String id) {
    return scheduler.get(id);
  }

  @Override
  public Future<WriteOutcome> cancel(String id) {
    return pipelined ? scheduler.pipeline().cancel(id) : scheduler.cancel(id);
  }

  @Override
  public Future<WriteOutcome> touch(String id, Long delayOverride) {
    return pipelined ? scheduler.pipeline().touch(id, delayOverride) : scheduler.touch(id, delayOverride);
  }

  @Override
  public Future<List<WriteOutcome>> touchAll(List<String> ids, Long delayOverride) {
    return scheduler.touchAll(ids, delayOverride);
  }

  @Override
  public Future<WriteOutcome> pause(String id) {
    return scheduler.pause(id);
  }

  @Override
  public Future<WriteOutcome> resume(String id) {
    return scheduler.resume(id);
  }

  @Override
  public Future<WriteOutcome> fireNow(String id) {
    return scheduler.fireNow(id);
  }

  @Override
  public Future<ReadOutcome> list(String topic, TimerCursor after, int limit) {
    return scheduler.list(topic, after, limit);
  }

  @Override
  public Future<ReadOutcome> topics(String after, int limit, String only) {
    return topicsOf(scheduler, after, limit, only);
  }

  /**
   * One scheduler's topics page, or its one topic {@code only} (if it has pending timers or is paused):
   * {@link ReadOutcome.Topics}, or the store's failure.
   */
  static Future<ReadOutcome> topicsOf(Scheduler s, String after, int limit, String only) {
    if (only == null) {
      return s.topics(after, limit);
    }
    if (after != null && only.compareTo(after) <= 0) {
      return Future.succeededFuture(new ReadOutcome.Topics(List.of()));
    }
    return s.topicInfo(only).map(o -> {
      if (!(o instanceof ReadOutcome.Topics t)) {
        return o;
      }
      TopicInfo i = t.topics().get(0);
      return i.pending() == 0 && !i.paused() ? new ReadOutcome.Topics(List.of()) : o;
    });
  }

  @Override
  public Future<WriteOutcome> pauseTopic(String topic) {
    return scheduler.pauseTopic(topic);
  }

  @Override
  public Future<WriteOutcome> resumeTopic(String topic) {
    return scheduler.resumeTopic(topic);
  }

  @Override
  public Timers pipelined() {
    return pipelined ? this : other;
  }

  @Override
  public Timers direct() {
    return this;
  }
}
