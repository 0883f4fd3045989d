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
 *
 * <p>With {@code --store redis} the data live in Redis, not in the directory: given {@link RedisKeys}, the first
 * start refuses to run when Redis already holds tickwheel keys (they would be loaded, and later deleted),
 * {@link #restartFresh} deletes them between the kill and the start, and {@link #close} deletes them at the end.
 */
public final class ServerProcess implements AutoCloseable {
  private final Path jar;
  private final String store;
  private final List<String> extraArgs;
  private final String token;
  private final RedisKeys redisKeys;
  private boolean everStarted;
  private Path dataDir;
  private Process process;
  private String url;
  private long listeningNanos;

  /**
   * @param jar the server's fat jar; @param store {@code rocksdb}, {@code redis} or {@code memory};
   * @param token bearer token passed as {@code --token}, or null; @param extraArgs more server flags
   */
  public ServerProcess(Path jar, String store, String token, List<String> extraArgs) throws IOException {
    this(jar, store, token, extraArgs, null);
  }

  /**
   * As above; @param redisKeys the Redis the server's {@code --redis} names, whose tickwheel keys this process
   * owns (checked empty before the first start, wiped by {@link #restartFresh} and {@link #close}), or null
   */
  public ServerProcess(Path jar, String store, String token, List<String> extraArgs, RedisKeys redisKeys)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--server-jar: no such file: " + jar + " (build it with mvn -q -DskipTests package)");
    }
    this.jar = jar;
    this.store = store;
    this.token = token;
    this.extraArgs = List.copyOf(extraArgs);
    this.redisKeys = redisKeys;
    this.dataDir = Files.createTempDirectory("tickwheel-load-");
  }

  /** Environment variable with extra JVM flags for the server process (split on spaces), e.g. {@code -XX:+UseZGC}. */
  public static final String JAVA_OPTS_ENV = "LOAD_SERVER_JAVA_OPTS";

  /** The server's extra JVM flags from {@value #JAVA_OPTS_ENV} (none when unset). */
  public static List<String> serverJavaOpts() {
    String v = System.getenv(JAVA_OPTS_ENV);
    return v == null || v.isBlank() ? List.of() : List.of(v.trim().split("\\s+"));
  }

  /** Starts the server (on the current data directory) and waits up to {@code timeoutMs} for its listening line. */
  public String start(long timeoutMs) throws Exception {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("server already running (pid " + process.pid() + ")");
    }
    if (!everStarted && redisKeys != null) {
      long found = redisKeys.count(RedisKeys.TICKWHEEL_PATTERN);
      if (found > 0) {
        throw new IllegalStateException("Redis already holds " + found + " tickwheel keys (" + RedisKeys.TICKWHEEL_PATTERN
            + "), from another server or an interrupted run; the load tool would load and then delete them. Remove"
            + " them first if they are not needed: redis-cli --scan --pattern '" + RedisKeys.TICKWHEEL_PATTERN
            + "' | xargs -r redis-cli unlink");
      }
    }
    everStarted = true;
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(serverJavaOpts());
    cmd.addAll(List.of("-jar", jar.toString(), "--port", "0", "--store", store, "--data-dir", dataDir.toString()));
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

  /**
   * Kills the server and starts a fresh one on a new empty data directory, with the Redis keys deleted when it
   * runs on Redis (nothing the tool created remains).
   */
  public String restartFresh(long timeoutMs) throws Exception {
    kill();
    deleteDir(dataDir);
    if (redisKeys != null) {
      redisKeys.delete(RedisKeys.TICKWHEEL_PATTERN);
    }
    dataDir = Files.createTempDirectory("tickwheel-load-");
    return start(timeoutMs);
  }

  /** SIGTERM (graceful), then kill after 6 s; deletes the data directory (and the Redis keys, see above). */
  @Override
  public void close() throws Exception {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(6, TimeUnit.SECONDS)) {
        kill();
      }
    }
    deleteDir(dataDir);
    if (redisKeys != null && everStarted) {
      redisKeys.delete(RedisKeys.TICKWHEEL_PATTERN);
    }
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
