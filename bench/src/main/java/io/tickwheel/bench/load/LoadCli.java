package io.tickwheel.bench.load;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The load tool's command line, parsed with picocli into a {@link LoadConfig}: {@code --name value} or
 * {@code --name=value}; integers may use {@code _} separators; an option given twice: the last wins. A bad option
 * or value fails with an {@link IllegalArgumentException} naming the option and the value. Not thread safe: one
 * instance per parse.
 */
@Command(name = "LoadTool", sortOptions = false, usageHelpWidth = 110,
    customSynopsis = "java -cp bench/target/benchmarks.jar io.tickwheel.bench.load.LoadTool "
        + "(--url URL | --server-jar JAR) [options]",
    description = "Drives timer systems over their real APIs with the same scenarios, sizes and concurrency.")
final class LoadCli {

  @Option(names = "--target", paramLabel = "A,B", defaultValue = "tickwheel",
      description = "comma-separated targets, each of tickwheel, quartz-jdbc, db-scheduler, redisson-delayed-queue "
          + "(default ${DEFAULT-VALUE})")
  private String target;

  @Option(names = "--url", paramLabel = "URL", description = "a running tickwheel, http://127.0.0.1:PORT")
  private String url;

  @Option(names = "--token", paramLabel = "SECRET", description = "the running tickwheel's bearer token")
  private String token;

  @Option(names = "--server-jar", paramLabel = "JAR", description = "start tickwheel from this jar, once per store")
  private String serverJar;

  @Option(names = "--store", paramLabel = "A,B", defaultValue = "rocksdb",
      description = "stores of the started tickwheel: rocksdb, redis, memory (default ${DEFAULT-VALUE})")
  private String store;

  @Option(names = "--scenario", paramLabel = "A,B", defaultValue = "throughput,lateness,burst,heartbeat",
      description = "scenarios: throughput, lateness, burst, heartbeat, recovery or all; and scale (tickwheel only,"
          + " not in all: --pending timers over 48 h, a --duration-s stream at --firing-rate, heap, RSS, kill -9)"
          + " (default ${DEFAULT-VALUE})")
  private String scenario;

  @Option(names = "--timers", paramLabel = "N", defaultValue = "50000",
      description = "throughput: timers per run (default ${DEFAULT-VALUE})")
  private int timers;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "10000",
      description = "throughput: unmeasured single schedules first (default ${DEFAULT-VALUE})")
  private int warmup;

  @Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "0",
      description = "throughput: warm up this long, in passes of --warmup single schedules and a batch pass,"
          + " the last cut here; a peer may drop each pass's timers; 0 = one pass by count (default ${DEFAULT-VALUE})")
  private int warmupMs;

  @Option(names = "--throughput-ms", paramLabel = "MS", defaultValue = "0",
      description = "throughput: end each measured run after this long, 0 = count only (default ${DEFAULT-VALUE})")
  private int throughputMs;

  @Option(names = "--concurrency", paramLabel = "N", defaultValue = "64",
      description = "requests in flight (default ${DEFAULT-VALUE})")
  private int concurrency;

  @Option(names = "--client-loops", paramLabel = "N",
      description = "event loops of tickwheel's HTTP client (default ${DEFAULT-VALUE}: the cores, at most 2)")
  private int clientLoops = LoadConfig.defaultClientLoops();

  @Option(names = "--tickwheel-mode", paramLabel = "M,N", defaultValue = "http",
      description = "how tickwheel is driven, comma-separated, each a run per store: http (a request per schedule"
          + " and per touch) or client (the Java client: pipelined WebSocket commands) (default ${DEFAULT-VALUE})")
  private String tickwheelMode;

  @Option(names = "--rate", paramLabel = "PER_S", defaultValue = "0",
      description = "throughput: paced schedules per second, 0 = flat out (default ${DEFAULT-VALUE})")
  private int rate;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "10000",
      description = "timers per batch request (default ${DEFAULT-VALUE})")
  private int batchSize;

  @Option(names = "--batch-concurrency", paramLabel = "N", defaultValue = "2",
      description = "batch requests in flight (default ${DEFAULT-VALUE})")
  private int batchConcurrency;

  @Option(names = "--pending", paramLabel = "N", defaultValue = "100000",
      description = "lateness, recovery and scale: timers pending (default ${DEFAULT-VALUE})")
  private int pending;

  @Option(names = "--firing-rate", paramLabel = "PER_S", defaultValue = "2000",
      description = "lateness and scale: firings per second (default ${DEFAULT-VALUE})")
  private int firingRate;

  @Option(names = "--window-ms", paramLabel = "MS", defaultValue = "10000",
      description = "lateness: measured window (default ${DEFAULT-VALUE})")
  private int windowMs;

  @Option(names = "--lateness-warmup-ms", paramLabel = "MS", defaultValue = "3000",
      description = "lateness, heartbeat and burst: unmeasured warm-up (default ${DEFAULT-VALUE})")
  private int latenessWarmupMs;

  @Option(names = "--burst", paramLabel = "N", defaultValue = "20000",
      description = "burst: timers due at one instant (default ${DEFAULT-VALUE})")
  private int burst;

  @Option(names = "--keys", paramLabel = "N", defaultValue = "10000",
      description = "heartbeat: keys touched (default ${DEFAULT-VALUE})")
  private int keys;

  @Option(names = "--duration-s", paramLabel = "S", defaultValue = "10",
      description = "heartbeat: how long; scale: the stream's length (default ${DEFAULT-VALUE})")
  private int durationS;

  @Option(names = "--heartbeat-delay-ms", paramLabel = "MS", defaultValue = "3000",
      description = "heartbeat: each key's delay (default ${DEFAULT-VALUE})")
  private int heartbeatDelayMs;

  @Option(names = "--fill-horizon-ms", paramLabel = "MS", defaultValue = "172800000",
      description = "scale: the filled timers are due evenly over [now + 10 min, now + MS] (default ${DEFAULT-VALUE}: 48 h);"
          + " a horizon inside the server's --window-ms keeps every one in memory")
  private long fillHorizonMs;

  @Option(names = "--stream-slot-ms", paramLabel = "MS", defaultValue = "100",
      description = "lateness and scale: the stream sends one batch every MS, the rate's share of it (default"
          + " ${DEFAULT-VALUE}: 1,000 timers every 100 ms at 10,000/s; 10 sends the same rate as 100 every 10 ms)")
  private long streamSlotMs;

  @Option(names = "--csv", paramLabel = "FILE", description = "write every value (and the ratio rows) here")
  private String csv;

  @Option(names = "--redis", paramLabel = "URI", description = "tickwheel's --redis and the Redisson peer's Redis")
  private String redis;

  @Option(names = "--jdbc-url", paramLabel = "URL", description = "the JDBC peers' PostgreSQL")
  private String jdbcUrl;

  @Option(names = "--chart", paramLabel = "FILE.svg", description = "write the throughput and lateness chart here")
  private String chart;

  @Option(names = "--keep-timers", description = "with --url: leave the timers in place after each scenario instead"
      + " of deleting the tool's topic (list + DELETE, slow for millions), for a server the caller throws away"
      + " afterwards (bench/cluster/lateness.sh)")
  private boolean keepTimers;

  @Option(names = "--endpoints", paramLabel = "URL,URL",
      description = "with --url and --tickwheel-mode client: the Java client's endpoints (every node of a cluster);"
          + " batches then go through the client too, which in a cluster reads the partition map and sends every"
          + " schedule to its timer's owner (the firings' subscription stays on --url)")
  private String endpoints;

  @Option(names = "--help", usageHelp = true, description = "print this help and exit")
  private boolean help;

  private LoadCli() {}

  /**
   * Parses {@code args}.
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  static LoadCli parse(String[] args) {
    LoadCli cli = new LoadCli();
    try {
      commandLine(cli).parseArgs(args);
    } catch (ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return cli;
  }

  /** Whether {@code --help} was given. */
  boolean helpRequested() {
    return help;
  }

  /** The {@code --help} text. */
  static String usage() {
    return commandLine(new LoadCli()).getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  private static CommandLine commandLine(LoadCli cli) {
    CommandLine cl = new CommandLine(cli);
    cl.setExpandAtFiles(false);
    cl.setOverwrittenOptionsAllowed(true);
    cl.registerConverter(Integer.TYPE, s -> {
      try {
        return Integer.parseInt(s.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException("must be an integer, got '" + s + "'");
      }
    });
    cl.registerConverter(Long.TYPE, s -> {
      try {
        return Long.parseLong(s.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException("must be an integer, got '" + s + "'");
      }
    });
    return cl;
  }

  /**
   * The configuration.
   *
   * @throws IllegalArgumentException naming the option and the value, or when {@code --help} was asked for
   */
  LoadConfig config() {
    if (help) {
      throw new IllegalArgumentException("--help prints the usage instead of configuring a run");
    }
    List<String> scenarios = new ArrayList<>();
    for (String s : scenario.split(",")) {
      if (s.equals("all")) {
        scenarios.addAll(LoadConfig.ALL);
      } else if (LoadConfig.ALL.contains(s) || LoadConfig.ON_REQUEST.contains(s)) {
        scenarios.add(s);
      } else {
        throw new IllegalArgumentException(
            "--scenario: unknown scenario '" + s + "' (known: " + LoadConfig.ALL + ", " + LoadConfig.ON_REQUEST
                + ", all)");
      }
    }
    List<String> targets = new ArrayList<>();
    for (String t : target.split(",")) {
      if (!LoadConfig.TARGETS.contains(t)) {
        throw new IllegalArgumentException("--target: unknown target '" + t + "' (known: " + LoadConfig.TARGETS + ")");
      }
      if (!targets.contains(t)) {
        targets.add(t);
      }
    }
    if (url == null && serverJar == null && targets.contains("tickwheel")) {
      throw new IllegalArgumentException("give --url http://127.0.0.1:PORT or --server-jar server/target/tickwheel.jar");
    }
    if (scenarios.contains("recovery") && serverJar == null && targets.contains("tickwheel")) {
      throw new IllegalArgumentException("--scenario recovery needs --server-jar (it kills and restarts the server)");
    }
    if (chart != null && !chart.endsWith(".svg")) {
      throw new IllegalArgumentException("--chart must name an .svg file, got '" + chart + "'");
    }
    return new LoadConfig(List.copyOf(targets), url, token, serverJar, List.of(store.split(",")),
        List.copyOf(scenarios), atLeast("timers", timers, 1), atLeast("warmup", warmup, 0),
        atLeast("warmup-ms", warmupMs, 0), atLeast("throughput-ms", throughputMs, 0),
        atLeast("concurrency", concurrency, 1), atLeast("client-loops", clientLoops, 1), atLeast("rate", rate, 0),
        atLeast("batch-size", batchSize, 1), atLeast("batch-concurrency", batchConcurrency, 1),
        atLeast("pending", pending, 0), atLeast("firing-rate", firingRate, 1), atLeast("window-ms", windowMs, 100),
        atLeast("lateness-warmup-ms", latenessWarmupMs, 0), atLeast("burst", burst, 1), atLeast("keys", keys, 1),
        atLeast("duration-s", durationS, 1), atLeast("heartbeat-delay-ms", heartbeatDelayMs, 100), csv, redis,
        jdbcUrl, chart, modes(tickwheelMode), keepTimers, atLeast("fill-horizon-ms", fillHorizonMs, 660_000),
        endpoints(endpoints), between("stream-slot-ms", streamSlotMs, 1, 1000));
  }

  /** {@code --endpoints}: each an {@code http://host:port}; needs {@code --url} and client mode. */
  private List<String> endpoints(String value) {
    if (value == null) {
      return List.of();
    }
    if (url == null || !modes(tickwheelMode).contains("client")) {
      throw new IllegalArgumentException("--endpoints needs --url and --tickwheel-mode client, got --endpoints '"
          + value + "'");
    }
    List<String> out = new java.util.ArrayList<>();
    for (String e : value.split(",")) {
      String u = e.trim().replaceAll("/+$", "");
      if (!u.matches("https?://[^/\\s]+")) {
        throw new IllegalArgumentException("--endpoints: '" + e + "' is not http://host:port");
      }
      out.add(u);
    }
    return List.copyOf(out);
  }

  private static List<String> modes(String value) {
    List<String> modes = new java.util.ArrayList<>();
    for (String m : value.split(",")) {
      if (!LoadConfig.TICKWHEEL_MODES.contains(m.trim())) {
        throw new IllegalArgumentException("--tickwheel-mode: unknown mode '" + m.trim() + "' (known: "
            + LoadConfig.TICKWHEEL_MODES + ")");
      }
      if (!modes.contains(m.trim())) {
        modes.add(m.trim());
      }
    }
    return List.copyOf(modes);
  }

  private static long atLeast(String option, long n, long min) {
    if (n < min) {
      throw new IllegalArgumentException("--" + option + " must be >= " + min + ", got " + n);
    }
    return n;
  }

  private static int atLeast(String option, int n, int min) {
    if (n < min) {
      throw new IllegalArgumentException("--" + option + " must be >= " + min + ", got " + n);
    }
    return n;
  }

  private static long between(String option, long n, long min, long max) {
    if (n < min || n > max) {
      throw new IllegalArgumentException("--" + option + " must be between " + min + " and " + max + ", got " + n);
    }
    return n;
  }
}
