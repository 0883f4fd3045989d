package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Group commit of createAll: the calls made on one event loop in one turn become one transaction; each call keeps its
 * own validation, gets the group's outcome on its context, and calls from one thread still apply in call order.
 */
class RedisCreateGroupsTest {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private Vertx vertx;
  private RedisTimerStore store;
  private String prefix;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    prefix = "groups" + N.incrementAndGet();
    store = await(RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())
        .setKeyPrefix(prefix)));
  }

  @AfterEach
  void close() {
    await(store.close());
    await(vertx.close());
  }

  /** Runs {@code body} in one turn of an event-loop context; its future completes with body's futures' outcomes. */
  private <T> T inOneTurn(Context ctx, Function<Context, Future<T>> body) {
    Promise<T> p = Promise.promise();
    ctx.runOnContext(v -> body.apply(ctx).onComplete(p));
    return await(p.future());
  }

  private long calls(String command) {
    for (String line : redis.command("INFO", "COMMANDSTATS").split("\r\n")) {
      if (line.startsWith("cmdstat_" + command + ":calls=")) {
        return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
      }
    }
    return 0;
  }

  @Test
  void singleCreatesOfOneTurnAreOneTransactionAndEachCompletesOnItsContext() {
    Context ctx = vertx.getOrCreateContext();
    redis.command("CONFIG", "RESETSTAT");
    List<Boolean> onContext = inOneTurn(ctx, c -> {
      List<Future<Boolean>> fs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        fs.add(store.createAll(List.of(timer("s" + i, 1000 + i))).map(v -> Vertx.currentContext() == c));
      }
      return Future.all(fs).map(cf -> cf.<Boolean>list());
    });
    assertThat(onContext).hasSize(50).containsOnly(true);
    assertThat(calls("exec")).isEqualTo(1);
    assertThat(calls("hset")).isEqualTo(1);
    assertThat(await(store.list(null, null, 100)).timers()).hasSize(50);
    assertThat(await(store.get("s49"))).isEqualTo(timer("s49", 1049));
  }

  @Test
  void aGroupIsWrittenBeforeAnyLaterCallOfTheSameThread() {
    Context ctx = vertx.getOrCreateContext();
    List<Object> seen = inOneTurn(ctx, c -> {
      Future<Void> a = store.createAll(List.of(timer("a", 1)));
      Future<Timer> getA = store.get("a");
      Future<Void> b = store.createAll(List.of(timer("b", 2)));
      Future<Boolean> removeB = store.remove("b");
      Future<Void> c2 = store.createAll(List.of(timer("c", 3)));
      return Future.all(a, getA, b, removeB, c2).map(cf -> List.of(getA.result().id(), removeB.result()));
    });
    assertThat(seen).containsExactly("a", true);
    assertThat(await(store.list(null, null, 10)).timers()).extracting(Timer::id).containsExactly("a", "c");
  }

  @Test
  void aBadTimerFailsOnlyItsOwnCallAndAFailedGroupFailsEveryCallOfIt() {
    Context ctx = vertx.getOrCreateContext();
    Timer bad = new Timer("has space", "t1", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 1, 0, 1);
    List<String> outcomes = inOneTurn(ctx, c -> {
      List<Future<String>> fs = new ArrayList<>();
      fs.add(outcome(store.createAll(List.of(timer("ok1", 1)))));
      fs.add(outcome(store.createAll(List.of(bad))));
      fs.add(outcome(store.createAll(List.of(timer("ok2", 2)))));
      return Future.all(fs).map(cf -> cf.<String>list());
    });
    assertThat(outcomes.get(0)).isEqualTo("ok");
    assertThat(outcomes.get(1)).contains("IllegalArgumentException").contains("has space");
    assertThat(outcomes.get(2)).isEqualTo("ok");

    redis.command("SET", "{" + prefix + "}:due", "not a sorted set");
    List<String> failed = inOneTurn(ctx, c -> {
      List<Future<String>> fs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        fs.add(outcome(store.createAll(List.of(timer("w" + i, i)))));
      }
      return Future.all(fs).map(cf -> cf.<String>list());
    });
    assertThat(failed).hasSize(3).allSatisfy(o -> assertThat(o).contains("RedisStoreException").contains("WRONGTYPE"));
  }

  private static Future<String> outcome(Future<Void> f) {
    return f.transform(ar -> Future.succeededFuture(ar.succeeded() ? "ok" : ar.cause().toString()));
  }
}
