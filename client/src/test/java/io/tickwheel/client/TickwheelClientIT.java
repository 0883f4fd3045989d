package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.client.impl.ClientImpl;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against the real server jar ({@code server/target/tickwheel.jar}, RocksDB in a temporary directory). */
class TickwheelClientIT {

  private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  @TempDir
  static Path tmp;
  private static Vertx vertx;
  private static ServerProcess server;
  private static TickwheelClient client;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs(JVM)
        .args("--port", "0", "--data-dir", tmp.resolve("shared").toString()).logs(tmp, "shared")
        .startAndAwaitListening(Duration.ofSeconds(120));
    client = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoint(server.baseUrl()));
  }

  @AfterAll
  static void stop() throws Exception {
    await(client.close());
    server.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static TickwheelException failure(Future<?> f) throws Exception {
    try {
      await(f);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TickwheelException.class);
      return (TickwheelException) e.getCause();
    }
    throw new AssertionError("expected a TickwheelException, the call succeeded");
  }

  @Test
  void schedule_put_touch_cancel_get_and_list_answer_as_the_contract_says() throws Exception {
    long before = System.currentTimeMillis();
    TimerInfo created = await(client.schedule(TimerRequest.builder().id("ops-1").topic("ops").delayMs(600_000)
        .payload(new JsonObject().put("conn", 17)).build()));
    assertThat(created.id()).isEqualTo("ops-1");
    assertThat(created.topic()).isEqualTo("ops");
    assertThat(created.nextDueAt()).isBetween(before + 600_000, System.currentTimeMillis() + 600_000);
    assertThat(created.payload()).isEqualTo(new JsonObject().put("conn", 17));
    assertThat(await(client.get("ops-1")).nextDueAt()).isEqualTo(created.nextDueAt());

    TickwheelException exists = failure(client.schedule(TimerRequest.builder().id("ops-1").delayMs(1).build()));
    assertThat(exists.status()).isEqualTo(409);
    assertThat(exists.code()).isEqualTo("already_exists");

    TickwheelException bad = failure(client.schedule(TimerRequest.builder().id("ops-bad").delayMs(-5).build()));
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.code()).isEqualTo("invalid_argument");
    assertThat(bad.field()).contains("delayMs");
    assertThat(bad.mayHaveApplied()).isFalse();

    TimerInfo put = await(client.put(TimerRequest.builder().id("ops-2").topic("ops").delayMs(700_000).build()));
    TimerInfo replaced = await(client.put(TimerRequest.builder().id("ops-2").topic("ops").delayMs(800_000).build()));
    assertThat(replaced.nextDueAt()).isGreaterThanOrEqualTo(put.nextDueAt() + 100_000);

    long touchedAt = System.currentTimeMillis();
    long touchedDue = await(client.touch("ops-1", 900_000));
    assertThat(touchedDue).isGreaterThanOrEqualTo(touchedAt + 900_000);
    assertThat(await(client.get("ops-1")).nextDueAt()).isEqualTo(touchedDue);
    TickwheelException missing = failure(client.touch("ops-nope"));
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.code()).isEqualTo("not_found");

    TimerPage page = await(client.list("ops", 10, null));
    assertThat(page.timers()).extracting(TimerInfo::id).containsExactly("ops-2", "ops-1"); // by nextDueAt
    assertThat(page.next()).isNull();

    await(client.cancel("ops-1"));
    assertThat(failure(client.get("ops-1")).status()).isEqualTo(404);
    TickwheelException cancelMissing = failure(client.cancel("ops-1"));
    assertThat(cancelMissing.status()).isEqualTo(404);
    assertThat(cancelMissing.code()).isEqualTo("not_found");
  }

  @Test
  void calendar_fields_and_callbacks_round_trip_and_the_server_names_a_refused_callback_field() throws Exception {
    TimerInfo cron = await(client.schedule(TimerRequest.builder().id("cal-cron").topic("cal")
        .cron("*/2 * * * * *").timeZone(java.time.ZoneId.of("Europe/Amsterdam")).dstGap("skip").dstOverlap("twice")
        .endAt(System.currentTimeMillis() + 3_600_000).jitterMs(100).build()));
    assertThat(cron.kind()).isEqualTo("cron");
    assertThat(cron.cron()).isEqualTo("*/2 * * * * *");
    assertThat(cron.timeZone()).isEqualTo("Europe/Amsterdam");
    assertThat(cron.dstGap()).isEqualTo("skip");
    assertThat(cron.dstOverlap()).isEqualTo("twice");
    assertThat(cron.endAt()).isNotNull();
    assertThat(cron.jitterMs()).isEqualTo(100L);
    assertThat(cron.paused()).isFalse();
    assertThat(cron.callback()).isNull();
    List<Long> upcoming = cron.upcoming();
    assertThat(upcoming).hasSize(5);
    assertThat(upcoming.get(0)).isEqualTo(cron.nextDueAt());
    for (int i = 1; i < upcoming.size(); i++) {       // every 2 s, each moved later by less than its 100 ms jitter
      assertThat(upcoming.get(i) - upcoming.get(i - 1)).isBetween(1_900L, 2_100L);
    }
    await(client.cancel("cal-cron"));

    Callback hook = Callback.to("https://hooks.example.com/tw").timeoutMs(5_000).maxAttempts(3).backoffMs(1_000, 60_000);
    TimerInfo withHook = await(client.put(TimerRequest.builder().id("cal-hook").topic("cal").delayMs(600_000)
        .callback(hook).build()));
    assertThat(withHook.callback()).isEqualTo(hook);
    assertThat(await(client.get("cal-hook")).callback()).isEqualTo(hook);
    TimerInfo defaults = await(client.schedule(TimerRequest.builder().id("cal-hook-2").topic("cal").delayMs(600_000)
        .callback(Callback.to("https://hooks.example.com/tw")).build()));
    assertThat(defaults.callback().timeoutMs()).isEqualTo(10_000L);   // the server's defaults, as it answers them
    assertThat(defaults.callback().maxAttempts()).isEqualTo(8);
    await(client.cancel("cal-hook"));
    await(client.cancel("cal-hook-2"));

    TickwheelException loopback = failure(client.schedule(TimerRequest.builder().id("cal-hook-3").delayMs(1_000)
        .callback(Callback.to("http://127.0.0.1:9/hook")).build()));
    assertThat(loopback.status()).isEqualTo(400);
    assertThat(loopback.code()).isEqualTo("invalid_argument");
    assertThat(loopback.field()).isEqualTo("callback.url");
    TickwheelException badZone = failure(client.put(TimerRequest.builder().id("cal-zone").cron("@daily")
        .timeZone("Mars/Olympus").build()));
    assertThat(badZone.status()).isEqualTo(400);
    assertThat(badZone.field()).isEqualTo("timeZone");
    assertThat(failure(client.get("cal-zone")).status()).isEqualTo(404);              // a refused put stores nothing
  }

  @Test
  void pause_resume_and_fire_a_timer_and_pause_a_topic_through_the_client() throws Exception {
    CopyOnWriteArrayList<Firing> got = new CopyOnWriteArrayList<>();
    Subscription sub = client.subscribe(List.of("act"), null, got::add);
    try {
      await(sub.subscribed());
      long at = System.currentTimeMillis() + 600_000;
      await(client.schedule(TimerRequest.builder().id("act-1").topic("act").at(at).build()));

      TimerInfo paused = await(client.pause("act-1"));
      assertThat(paused.paused()).isTrue();
      assertThat(await(client.get("act-1")).paused()).isTrue();
      TimerInfo resumed = await(client.resume("act-1"));
      assertThat(resumed.paused()).isFalse();
      assertThat(resumed.nextDueAt()).isEqualTo(at);

      long before = System.currentTimeMillis();
      TimerInfo fired = await(client.fire("act-1"));
      assertThat(fired.firings()).isEqualTo(1);
      Awaitility.await("the fired-now firing").atMost(Duration.ofSeconds(10)).until(() -> !got.isEmpty());
      Firing f = got.get(0);
      assertThat(f.id()).isEqualTo("act-1");
      assertThat(f.firing()).isEqualTo(1);
      assertThat(f.firedAt()).isGreaterThanOrEqualTo(before);
      assertThat(f.nominalAt()).isEqualTo(f.dueAt());        // no jitter
      assertThat(f.partition()).isNull();                    // a single node
      assertThat(failure(client.get("act-1")).status()).isEqualTo(404);   // a once timer is done after its firing
      TickwheelException missing = failure(client.pause("act-1"));
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.code()).isEqualTo("not_found");
      assertThat(missing.mayHaveApplied()).isFalse();

      // a jittered timer: its firing says the un-jittered time, the due time is within the jitter after it
      long nominal = System.currentTimeMillis() + 300;
      await(client.schedule(TimerRequest.builder().id("act-2").topic("act").at(nominal).jitterMs(200).build()));
      Awaitility.await("the jittered firing").atMost(Duration.ofSeconds(10)).until(() -> got.size() >= 2);
      Firing j = got.get(1);
      assertThat(j.id()).isEqualTo("act-2");
      assertThat(j.nominalAt()).isEqualTo(nominal);
      assertThat(j.dueAt()).isBetween(nominal, nominal + 199);

      await(client.schedule(TimerRequest.builder().id("act-3").topic("act-held").delayMs(600_000).build()));
      TopicInfo t = await(client.pauseTopic("act-held"));
      assertThat(t).isEqualTo(new TopicInfo("act-held", 1, true));
      assertThat(client.stages().resumeTopic("act-held").toCompletableFuture().get(60, TimeUnit.SECONDS))
          .isEqualTo(new TopicInfo("act-held", 1, false));
      await(client.cancel("act-3"));
    } finally {
      await(sub.close());
    }
  }

  @Test
  void ten_thousand_schedules_go_in_a_few_batch_creates_and_each_caller_gets_its_own_outcome() throws Exception {
    int n = 10_000;
    long batches = ((ClientImpl) client).scheduleBatches();
    List<Future<TimerInfo>> schedules = new ArrayList<>(n + 2);
    for (int i = 0; i < n; i++) {
      schedules.add(client.schedule(TimerRequest.builder().id("sb-" + i).topic("sb").delayMs(600_000).build()));
    }
    schedules.add(client.schedule(TimerRequest.builder().id("sb-7").delayMs(1).build()));      // a second one: 409
    schedules.add(client.schedule(TimerRequest.builder().id("sb-bad").delayMs(-5).build()));   // a bad one: 400
    await(Future.join(schedules).otherwiseEmpty());
    for (int i = 0; i < n; i++) {
      assertThat(schedules.get(i).succeeded()).as("sb-" + i + ": " + schedules.get(i).cause()).isTrue();
      assertThat(schedules.get(i).result().id()).isEqualTo("sb-" + i);
      assertThat(schedules.get(i).result().topic()).isEqualTo("sb");
    }
    TickwheelException twice = (TickwheelException) schedules.get(n).cause();
    assertThat(twice.status()).isEqualTo(409);
    assertThat(twice.code()).isEqualTo("already_exists");
    TickwheelException bad = (TickwheelException) schedules.get(n + 1).cause();
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.field()).isEqualTo("delayMs");
    assertThat(((ClientImpl) client).scheduleBatches() - batches).as("batch creates").isBetween(10L, 200L);
    assertThat(await(client.get("sb-" + (n - 1))).topic()).isEqualTo("sb");
  }

  @Test
  void ten_thousand_touches_go_in_a_few_batch_requests_all_answer_and_restart_the_countdowns() throws Exception {
    int n = 10_000;
    List<Future<TimerInfo>> puts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      puts.add(client.put(TimerRequest.builder().id("hb-" + i).topic("hb").delayMs(600_000).build()));
    }
    await(Future.all(puts));
    long start = System.currentTimeMillis();
    long batches = ((ClientImpl) client).touchBatches();
    List<Future<Long>> touches = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      touches.add(client.touch("hb-" + i, 1_200_000));
    }
    touches.add(client.touch("hb-missing", 1_200_000));
    await(Future.join(touches).otherwiseEmpty()); // joins the 404 too
    for (int i = 0; i < n; i++) {
      assertThat(touches.get(i).result()).as("hb-" + i).isGreaterThanOrEqualTo(start + 1_200_000);
    }
    assertThat(((TickwheelException) touches.get(n).cause()).code()).isEqualTo("not_found");
    assertThat(((ClientImpl) client).touchBatches() - batches).as("batch requests").isBetween(2L, 100L);
    assertThat(await(client.get("hb-" + (n - 1))).nextDueAt()).isGreaterThanOrEqualTo(start + 1_200_000);
    assertThat(((ClientImpl) client).commandConnections()).isEqualTo(1);
  }

  @Test
  void a_touch_storm_on_few_ids_is_merged_and_every_caller_sees_a_countdown_restarted_after_its_call()
      throws Exception {
    await(client.put(TimerRequest.builder().id("storm").topic("hb").delayMs(600_000).build()));
    long merged = ((ClientImpl) client).mergedTouches();
    List<Future<Long>> fs = new ArrayList<>();
    List<Long> calledAt = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      calledAt.add(System.currentTimeMillis());
      fs.add(client.touch("storm", 300_000));
    }
    await(Future.all(fs));
    for (int i = 0; i < fs.size(); i++) {
      assertThat(fs.get(i).result()).isGreaterThanOrEqualTo(calledAt.get(i) + 300_000);
    }
    assertThat(((ClientImpl) client).mergedTouches() - merged).as("touches merged").isGreaterThan(0);
  }

  @Test
  void a_subscription_gets_every_firing_once_in_order_across_a_kill_9_and_restart_on_the_same_data_and_port()
      throws Exception {
    Path data = tmp.resolve("crash");
    Files.createDirectories(data);
    ServerProcess.Launcher launcher = ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs(JVM)
        .args("--port", "0", "--data-dir", data.toString()).logs(tmp, "crash-1");
    ServerProcess first = launcher.startAndAwaitListening(Duration.ofSeconds(120));
    int port = first.port();
    ServerProcess second = null;
    TickwheelClient c = TickwheelClient.create(vertx, new TickwheelClientOptions().setEndpoint(first.baseUrl())
        .setReconnectInitialBackoffMs(50).setReconnectMaxBackoffMs(500));
    try {
      List<Firing> got = new CopyOnWriteArrayList<>();
      Subscription sub = c.subscribe(List.of("crash"), null, got::add);
      await(sub.subscribed());
      int n = 300;
      long base = System.currentTimeMillis() + 1_000;
      List<Future<TimerInfo>> puts = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        puts.add(c.put(TimerRequest.builder().id("crash-" + i).topic("crash").at(base + i * 15L).build()));
      }
      await(Future.all(puts));
      // some fired before the crash, the rest after
      Awaitility.await("50 firings before the crash").atMost(Duration.ofSeconds(60)).until(() -> got.size() >= 50);
      first.kill9();
      assertThat(first.waitForExit(Duration.ofSeconds(10))).isTrue();
      second = ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs(JVM)
          .args("--port", Integer.toString(port), "--data-dir", data.toString()).logs(tmp, "crash-2")
          .startAndAwaitListening(Duration.ofSeconds(120));
      Awaitility.await("every firing").atMost(Duration.ofSeconds(60)).until(() -> got.size() >= n);
      // a timer due now, after all of them: once its firing is handed out, a repeat of any earlier one would have been
      await(c.put(TimerRequest.builder().id("crash-last").topic("crash").delayMs(0).build()));
      Awaitility.await("the last firing").atMost(Duration.ofSeconds(30))
          .until(() -> got.stream().anyMatch(f -> f.id().equals("crash-last")));
      assertThat(got.get(got.size() - 1).id()).isEqualTo("crash-last");
      Set<String> ids = new HashSet<>();
      long prev = -1;
      for (Firing f : got) {
        assertThat(ids.add(f.id())).as("seen once: " + f).isTrue();
        if (prev >= 0) {
          assertThat(f.seq()).as("no gap, no repeat").isEqualTo(prev + 1);
        }
        prev = f.seq();
        assertThat(f.firedAt()).isGreaterThanOrEqualTo(f.dueAt());
      }
      assertThat(ids).hasSize(n + 1);
      assertThat(sub.reconnects()).isGreaterThanOrEqualTo(1);
      // the command socket reconnects by itself too
      assertThat(await(c.put(TimerRequest.builder().id("after").topic("other").delayMs(60_000).build())).id())
          .isEqualTo("after");
    } finally {
      await(c.close());
      first.close();
      if (second != null) {
        second.close();
      }
    }
  }
}
