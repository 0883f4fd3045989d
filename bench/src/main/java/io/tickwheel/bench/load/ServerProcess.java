package io.tickwheel.bench.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A tickwheel server run as a child process ({@code java -jar tickwheel.jar --port 0 --store S --data-dir D}) on a
 * temporary data directory. {@link #start()} returns once the server printed {@code tickwheel listening on URL}.
 * {@link #kill()} is a {@code kill -9} ({@link Process#destroyForcibly()}); {@link #start()} again restarts on the
 * same data directory (the recovery scenario). Not thread safe: one owner (the load tool's main thread).
 */
public final class ServerProcess implements AutoCloseable {
  private final Path jar;
  private final String store;
  private final List<String> extraArgs;
  private final String token;
  private Path dataDir;
  private Process process;
  private String url;
  private long listeningNanos;

  /**
   * @param jar the server's fat jar; @param store {@code rocksdb}, {@code redis} or {@code memory};
   * @param token bearer token passed as {@code --token}, or null; @param extraArgs more server flags
   */
  public ServerProcess(Path jar, String store, String token, List<String> extraArgs) throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--server-jar: no such file: " + jar + " (build it with mvn -q -DskipTests package)");
    }
    this.jar = jar;
    this.store = store;
    this.token = token;
    this.extraArgs = List.copyOf(extraArgs);
    this.dataDir = Files.createTempDirectory("tickwheel-load-");
  }

  /** Starts the server (on the current data directory) and waits up to {@code timeoutMs} for its listening line. */
  public String start(long timeoutMs) throws Exception {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("server already running (pid " + process.pid() + ")");
    }
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(), "--port", "0", "--store", store, "--data-dir", dataDir.toString()));
    if (token != null) {
      cmd.add("--token");
      cmd.add(token);
    }
    cmd.addAll(extraArgs);
    long t0 = System.nanoTime();
    process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    CompletableFuture<String> line = new CompletableFuture<>();
    Process p = process;
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String s;
        while ((s = r.readLine()) != null) {
          if (!line.isDone() && s.startsWith("tickwheel listening on ")) {
            line.complete(s.substring("tickwheel listening on ".length()).trim());
          } else if (!line.isDone() || s.contains("ERROR") || s.contains("SEVERE")) {
            System.err.println("[server] " + s);
          }
        }
      } catch (IOException ignored) {
        // the process died: reported below through the future
      }
      line.completeExceptionally(new IllegalStateException("server exited before its listening line (status "
          + (p.isAlive() ? "running" : String.valueOf(p.exitValue())) + ")"));
    }, "server-stdout");
    reader.setDaemon(true);
    reader.start();
    url = line.get(timeoutMs, TimeUnit.MILLISECONDS);
    listeningNanos = System.nanoTime() - t0;
    return url;
  }

  /** The {@code --store} this server runs with. */
  public String store() {
    return store;
  }

  /** The base URL from the last listening line. */
  public String url() {
    return url;
  }

  /** Nanoseconds from process start to its listening line (the last {@link #start}). */
  public long listeningNanos() {
    return listeningNanos;
  }

  /** The server's pid, or -1 when not running. */
  public long pid() {
    return process == null ? -1 : process.pid();
  }

  /** {@code kill -9}: no shutdown hook, no flush; waits until the process is gone. */
  public void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Kills the server and starts a fresh one on a new empty data directory (nothing the tool created remains). */
  public String restartFresh(long timeoutMs) throws Exception {
    kill();
    deleteDir(dataDir);
    dataDir = Files.createTempDirectory("tickwheel-load-");
    return start(timeoutMs);
  }

  /** SIGTERM (graceful), then kill after 6 s; deletes the data directory. */
  @Override
  public void close() throws Exception {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(6, TimeUnit.SECONDS)) {
        kill();
      }
    }
    deleteDir(dataDir);
  }

  private static void deleteDir(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
