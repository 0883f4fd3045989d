package io.tickwheel.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A tickwheel server run as a child process ({@code java -jar tickwheel.jar --port 0 --store S --data-dir D}) on a
 * temporary data directory, launched by the test kit's {@link io.tickwheel.testkit.ServerProcess} (the one launcher
 * the integration tests use too). {@link #start} returns once the server printed {@code tickwheel listening on URL}.
 * {@link #kill()} is a {@code kill -9}; {@link #start} again restarts on the same data directory (the recovery
 * scenario). The server's output before its listening line, and its ERROR/SEVERE lines after, are echoed to stderr.
 * Not thread safe: one owner (the load tool's main thread).
 *
 * <p>With {@code --store redis} the data live in Redis, not in the directory: given {@link RedisKeys}, the first
 * start refuses to run when Redis already holds tickwheel keys (they would be loaded, and later deleted),
 * {@link #restartFresh} deletes them between the kill and the start, and {@link #close} deletes them at the end.
 */
public final class ManagedServer implements AutoCloseable {
  private final Path jar;
  private final String store;
  private final List<String> extraArgs;
  private final String token;
  private final RedisKeys redisKeys;
  private boolean everStarted;
  private Path dataDir;
  private io.tickwheel.testkit.ServerProcess process;
  private String url;
  private long listeningNanos;

  /**
   * @param jar the server's fat jar; @param store {@code rocksdb}, {@code redis} or {@code memory};
   * @param token bearer token passed as {@code --token}, or null; @param extraArgs more server flags
   */
  public ManagedServer(Path jar, String store, String token, List<String> extraArgs) throws IOException {
    this(jar, store, token, extraArgs, null);
  }

  /**
   * As above; @param redisKeys the Redis the server's {@code --redis} names, whose tickwheel keys this process
   * owns (checked empty before the first start, wiped by {@link #restartFresh} and {@link #close}), or null
   */
  public ManagedServer(Path jar, String store, String token, List<String> extraArgs, RedisKeys redisKeys)
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

  /**
   * Environment variable with extra server flags (split on spaces), appended to the tool's own, e.g.
   * {@code --max-pending 200000000} for the scale scenario.
   */
  public static final String SERVER_ARGS_ENV = "LOAD_SERVER_ARGS";

  /** The server's extra flags from {@value #SERVER_ARGS_ENV} (none when unset). */
  public static List<String> serverArgs() {
    String v = System.getenv(SERVER_ARGS_ENV);
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
    List<String> args = new ArrayList<>(List.of("--port", "0", "--store", store, "--data-dir", dataDir.toString()));
    if (token != null) {
      args.add("--token");
      args.add(token);
    }
    args.addAll(extraArgs);
    args.addAll(serverArgs());
    AtomicBoolean listening = new AtomicBoolean();   // written by the stdout reader, read by both readers
    io.tickwheel.testkit.ServerProcess p = io.tickwheel.testkit.ServerProcess.fromJar(jar)
        .jvmArgs(serverJavaOpts()).args(args)
        .onOutput(line -> {
          if (line.startsWith("tickwheel listening on ")) {
            listening.set(true);
          } else if (!listening.get() || line.contains("ERROR") || line.contains("SEVERE")) {
            System.err.println("[server] " + line);
          }
        })
        .start();
    process = p;
    url = p.awaitListening(Duration.ofMillis(timeoutMs));
    listeningNanos = p.listeningNanos();
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
  public void kill() {
    if (process != null) {
      process.close();
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
    if (process != null) {
      process.stop(Duration.ofSeconds(6));
      process.close();
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
