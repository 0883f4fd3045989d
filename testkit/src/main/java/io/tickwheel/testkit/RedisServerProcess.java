package io.tickwheel.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} (from the PATH) on its own loopback port with its own temp directory, for tests.
 * Start, stop (gracefully, {@code SHUTDOWN NOSAVE}, or {@code kill -9}), pause ({@code SIGSTOP}), restart on the
 * same port and directory; start a replica of another one. Not thread safe. Blocking: test threads only.
 */
public final class RedisServerProcess implements AutoCloseable {

  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  private final String password;
  private Process process;

  private RedisServerProcess(int port, Path dir, String password, List<String> extraArgs) {
    this.port = port;
    this.dir = dir;
    this.password = password;
    this.extraArgs = extraArgs;
  }

  /** Starts a server with no persistence. */
  public static RedisServerProcess start() {
    return start(null);
  }

  /** Starts a server with no persistence and {@code requirepass password} (when not null). */
  public static RedisServerProcess start(String password, String... extra) {
    List<String> args = new ArrayList<>(List.of("--save", "", "--appendonly", "no"));
    args.addAll(List.of(extra));
    return startWith(freePort(false), password, args);
  }

  /** Starts a server with {@code appendonly yes} and {@code appendfsync fsync} ({@code always}, {@code everysec}). */
  public static RedisServerProcess startWithAof(String fsync) {
    return startWith(freePort(false), null, List.of("--save", "", "--appendonly", "yes", "--appendfsync", fsync));
  }

  /**
   * Starts a replica of {@code master} ({@code --replicaof 127.0.0.1 PORT}, no persistence, the master's password if
   * any) and waits until both report the link up and in sync (see {@link #awaitReplicaInSync}).
   */
  public static RedisServerProcess startReplicaOf(RedisServerProcess master) {
    List<String> args = new ArrayList<>(List.of("--save", "", "--appendonly", "no",
        "--replicaof", "127.0.0.1", Integer.toString(master.port())));
    if (master.password != null) {
      args.addAll(List.of("--masterauth", master.password));
    }
    RedisServerProcess replica = startWith(freePort(false), master.password, args);
    try {
      replica.awaitReplicaInSync(master, 30_000);
      return replica;
    } catch (RuntimeException e) {
      replica.close();
      throw e;
    }
  }

  /**
   * Waits until this replica of {@code master} is in sync: its {@code INFO replication} says
   * {@code master_link_status:up} and the master lists it {@code state=online}.
   *
   * @throws IllegalStateException with both servers' replication info when not within {@code timeoutMs}
   */
  public void awaitReplicaInSync(RedisServerProcess master, long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    String mine = "";
    String theirs = "";
    while (System.currentTimeMillis() < deadline) {
      mine = command("INFO", "replication");
      theirs = master.command("INFO", "replication");
      if (mine.contains("master_link_status:up")
          && theirs.matches("(?s).*slave\\d+:ip=[^,]+,port=" + port + ",state=online.*")) {
        return;
      }
      sleep(20);
    }
    throw new IllegalStateException("replica " + port + " of " + master.port() + " not in sync within " + timeoutMs
        + " ms:\n" + mine + "\n" + theirs);
  }

  /** Starts a server with arbitrary extra config arguments ({@code --name value} pairs). */
  public static RedisServerProcess startWith(int port, String password, List<String> extra) {
    try {
      Path dir = Files.createTempDirectory("tickwheel-redis-" + port + "-");
      RedisServerProcess p = new RedisServerProcess(port, dir, password, new ArrayList<>(extra));
      p.launch();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A free loopback port; with {@code clusterBus}, port + 10000 is free too. */
  public static int freePort(boolean clusterBus) {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        int p = s.getLocalPort();
        if (p == 6379) {
          continue;
        }
        if (!clusterBus) {
          return p;
        }
        if (p + 10000 < 65536) {
          try (ServerSocket bus = new ServerSocket(p + 10000, 1, java.net.InetAddress.getLoopbackAddress())) {
            return p;
          } catch (IOException busy) {
            // try another
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    throw new IllegalStateException("no free port found");
  }

  public int port() {
    return port;
  }

  public Path dir() {
    return dir;
  }

  /** {@code redis://[:password@]127.0.0.1:PORT}. */
  public String uri() {
    return "redis://" + (password == null ? "" : ":" + password + "@") + "127.0.0.1:" + port;
  }

  /** The process id of the running server. */
  public long pid() {
    return process.pid();
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  private void launch() throws IOException {
    List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--dir", dir.toString(), "--daemonize", "no", "--logfile", "redis.log",
        "--protected-mode", "no"));
    if (password != null) {
      cmd.addAll(List.of("--requirepass", password));
    }
    cmd.addAll(extraArgs);
    process = new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
    awaitReady(15_000);
  }

  /** Starts it again on the same port and directory (after a stop or kill). */
  public void restart() {
    if (isRunning()) {
      throw new IllegalStateException("redis on port " + port + " is still running");
    }
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code SHUTDOWN NOSAVE}: stops without writing an RDB snapshot (the AOF, if on, is what was fsynced). */
  public void shutdownNoSave() {
    try {
      command("SHUTDOWN", "NOSAVE");
    } catch (RuntimeException expected) {
      // the server closes the connection without a reply
    }
    awaitExit();
  }

  /** {@code kill -9}. */
  public void kill9() {
    process.destroyForcibly();
    awaitExit();
  }

  /**
   * {@code SIGSTOP}: the process keeps its sockets but answers nothing until {@link #resume()}. Returns once the
   * kernel reports it stopped, at most 5 s ({@link Signals#stop}).
   */
  public void pause() {
    Signals.stop(process);
  }

  /** {@code SIGCONT}; returns once the kernel no longer reports it stopped, at most 5 s. */
  public void resume() {
    Signals.cont(process);
  }


  private void awaitExit() {
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the server ({@code kill -9}, the data is thrown away anyway) and deletes its directory. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      resume();
      process.destroyForcibly();
      awaitExit();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // best effort
    }
  }

  private void awaitReady(long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    String last = "";
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("redis-server on port " + port + " exited: " + log());
      }
      try {
        String r = command("PING");
        if (r.startsWith("+PONG")) {
          return;
        }
        last = r;
      } catch (RuntimeException e) {
        last = e.toString();
      }
      sleep(20);
    }
    throw new IllegalStateException("redis-server on port " + port + " not ready: " + last + "\n" + log());
  }

  /** The server's log (for failure messages). */
  public String log() {
    try {
      Path f = dir.resolve("redis.log");
      return Files.exists(f) ? Files.readString(f) : "(no log)";
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  /**
   * Sends one command (authenticating first when there is a password) and returns the first reply line, or for
   * a bulk reply its content.
   */
  public String command(String... args) {
    return command(port, password, args);
  }

  /**
   * Sends one command (authenticating first when there is a password) and returns its reply flattened: the elements
   * of an array reply, nested arrays included, in order (a nil one as {@code "(nil)"}); any other reply as one
   * element, as {@link #command(String...)} returns it.
   */
  public List<String> commandList(String... args) {
    return exchange(port, password, args, in -> {
      List<String> all = new ArrayList<>();
      readFlat(in, all);
      return all;
    }, List::of);
  }

  private static void readFlat(InputStream in, List<String> into) throws IOException {
    String line = readLine(in);
    if (line.startsWith("*")) {
      int n = Integer.parseInt(line.substring(1));
      if (n < 0) {
        into.add("(nil)");
      }
      for (int i = 0; i < n; i++) {
        readFlat(in, into);
      }
    } else if (line.startsWith("$")) {
      int n = Integer.parseInt(line.substring(1));
      into.add(n < 0 ? "(nil)" : new String(in.readNBytes(n + 2), 0, n, StandardCharsets.UTF_8));
    } else {
      into.add(line);
    }
  }

  /** How many times this server ran command {@code name} (lowercase, e.g. {@code evalsha}) since its stats were reset. */
  public long commandCalls(String name) {
    return commandCalls(command("INFO", "commandstats"), name);
  }

  /** {@code calls} of {@code cmdstat_NAME} in an {@code INFO commandstats} answer (0 when absent). */
  public static long commandCalls(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("cmdstat_" + name + ":")) {
        return Long.parseLong(line.replaceAll("^cmdstat_[a-z|]+:calls=(\\d+),.*", "$1"));
      }
    }
    return 0;
  }

  /** As {@link #command(String...)} against any local port. */
  public static String command(int port, String password, String... args) {
    return exchange(port, password, args, RedisServerProcess::readReply, auth -> auth);
  }

  /** How one reply is read off the socket. */
  @FunctionalInterface
  private interface ReplyReader<T> {
    T read(InputStream in) throws IOException;
  }

  /**
   * Connects, authenticates when there is a password (a refusal answers {@code refused} of Redis's reply line), sends
   * one command and reads its reply with {@code reader}.
   */
  private static <T> T exchange(int port, String password, String[] args, ReplyReader<T> reader,
      java.util.function.Function<String, T> refused) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      if (password != null) {
        out.write(encode("AUTH", password));
        String auth = readReply(in);
        if (!auth.startsWith("+OK")) {
          return refused.apply(auth);
        }
      }
      out.write(encode(args));
      out.flush();
      return reader.read(in);
    } catch (IOException e) {
      throw new UncheckedIOException("redis on port " + port + ": " + e.getMessage(), e);
    }
  }

  private static byte[] encode(String... args) {
    StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
    for (String a : args) {
      byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
      b.append('$').append(bytes.length).append("\r\n").append(a).append("\r\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String readReply(InputStream in) throws IOException {
    String line = readLine(in);
    if (line.startsWith("$")) {
      int n = Integer.parseInt(line.substring(1));
      if (n < 0) {
        return "(nil)";
      }
      byte[] b = in.readNBytes(n + 2);
      return new String(b, 0, n, StandardCharsets.UTF_8);
    }
    return line;
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\r') {
        in.read();
        return b.toString();
      }
      b.append((char) c);
    }
    throw new IOException("connection closed by redis");
  }

  public static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A 3-master Redis Cluster on loopback, formed with {@code redis-cli --cluster create}. */
  public static final class Cluster implements AutoCloseable {
    private final List<RedisServerProcess> nodes = new ArrayList<>();

    public static Cluster start(int masters) {
      Cluster c = new Cluster();
      try {
        for (int i = 0; i < masters; i++) {
          c.nodes.add(startWith(freePort(true), null, List.of("--save", "", "--appendonly", "no",
              "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")));
        }
        List<String> cmd = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        for (RedisServerProcess n : c.nodes) {
          cmd.add("127.0.0.1:" + n.port());
        }
        cmd.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new IllegalStateException("redis-cli --cluster create failed: " + out);
        }
        long deadline = System.currentTimeMillis() + 30_000;
        for (RedisServerProcess n : c.nodes) {
          while (!n.command("CLUSTER", "INFO").contains("cluster_state:ok")) {
            if (System.currentTimeMillis() > deadline) {
              throw new IllegalStateException("cluster not ok: " + n.command("CLUSTER", "INFO"));
            }
            sleep(50);
          }
        }
        return c;
      } catch (IOException e) {
        c.close();
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        c.close();
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (RuntimeException e) {
        c.close();
        throw e;
      }
    }

    public List<RedisServerProcess> nodes() {
      return nodes;
    }

    /** The node URIs. */
    public List<String> uris() {
      return nodes.stream().map(RedisServerProcess::uri).toList();
    }

    @Override
    public void close() {
      for (RedisServerProcess n : nodes) {
        n.close();
      }
    }
  }
}
