package io.tickwheel.server.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data written by an earlier release opens in this one: each committed fixture (a RocksDB data directory, a Redis
 * RDB dump; see {@link UpgradeData}, written by {@link UpgradeFixturesWriterIT}) is copied to a temporary place, the
 * real jar starts on it, and every timer, the topics, the webhook secret and every firing of the log (with its seq
 * and cursor) must be what the release that wrote it answered. A change of the stored format must keep this green,
 * by reading the old format or migrating it at start, and say which in CHANGELOG.md.
 *
 * <p>The fixtures' firings were recorded the day they were written, so the server keeps its firing log by age for
 * {@link #LOG_RETENTION_MS}: with the default day, the log's first trim (at a random moment of its interval after
 * start) removed them whenever it came before the read.
 */
class UpgradeIT {
  private static final Duration START = Duration.ofSeconds(60);
  /** Longer than any fixture's age: 100 years, ms. */
  static final long LOG_RETENTION_MS = 100L * 365 * 24 * 3600 * 1000;

  @TempDir
  Path tmp;

  @Test
  void aRocksDbDirectoryWrittenByTheFirstReleaseOpensWithEveryTimerAndTheFiringLog() throws Exception {
    Path fixture = UpgradeData.FIXTURES.resolve("rocksdb");
    Path data = tmp.resolve("data");
    copyTree(fixture.resolve("store"), data);
    try (ServerProcess server = jar().logs(tmp, "server")
        .args("--store", "rocksdb", "--data-dir", data.toString()).startAndAwaitListening(START)) {
      assertSameState(fixture, new UpgradeData(server.baseUrl()).read());
    }
  }

  @Test
  void aRedisDumpWrittenByTheFirstReleaseLoadsWithEveryTimerAndTheFiringLog() throws Exception {
    Path fixture = UpgradeData.FIXTURES.resolve("redis");
    Path dir = Files.createDirectories(tmp.resolve("redis"));
    Files.copy(fixture.resolve("dump.rdb"), dir.resolve("dump.rdb"));
    try (RedisServerProcess redis = RedisServerProcess.startWith(RedisServerProcess.freePort(false), null,
            List.of("--dir", dir.toString(), "--dbfilename", "dump.rdb", "--save", "", "--appendonly", "no"));
        ServerProcess server = jar().logs(tmp, "server")
            .args("--store", "redis", "--redis", redis.uri()).startAndAwaitListening(START)) {
      assertSameState(fixture, new UpgradeData(server.baseUrl()).read());
    }
  }

  static ServerProcess.Launcher jar() {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--host", "127.0.0.1", "--log-retention-ms", Long.toString(LOG_RETENTION_MS));
  }

  private static void assertSameState(Path fixture, JsonObject now) throws IOException {
    JsonObject then = new JsonObject(Files.readString(fixture.resolve("expected.json")));
    assertThat(now.getJsonArray("timers").size()).as("timers").isEqualTo(then.getJsonArray("timers").size());
    assertThat(byId(now.getJsonArray("timers"))).as("timers").isEqualTo(byId(then.getJsonArray("timers")));
    assertThat(now.getJsonArray("topics")).as("topics").isEqualTo(then.getJsonArray("topics"));
    assertThat(now.getJsonObject("webhookSecret")).as("webhook secret").isEqualTo(then.getJsonObject("webhookSecret"));
    assertThat(now.getJsonArray("firings")).as("firings, seqs and cursors").isEqualTo(then.getJsonArray("firings"));
  }

  private static JsonObject byId(JsonArray timers) {
    JsonObject m = new JsonObject();
    timers.forEach(t -> m.put(((JsonObject) t).getString("id"), t));
    return m;
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      files.forEach(p -> {
        try {
          Path target = to.resolve(from.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else {
            Files.copy(p, target);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
