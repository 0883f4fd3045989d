package io.tickwheel.server.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server as a child JVM ({@code io.tickwheel.server.Main} on this test's own classpath, so it works under
 * surefire before the fat jar is packaged), its output in a log file. {@link #start} returns once it printed
 * {@code tickwheel listening on http://HOST:PORT}, which the server does only after recovery.
 */
final class ServerProcess {

  private static final Pattern LISTENING = Pattern.compile("tickwheel listening on (http://\\S+)");

  final Process process;
  final String baseUrl;
  final Path log;
  /** When the process was launched, epoch ms. */
  final long startedAtMs;
  /** When the listening line was seen (recovery finished), epoch ms. */
  final long readyAtMs;

  private ServerProcess(Process process, String baseUrl, Path log, long startedAtMs, long readyAtMs) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.log = log;
    this.startedAtMs = startedAtMs;
    this.readyAtMs = readyAtMs;
  }

  /** Starts the server with {@code --store rocksdb --data-dir dataDir --port 0}, output to the new file {@code log}. */
  static ServerProcess start(Path dataDir, Path log, long timeoutMs) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), "io.tickwheel.server.Main",
        "--store", "rocksdb", "--data-dir", dataDir.toString(), "--port", "0", "--host", "127.0.0.1"));
    long startedAt = System.currentTimeMillis();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (m.find()) {
        return new ServerProcess(p, m.group(1), log, startedAt, System.currentTimeMillis());
      }
      if (!p.isAlive()) {
        throw new AssertionError("server exited with " + p.exitValue() + " before listening; log:\n" + tail(log));
      }
      Thread.sleep(10);
    }
    p.destroyForcibly();
    throw new AssertionError("server did not print its listening line within " + timeoutMs + " ms; log:\n"
        + tail(log));
  }

  /** kill -9. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new AssertionError("server did not die after kill -9");
    }
  }

  /** SIGTERM, then kill -9 if it has not exited within 10 s. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  static String tail(Path log) {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8);
      return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
