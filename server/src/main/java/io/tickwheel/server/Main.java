package io.tickwheel.server;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code java -jar tickwheel.jar [flags]}: parses the configuration with {@link ServerCli} (bad flags: one line on
 * stderr, exit 2; {@code --help} and {@code --version}: the text on stdout, exit 0), starts
 * the server, prints {@code tickwheel listening on http://HOST:PORT} ({@code https://} with TLS) once it is recovered and accepting requests,
 * and on SIGTERM/SIGINT stops accepting, flushes and closes the store and exits 0 within 5 s.
 */
public final class Main {

  /** Exit status for a configuration error. */
  public static final int EXIT_CONFIG = 2;
  /** Exit status when the server cannot start (store unavailable, port in use). */
  public static final int EXIT_START = 1;

  private Main() {}

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
    }
    PrintStream err = System.err;
    ServerCli.Request request;
    try {
      request = ServerCli.parse(args, System.getenv());
    } catch (ConfigException e) {
      err.println("tickwheel: " + e.getMessage());
      System.exit(EXIT_CONFIG);
      return;
    }
    if (request instanceof ServerCli.Help help) {
      System.out.print(help.text());
      return;
    }
    if (request instanceof ServerCli.Version version) {
      System.out.print(version.text());
      return;
    }
    ServerConfig cfg = ((ServerCli.Run) request).config();
    // epoll on Linux (bundled), NIO elsewhere or if the native library cannot load
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    if (!vertx.isNativeTransportEnabled()) {
      System.getLogger(Main.class.getName()).log(System.Logger.Level.INFO,
          "native transport unavailable, using NIO: " + vertx.unavailableNativeTransportCause());
    }
    TickwheelServer server = new TickwheelServer(cfg);
    String deploymentId;
    try {
      deploymentId = vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get();
    } catch (Exception e) {
      Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      boolean config = cause instanceof io.tickwheel.core.coordination.ClusterConfigException
          || cause instanceof ConfigException;
      err.println("tickwheel: " + (config ? "refusing to start: " : "cannot start: ") + oneLine(cause));
      closeQuietly(vertx);
      System.exit(config ? EXIT_CONFIG : EXIT_START);
      return;
    }
    installShutdown(vertx, deploymentId);
    System.out.println("tickwheel listening on " + cfg.url(server.actualPort()));
    System.out.flush();
  }

  /** SIGTERM/SIGINT: undeploy (stop accepting, flush the store), close Vert.x, exit 0; bounded to 4.5 s. */
  private static void installShutdown(Vertx vertx, String deploymentId) {
    AtomicBoolean once = new AtomicBoolean();
    Runnable stop = () -> {
      if (!once.compareAndSet(false, true)) {
        return;
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4500);
      try {
        // two waits from this thread, not one chained future: a listener chained to the undeploy would run on an
        // event loop that vertx.close() has just terminated
        try {
          vertx.undeploy(deploymentId).toCompletionStage().toCompletableFuture()
              .get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } finally {
          vertx.close().toCompletionStage().toCompletableFuture()
              .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
      } catch (Exception e) {
        System.err.println("tickwheel: shutdown did not finish cleanly: " + oneLine(e));
      }
    };
    try {
      sun.misc.SignalHandler handler = sig -> {
        stop.run();
        System.exit(0);
      };
      sun.misc.Signal.handle(new sun.misc.Signal("TERM"), handler);
      sun.misc.Signal.handle(new sun.misc.Signal("INT"), handler);
    } catch (Throwable t) {
      // No signal API: a shutdown hook still flushes the store (the exit status is then the JVM's).
      Runtime.getRuntime().addShutdownHook(new Thread(stop, "tickwheel-shutdown"));
    }
  }

  private static void closeQuietly(Vertx vertx) {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(3, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // exiting anyway
    }
  }

  private static String oneLine(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
