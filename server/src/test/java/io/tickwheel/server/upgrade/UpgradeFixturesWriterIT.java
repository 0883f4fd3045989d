package io.tickwheel.server.upgrade;

import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes the upgrade fixtures that {@link UpgradeIT} reads, with this release's jar; runs only when asked:
 * {@code mvn -pl server -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=UpgradeFixturesWriterIT -Dtickwheel.writeUpgradeFixtures=true}. Commit the result with the release
 * whose format it records, beside (not over) the fixtures of earlier releases.
 */
@EnabledIfSystemProperty(named = "tickwheel.writeUpgradeFixtures", matches = "true")
class UpgradeFixturesWriterIT {
  private static final Duration START = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  @Test
  void writeTheRocksDbFixture() throws Exception {
    Path out = UpgradeData.FIXTURES.resolve("rocksdb");
    Path data = tmp.resolve("data");
    String expected;
    try (ServerProcess server = UpgradeIT.jar().logs(tmp, "server")
        .args("--store", "rocksdb", "--data-dir", data.toString()).startAndAwaitListening(START)) {
      UpgradeData d = new UpgradeData(server.baseUrl());
      d.write();
      expected = d.read().encodePrettily();
      server.stop(Duration.ofSeconds(10));
    }
    deleteTree(out);
    Files.createDirectories(out);
    UpgradeIT.copyTree(data, out.resolve("store"));
    try (Stream<Path> logs = Files.list(out.resolve("store"))) {
      for (Path p : (Iterable<Path>) logs.filter(p -> p.getFileName().toString().startsWith("LOG"))::iterator) {
        Files.delete(p);
      }
    }
    Files.writeString(out.resolve("expected.json"), expected + "\n");
  }

  @Test
  void writeTheRedisFixture() throws Exception {
    Path out = UpgradeData.FIXTURES.resolve("redis");
    String expected;
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      try (ServerProcess server = UpgradeIT.jar().logs(tmp, "server")
          .args("--store", "redis", "--redis", redis.uri()).startAndAwaitListening(START)) {
        UpgradeData d = new UpgradeData(server.baseUrl());
        d.write();
        expected = d.read().encodePrettily();
        server.stop(Duration.ofSeconds(10));
      }
      redis.command("SAVE");
      deleteTree(out);
      Files.createDirectories(out);
      Files.copy(redis.dir().resolve("dump.rdb"), out.resolve("dump.rdb"));
    }
    Files.writeString(out.resolve("expected.json"), expected + "\n");
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
