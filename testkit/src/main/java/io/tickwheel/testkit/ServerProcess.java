package io.tickwheel.testkit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A tickwheel server run from its jar as a child process: {@code java [jvmArgs] -jar tickwheel.jar [args]}.
 * {@link #awaitListening} waits for the one stdout line {@code tickwheel listening on http://HOST:PORT}, which the
 * server prints once it accepts requests (after recovery). The child's stdout and stderr are each copied, line by
 * line, to a file ({@code NAME.out}, {@code NAME.err}) and kept for assertions and failure messages
 * ({@link #describe()}). Signals: {@link #kill9()} (SIGKILL), {@link #sigterm()}, {@link #pause()} (SIGSTOP) and
 * {@link #resume()} (SIGCONT). {@link #close()} kills what is still running.
 *
 * <p>With the system property {@code tickwheel.cds.dir} set, the child also gets the JVM flags that map a class data
 * archive of the jar, made once per jar in that directory (only class loading changes; see {@code ClassDataArchive}).
 *
 * <p>The child's environment is this process's without the {@code TICKWHEEL_*} variables (every flag also reads
 * one), so only the given flags configure it; then the variables of the system property {@value #ENV_PROPERTY}
 * (a whole test run's setting, for example {@code -Dtickwheel.server.env=TICKWHEEL_WINDOW_MS=1000}); then
 * {@link Launcher#env}'s, which win. A flag given to the server wins over any variable.
 *
 * <p>Not thread safe: one owner thread (a test, the load tool's main thread). Blocking: never on an event loop.
 * The output is read by two daemon threads per process, which also call {@link Launcher#onOutput}.
 */
public final class ServerProcess implements AutoCloseable {

  /** The system property naming the server's shaded jar (set by the build for the integration tests). */
  public static final String JAR_PROPERTY = "tickwheel.jar";

  /**
   * The system property whose {@code NAME=VALUE} pairs, comma-separated, every child gets as environment variables
   * (under those of {@link Launcher#env}): how a test run sets a flag for every server it starts.
   */
  public static final String ENV_PROPERTY = "tickwheel.server.env";

  /** The listening line, whole: group 1 is the base URL, group 2 the port. */
  public static final Pattern LISTENING = Pattern.compile("tickwheel listening on (https?://[^\\s/]+:(\\d+))");

  private final Process process;
  private final List<String> command;
  private final Path stdoutFile;
  private final Path stderrFile;
  private final Path ownedLogDir;
  private final Thread stdoutPump;
  private final Thread stderrPump;
  private final CompletableFuture<String> listening = new CompletableFuture<>();
  private final long startedAtMs;
  private final long startedAtNanos;
  private volatile long readyAtMs;
  private volatile long readyAtNanos;
  private boolean paused;

  private ServerProcess(Launcher l, Path stdoutFile, Path stderrFile, Path ownedLogDir) throws IOException {
    this.command = l.command();
    this.stdoutFile = stdoutFile;
    this.stderrFile = stderrFile;
    this.ownedLogDir = ownedLogDir;
    ProcessBuilder pb = new ProcessBuilder(command);
    if (l.workDir != null) {
      pb.directory(l.workDir.toFile());
    }
    pb.environment().keySet().removeIf(k -> k.startsWith("TICKWHEEL_"));
    pb.environment().putAll(envFromProperty(System.getProperty(ENV_PROPERTY)));
    pb.environment().putAll(l.env);
    this.startedAtMs = System.currentTimeMillis();
    this.startedAtNanos = System.nanoTime();
    this.process = pb.start();
    this.stdoutPump = pump(process.getInputStream(), stdoutFile, l.onOutput, true);
    this.stderrPump = pump(process.getErrorStream(), stderrFile, l.onOutput, false);
  }

  /**
   * The variables of a {@value #ENV_PROPERTY} value: {@code NAME=VALUE} pairs separated by commas, blanks around them
   * ignored; empty for {@code null} or blank.
   *
   * @throws IllegalArgumentException naming the pair, for a pair without {@code =} or with an empty name
   */
  static Map<String, String> envFromProperty(String value) {
    Map<String, String> env = new HashMap<>();
    if (value == null || value.isBlank()) {
      return env;
    }
    for (String pair : value.split(",")) {
      String p = pair.trim();
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(ENV_PROPERTY + ": '" + p + "' is not NAME=VALUE");
      }
      env.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
    }
    return env;
  }

  /** A launcher for {@code jar}. */
  public static Launcher fromJar(Path jar) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("no server jar at " + jar.toAbsolutePath()
          + " (build it with: mvn -q -DskipTests package)");
    }
    return new Launcher(jar);
  }

  /**
   * The jar named by the system property {@value #JAR_PROPERTY}; fails with a message saying how to get it when
   * the property is missing or names no file (an integration test run outside {@code mvn verify}).
   */
  public static Path jarFromProperty() {
    String v = System.getProperty(JAR_PROPERTY);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("system property " + JAR_PROPERTY + " is not set: integration tests run"
          + " against the shaded server jar under mvn verify (failsafe sets it to server/target/tickwheel.jar)");
    }
    Path jar = Path.of(v);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(JAR_PROPERTY + "=" + v + " is not a file: build it with mvn -DskipTests package");
    }
    return jar;
  }

  /**
   * Waits until the server printed its listening line and returns its base URL ({@code http://HOST:PORT}).
   *
   * @throws IllegalStateException if the process exits first or {@code timeout} passes (the message holds the
   *     command and the tails of its output); the process is left as it is
   */
  public String awaitListening(Duration timeout) {
    try {
      return listening.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("the server did not print its listening line within " + timeout.toMillis()
          + " ms; " + describe());
    } catch (ExecutionException e) {
      waitForExit(Duration.ofSeconds(5));
      throw new IllegalStateException("the server's stdout ended before its listening line; " + describe());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The base URL from the listening line ({@code http://HOST:PORT}); fails if it has not been printed. */
  public String baseUrl() {
    String url = listening.getNow(null);
    if (url == null) {
      throw new IllegalStateException("no listening line yet; " + describe());
    }
    return url;
  }

  /** The port from the listening line. */
  public int port() {
    Matcher m = LISTENING.matcher("tickwheel listening on " + baseUrl());
    if (!m.matches()) {
      throw new IllegalStateException("unexpected base URL " + baseUrl());
    }
    return Integer.parseInt(m.group(2));
  }

  /** When the process was launched, epoch ms. */
  public long startedAtMs() {
    return startedAtMs;
  }

  /** When the listening line was read, epoch ms; 0 before. */
  public long readyAtMs() {
    return readyAtMs;
  }

  /** Nanoseconds from the launch to reading the listening line; -1 before. */
  public long listeningNanos() {
    return readyAtNanos == 0 ? -1 : readyAtNanos - startedAtNanos;
  }

  /** The child's pid. */
  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits at most {@code timeout} for the process to exit; true if it did. Once it has, its output has been
   * copied to the files in full.
   */
  public boolean waitForExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        return false;
      }
      stdoutPump.join(5_000);
      stderrPump.join(5_000);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The exit code; fails while the process runs. */
  public int exitValue() {
    return process.exitValue();
  }

  /** SIGKILL ({@code kill -9}: no shutdown hook, nothing flushed); returns once the process is gone. */
  public void kill9() {
    resumeIfPaused();
    process.toHandle().destroyForcibly();
    if (!waitForExit(Duration.ofSeconds(10))) {
      throw new IllegalStateException("the server did not die within 10 s of kill -9; " + describe());
    }
  }

  /**
   * SIGTERM (the graceful stop); does not wait: see {@link #waitForExit}. What the server writes while it stops is
   * still read (the signal goes through {@link ProcessHandle}: {@link Process#destroy()} would also close the pipes
   * and lose it).
   */
  public void sigterm() {
    resumeIfPaused();
    process.toHandle().destroy();
  }

  /** SIGTERM, then SIGKILL if it has not exited within {@code grace}; returns once it is gone. */
  public void stop(Duration grace) {
    sigterm();
    if (!waitForExit(grace)) {
      kill9();
    }
  }

  /**
   * SIGSTOP: the process keeps its sockets but runs nothing until {@link #resume()}. Returns once the kernel reports
   * it stopped ({@code /proc/PID/stat}; a signal is delivered asynchronously, and on a loaded machine the process
   * was seen still running right after {@code kill}), at most 5 s.
   *
   * @throws IllegalStateException when it is not stopped 5 s after the signal
   */
  public void pause() {
    Signals.stop(process);
    paused = true;
  }

  /** SIGCONT; returns once the kernel no longer reports the process stopped, at most 5 s (as {@link #pause()}). */
  public void resume() {
    Signals.cont(process);
    paused = false;
  }

  private void resumeIfPaused() {
    if (paused && process.isAlive()) {
      resume();
    }
  }


  /** Everything the child wrote to stdout so far. */
  public String stdout() {
    return read(stdoutFile);
  }

  /** Everything the child wrote to stderr so far. */
  public String stderr() {
    return read(stderrFile);
  }

  public Path stdoutFile() {
    return stdoutFile;
  }

  public Path stderrFile() {
    return stderrFile;
  }

  /** For failure messages: the command, pid, state and the last 4,000 characters of stdout and of stderr. */
  public String describe() {
    String state = process.isAlive() ? "running" : "exited " + process.exitValue();
    return "server pid " + process.pid() + " (" + state + "): " + String.join(" ", command)
        + "\n--- stdout (" + stdoutFile + "):\n" + tail(stdout()) + "\n--- stderr (" + stderrFile + "):\n"
        + tail(stderr());
  }

  private static String tail(String s) {
    return s.length() > 4000 ? "…" + s.substring(s.length() - 4000) : s;
  }

  private static String read(Path f) {
    try {
      return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** Kills the process if it still runs (SIGKILL), and deletes the log directory if this class created it. */
  @Override
  public void close() {
    if (process.isAlive()) {
      kill9();
    }
    if (ownedLogDir != null) {
      try (Stream<Path> s = Files.walk(ownedLogDir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException ignored) {
        // best effort
      }
    }
  }

  private Thread pump(InputStream in, Path file, Consumer<String> onOutput, boolean stdout) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
          BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        String line;
        while ((line = r.readLine()) != null) {
          w.write(line);
          w.newLine();
          w.flush();
          if (stdout && !listening.isDone()) {
            Matcher m = LISTENING.matcher(line);
            if (m.matches()) {
              readyAtNanos = System.nanoTime();
              readyAtMs = System.currentTimeMillis();
              listening.complete(m.group(1));
            }
          }
          if (onOutput != null) {
            onOutput.accept(line);
          }
        }
      } catch (IOException e) {
        // the process died under us: the future below says so
      } finally {
        if (stdout) {
          listening.completeExceptionally(new IllegalStateException("stdout ended"));
        }
      }
    }, "server-" + (stdout ? "stdout" : "stderr") + "-" + process.pid());
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** What to launch: JVM flags, server flags, environment, where the output goes. Reusable for restarts. */
  public static final class Launcher {
    private final Path jar;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private Path logDir;
    private String logName = "server";
    private Path workDir;
    private Consumer<String> onOutput;

    private Launcher(Path jar) {
      this.jar = jar;
    }

    /** JVM flags before {@code -jar} (added to those given before). */
    public Launcher jvmArgs(List<String> flags) {
      jvmArgs.addAll(flags);
      return this;
    }

    /** JVM flags before {@code -jar} (added to those given before). */
    public Launcher jvmArgs(String... flags) {
      return jvmArgs(List.of(flags));
    }

    /** Server flags after the jar (added to those given before). */
    public Launcher args(List<String> flags) {
      args.addAll(flags);
      return this;
    }

    /** Server flags after the jar (added to those given before). */
    public Launcher args(String... flags) {
      return args(List.of(flags));
    }

    /** An environment variable of the child. */
    public Launcher env(String name, String value) {
      env.put(name, value);
      return this;
    }

    /** The child's working directory (default: this process's). */
    public Launcher workDir(Path dir) {
      this.workDir = dir;
      return this;
    }

    /**
     * Output to {@code dir/name.out} and {@code dir/name.err} (replaced if present). Without it, a new temporary
     * directory per start, deleted by {@link ServerProcess#close()}.
     */
    public Launcher logs(Path dir, String name) {
      this.logDir = dir;
      this.logName = name;
      return this;
    }

    /** Called with every line of stdout and of stderr, on the reading threads (it must not block long). */
    public Launcher onOutput(Consumer<String> consumer) {
      this.onOutput = consumer;
      return this;
    }

    List<String> command() {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(ClassDataArchive.flagsFor(jar));
      cmd.addAll(jvmArgs);
      cmd.add("-jar");
      cmd.add(jar.toAbsolutePath().toString());
      cmd.addAll(args);
      return cmd;
    }

    /** Launches the server; does not wait (see {@link ServerProcess#awaitListening}). */
    public ServerProcess start() {
      try {
        Path owned = logDir == null ? Files.createTempDirectory("tickwheel-server-") : null;
        Path dir = logDir == null ? owned : Files.createDirectories(logDir);
        return new ServerProcess(this, dir.resolve(logName + ".out"), dir.resolve(logName + ".err"), owned);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot launch " + command(), e);
      }
    }

    /**
     * Launches the server and waits for its listening line; kills it (SIGKILL) when that fails.
     *
     * @throws IllegalStateException as {@link ServerProcess#awaitListening}
     */
    public ServerProcess startAndAwaitListening(Duration timeout) {
      ServerProcess p = start();
      try {
        p.awaitListening(timeout);
        return p;
      } catch (RuntimeException e) {
        p.close();
        throw e;
      }
    }
  }
}
