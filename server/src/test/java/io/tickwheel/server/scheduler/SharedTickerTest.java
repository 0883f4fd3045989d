package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one periodic timer of an owner context and period, on a real event loop. */
class SharedTickerTest {

  private Vertx vertx;
  private Context owner;

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    owner = vertx.getOrCreateContext();
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  @Test
  void everyTaskRunsOnEachTickInOrderOnTheOwnerAndACancelledOneNoMore() {
    List<String> ran = new CopyOnWriteArrayList<>();
    List<SharedTicker.Task> tasks = new ArrayList<>();
    on(() -> {
      SharedTicker t = SharedTicker.of(owner, 10);
      assertThat(SharedTicker.of(owner, 10)).isSameAs(t);
      assertThat(SharedTicker.of(owner, 20)).isNotSameAs(t);
      for (String name : List.of("a", "b", "c")) {
        tasks.add(t.add(() -> ran.add(onOwner() ? name : "elsewhere: " + Vertx.currentContext())));
      }
      return null;
    });
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() >= 6);
    on(() -> {
      tasks.get(1).cancel();
      ran.clear();
      return null;
    });
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() >= 4);
    assertThat(List.copyOf(ran).subList(0, 4)).containsExactly("a", "c", "a", "c");
  }

  @Test
  void aTaskCancelledByAnotherDuringATickDoesNotRunAndTheTimerStopsWithTheLastTask() {
    List<String> ran = new CopyOnWriteArrayList<>();
    SharedTicker.Task[] second = new SharedTicker.Task[1];
    SharedTicker.Task first = on(() -> {
      SharedTicker t = SharedTicker.of(owner, 10);
      SharedTicker.Task f = t.add(() -> {
        ran.add("first");
        second[0].cancel();
      });
      second[0] = t.add(() -> ran.add("second"));
      return f;
    });
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() >= 3);
    assertThat(ran).containsOnly("first");
    on(() -> {
      first.cancel();
      return null;
    });
    assertThat(on(() -> SharedTicker.of(owner, 10).size())).isZero();
    assertThat(on(() -> SharedTicker.of(owner, 10).timerSet())).isFalse();
    on(() -> SharedTicker.of(owner, 10).add(() -> ran.add("again")));
    assertThat(on(() -> SharedTicker.of(owner, 10).timerSet())).isTrue();
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ran.contains("again"));
  }

  /** Whether this runs on the owner context (or a duplicate of it, where Vert.x runs timer handlers). */
  private boolean onOwner() {
    return Vertx.currentContext() instanceof ContextInternal c && c.unwrap() == owner;
  }

  /** Runs {@code task} on the owner context and returns its result. */
  private <T> T on(Supplier<T> task) {
    return TestVertx.on(owner, () -> Future.succeededFuture(task.get()));
  }
}
