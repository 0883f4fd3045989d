package io.tickwheel.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher against a stand-in server jar compiled here: its first argument says what it does (print the
 * listening line late and then wait, exit early with a message on stderr, never listen).
 */
class ServerProcessTest {

  private static final String FAKE = """
      public class FakeServer {
        public static void main(String[] a) throws Exception {
          switch (a[0]) {
            case "listen" -> {
              System.err.println("warming up");
              System.out.println("recovering " + a[1]);
              Thread.sleep(200);   // the listening line comes late: what awaitListening must wait for
              Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
              System.out.println("tickwheel listening on http://127.0.0.1:4242");
              Thread.currentThread().join();   // runs until stopped
            }
            case "env" -> {
              System.out.println("env " + System.getenv(a[1]) + " " + System.getenv(a[2]));
              System.out.println("tickwheel listening on http://127.0.0.1:4242");
              Thread.currentThread().join();   // runs until stopped
            }
            case "fail" -> {
              System.err.println("tickwheel: --port: not a number: eighty");
              System.exit(2);
            }
            default -> {
              System.out.println("tickwheel listening soon, maybe");
              Thread.currentThread().join();   // runs until stopped
            }
          }
        }
      }
      """;

  @TempDir
  static Path jarDir;
  static Path jar;

  @TempDir
  Path logs;

  @BeforeAll
  static void buildTheFakeServerJar() throws IOException {
    Path src = Files.writeString(Files.createDirectories(jarDir.resolve("src")).resolve("FakeServer.java"), FAKE);
    Path classes = Files.createDirectories(jarDir.resolve("classes"));
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString());
    assertThat(rc).as("javac of the fake server").isZero();
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "FakeServer");
    jar = jarDir.resolve("fake-server.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
      j.putNextEntry(new JarEntry("FakeServer.class"));
      j.write(Files.readAllBytes(classes.resolve("FakeServer.class")));
      j.closeEntry();
    }
  }

  private ServerProcess.Launcher fake(String... args) {
    return ServerProcess.fromJar(jar).jvmArgs("-XX:TieredStopAtLevel=1").args(args).logs(logs, "fake");
  }

  @Test
  void awaitListeningReturnsTheUrlOfTheListeningLineAndKeepsStdoutAndStderrApart() {
    try (ServerProcess p = fake("listen", "data-dir-x").startAndAwaitListening(Duration.ofSeconds(60))) {
      assertThat(p.baseUrl()).isEqualTo("http://127.0.0.1:4242");
      assertThat(p.port()).isEqualTo(4242);
      assertThat(p.readyAtMs()).isGreaterThanOrEqualTo(p.startedAtMs() + 200);
      assertThat(p.listeningNanos()).isGreaterThanOrEqualTo(200_000_000L);
      assertThat(p.stdout()).contains("recovering data-dir-x").doesNotContain("warming up");
      assertThat(p.stderr()).contains("warming up");
      assertThat(logs.resolve("fake.out")).exists();
    }
  }

  @Test
  void aServerThatExitsBeforeItsListeningLineFailsAtOnceWithItsExitCodeAndStderr() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> fake("fail").startAndAwaitListening(Duration.ofSeconds(60)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stdout ended before its listening line")
        .hasMessageContaining("exited 2")
        .hasMessageContaining("not a number: eighty");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void aServerThatNeverListensFailsAfterTheTimeoutAndIsKilled() {
    ServerProcess.Launcher l = fake("never");
    assertThatThrownBy(() -> l.startAndAwaitListening(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not print its listening line within 1500 ms")
        .hasMessageContaining("tickwheel listening soon, maybe");
    try (ServerProcess p = l.start()) {
      assertThat(p.isAlive()).isTrue();
      p.close();
      assertThat(p.isAlive()).as("closed means killed").isFalse();
    }
  }

  @Test
  void sigtermRunsTheShutdownHooksAndKillNineDoesNot() {
    try (ServerProcess p = fake("listen", "a").startAndAwaitListening(Duration.ofSeconds(60))) {
      p.sigterm();
      assertThat(p.waitForExit(Duration.ofSeconds(10))).isTrue();
      assertThat(p.exitValue()).isEqualTo(143);
      assertThat(p.stdout()).contains("shutdown hook ran");
    }
    try (ServerProcess p = fake("listen", "b").startAndAwaitListening(Duration.ofSeconds(60))) {
      p.kill9();
      assertThat(p.isAlive()).isFalse();
      assertThat(p.exitValue()).isEqualTo(137);
      assertThat(p.stdout()).doesNotContain("shutdown hook ran");
    }
  }

  @Test
  void pauseStopsTheProcessUntilResumeAndKillNineWorksOnAPausedOne() throws IOException {
    try (ServerProcess p = fake("listen", "c").startAndAwaitListening(Duration.ofSeconds(60))) {
      p.pause();
      assertThat(state(p)).as("stopped").isEqualTo('T');
      p.resume();
      assertThat(state(p)).as("running or sleeping").isIn('R', 'S');
      p.pause();
      p.kill9();
      assertThat(p.isAlive()).isFalse();
    }
  }

  @Test
  void theEnvPropertyIsReadAsCommaSeparatedNameValuePairs() {
    assertThat(ServerProcess.envFromProperty(null)).isEmpty();
    assertThat(ServerProcess.envFromProperty(" ")).isEmpty();
    assertThat(ServerProcess.envFromProperty("TICKWHEEL_WINDOW_MS=1000, TICKWHEEL_TICK_MS = 5,X="))
        .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("TICKWHEEL_WINDOW_MS", "1000", "TICKWHEEL_TICK_MS", "5",
            "X", ""));
    assertThatThrownBy(() -> ServerProcess.envFromProperty("TICKWHEEL_WINDOW_MS"))
        .hasMessageContaining("tickwheel.server.env").hasMessageContaining("'TICKWHEEL_WINDOW_MS'");
    assertThatThrownBy(() -> ServerProcess.envFromProperty("=1")).hasMessageContaining("'=1'");
  }

  @Test
  void everyChildGetsTheEnvPropertysVariablesUnderTheLaunchersOwn() {
    System.setProperty(ServerProcess.ENV_PROPERTY, "TW_TEST_A=from-property,TW_TEST_B=from-property");
    try (ServerProcess p = fake("env", "TW_TEST_A", "TW_TEST_B").env("TW_TEST_B", "from-launcher")
        .startAndAwaitListening(Duration.ofSeconds(60))) {
      assertThat(p.stdout()).contains("env from-property from-launcher");
    } finally {
      System.clearProperty(ServerProcess.ENV_PROPERTY);
    }
  }

  @Test
  void aMissingJarOrJarPropertyIsReportedWithHowToBuildIt() {
    assertThatThrownBy(() -> ServerProcess.fromJar(logs.resolve("nope.jar")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mvn -q -DskipTests package");
    String before = System.getProperty(ServerProcess.JAR_PROPERTY);
    try {
      System.clearProperty(ServerProcess.JAR_PROPERTY);
      assertThatThrownBy(ServerProcess::jarFromProperty).hasMessageContaining("tickwheel.jar is not set");
      System.setProperty(ServerProcess.JAR_PROPERTY, logs.resolve("nope.jar").toString());
      assertThatThrownBy(ServerProcess::jarFromProperty).hasMessageContaining("is not a file");
    } finally {
      if (before == null) {
        System.clearProperty(ServerProcess.JAR_PROPERTY);
      } else {
        System.setProperty(ServerProcess.JAR_PROPERTY, before);
      }
    }
  }

  /** The state letter of /proc/PID/stat (R running, S sleeping, T stopped). */
  private static char state(ServerProcess p) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }
}
