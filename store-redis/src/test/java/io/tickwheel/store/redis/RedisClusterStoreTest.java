package io.tickwheel.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared store contract against a real 3-master Redis Cluster started for this class. Each test uses its own
 * key prefix, and the prefixes spread over the masters' slots.
 */
class RedisClusterStoreTest extends TimerStoreContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess.Cluster cluster;
  private String prefix;

  @BeforeAll
  static void startCluster() {
    cluster = RedisServerProcess.Cluster.start(3);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private RedisStoreOptions options() {
    return new RedisStoreOptions()
        .setCluster(true)
        .setConnectionString(cluster.uris().get(0))
        .setClusterEndpoints(cluster.uris().subList(1, 3))
        .setKeyPrefix(prefix);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    prefix = "cluster" + N.incrementAndGet();
    return await(RedisTimerStore.open(vertx, options()));
  }

  @Test
  void storesWithDifferentPrefixesLiveOnDifferentMastersAndEachKeepsAllItsKeysOnOne() {
    List<TimerStore> stores = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      prefix = "spread" + i;
      TimerStore s = await(RedisTimerStore.open(vertx, options()));
      stores.add(s);
      Timer t = new Timer("t", "topic", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 10, 0, 1);
      await(s.put(t));
      await(s.recordFirings(List.of(new FiringRequest("t", 1, 0, true, 10, 11, null))));
      await(s.put(t.withNextDueAt(20)));
    }
    java.util.Set<Integer> owners = new java.util.HashSet<>();
    for (int i = 0; i < 12; i++) {
      String tag = "{spread" + i + "}:";
      List<Integer> holders = new ArrayList<>();
      for (RedisServerProcess node : cluster.nodes()) {
        String r = node.command("EXISTS", tag + "meta", tag + "timers", tag + "due", tag + "seq", tag + "log");
        if (r.equals(":5")) {
          holders.add(node.port());
        } else {
          assertThat(r).as("a node that does not own " + tag).startsWith("-MOVED");
        }
      }
      assertThat(holders).as("all 5 keys of " + tag + " on one master").hasSize(1);
      owners.add(holders.get(0));
    }
    assertThat(owners).as("12 hash tags spread over the 3 masters").hasSizeGreaterThan(1);
    for (TimerStore s : stores) {
      assertThat(await(s.lastSeq())).isEqualTo(1);
      assertThat(await(s.get("t")).nextDueAt()).isEqualTo(20);
      await(s.close());
    }
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return await(RedisTimerStore.open(vertx, options()));
  }
}
