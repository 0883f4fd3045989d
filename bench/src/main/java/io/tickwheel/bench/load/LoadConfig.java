package io.tickwheel.bench.load;

import java.util.List;

/**
 * The load tool's options, parsed by {@link LoadCli} from {@code --name value} / {@code --name=value}. Unknown
 * options and bad numbers fail with a message naming the option and value. {@link #describe()} prints every value used, defaults included.
 *
 * <p>{@code --target} is a comma-separated list; every target runs the same scenarios with the same sizes and
 * concurrency, {@code tickwheel} once per {@code --store}. {@code --redis URI} goes to tickwheel's {@code --redis}
 * (store {@code redis}) and to the Redisson peer; {@code --jdbc-url URL} to the JDBC peers (unset: each component's
 * own default, the machine's services). {@code --csv FILE} gets every value and, with more than one target, the
 * ratio rows of {@link Comparison}; {@code --chart FILE.svg} the chart of {@link SvgChart}.
 *
 * <p>Throughput by time, so that one preset is fair to targets thousands of times apart: {@code --warmup-ms W} makes
 * the warm-up last W ms, in passes of up to {@code --warmup} single schedules and a batch pass each, the last one cut
 * at W (a slow peer's single pass is cut at W; between passes a peer may drop the pass's timers,
 * {@link TimerTarget#dropWarmup}); without it the warm-up is one pass by count. {@code --throughput-ms T} ends each
 * measured run (single, batch) after T ms even if fewer than {@code --timers} (batch: 4 × timers) were sent; the rate
 * is then over what was sent. 0 (the default): counts only.
 *
 * <p>{@code --lateness-warmup-ms W} (default 3000): the unmeasured warm-up of the lateness stream, of the
 * heartbeat's touch path (touches of a separate set of keys at the heartbeat's rate), and of the burst (bursts of as
 * many other timers, each awaited, for W ms).
 *
 * <p>{@code --client-loops N} (default: the client's cores, at most 2): event loops of tickwheel's HTTP client, each
 * with its own pool; they share the {@code --concurrency} connections, so tickwheel never gets more requests in flight
 * than a peer. The peers' own client threads are their libraries' (see PEERS.md).
 *
 * <p>{@code --tickwheel-mode http,client} (default {@code http}): how the tool talks to tickwheel, each mode a run of
 * its own per store: {@code http} one HTTP request per single schedule and per touch ({@code --concurrency}
 * connections); {@code client} the Java client ({@code tickwheel-client}): single schedules and touches as pipelined
 * WebSocket commands over one connection, at most {@code --concurrency} in flight (batches stay HTTP). Client runs
 * are named {@code tickwheel-client-STORE}. With {@code --endpoints} (every node of a cluster) the client gets them all,
 * reads the partition map and sends each schedule to its timer's owner; batches then go through the client too
 * (gathered per tick and split by owner, as a Java service's schedules would); the firings' subscription stays on
 * {@code --url}.
 */
public record LoadConfig(List<String> targets, String url, String token, String serverJar, List<String> stores,
    List<String> scenarios, int timers, int warmup, long warmupMs, long throughputMs, int concurrency, int clientLoops, int rate, int batchSize, int batchConcurrency,
    int pending, int firingRate, long windowMs, long latenessWarmupMs, int burst, int keys, int durationS, int heartbeatDelayMs,
    String csv, String redis, String jdbcUrl, String chart, List<String> tickwheelModes, boolean keepTimers,
    long fillHorizonMs, List<String> endpoints, long streamSlotMs) {

  /** Every target name {@link Targets#create} knows. */
  public static final List<String> TARGETS =
      List.of("tickwheel", "quartz-jdbc", "db-scheduler", "redisson-delayed-queue");

  /** Every value of {@code --tickwheel-mode}. */
  public static final List<String> TICKWHEEL_MODES = List.of("http", "client");

  /** Every scenario, in the order {@code all} runs them. */
  public static final List<String> ALL = List.of("throughput", "lateness", "burst", "heartbeat", "recovery");

  /** Scenarios run only when named ({@code all} leaves them out): {@code scale} (see {@link ScaleScenario}). */
  public static final List<String> ON_REQUEST = List.of("scale");

  /** Default of {@code --client-loops}: the client's cores, at most 2 (see {@link HttpLanes}). */
  public static int defaultClientLoops() {
    return Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * Parses the load tool's command line ({@link LoadCli}).
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  public static LoadConfig parse(String[] args) {
    return LoadCli.parse(args).config();
  }

  /** One line per option with the value used (the token is shown as set/unset). */
  public String describe() {
    return "configuration:\n"
        + "  targets=" + targets + (url != null ? " url=" + url : " server-jar=" + serverJar + " stores=" + stores)
        + " token=" + (token == null ? "unset" : "set") + "\n"
        + "  services: redis=" + (redis == null ? "default" : redis) + " jdbc-url="
        + (jdbcUrl == null ? "default" : jdbcUrl) + "\n"
        + "  scenarios=" + scenarios + "\n"
        + "  throughput: timers=" + timers + " warmup=" + warmup
        + (warmupMs > 0 ? " warmup-ms=" + warmupMs : "") + (throughputMs > 0 ? " throughput-ms=" + throughputMs : "")
        + " concurrency=" + concurrency + " client-loops=" + clientLoops + " tickwheel-mode=" + tickwheelModes + " rate="
        + (rate == 0 ? "flat-out" : rate + "/s") + " batch-size=" + batchSize + " batch-concurrency="
        + batchConcurrency + "\n"
        + "  lateness: pending=" + pending + " firing-rate=" + firingRate + "/s window-ms=" + windowMs
        + " lateness-warmup-ms=" + latenessWarmupMs + "\n"
        + "  burst: burst=" + burst + "\n"
        + "  heartbeat: keys=" + keys + " duration-s=" + durationS + " heartbeat-delay-ms=" + heartbeatDelayMs
        + " warm-up-ms=" + latenessWarmupMs + " (--lateness-warmup-ms)\n"
        + "  recovery: pending=" + pending + "\n"
        + "  scale: pending=" + pending + " firing-rate=" + firingRate + "/s stream duration-s=" + durationS
        + " warm-up-ms=" + latenessWarmupMs + " (--lateness-warmup-ms) fill-horizon-ms=" + fillHorizonMs + "\n"
        + "  lateness and scale streams: a batch every " + streamSlotMs + " ms (--stream-slot-ms)\n"
        + "  server flags (" + ManagedServer.SERVER_ARGS_ENV + "): " + ManagedServer.serverArgs() + "\n"
        + "  server jvm flags (" + ManagedServer.JAVA_OPTS_ENV + "): " + ManagedServer.serverJavaOpts() + "\n"
        + (System.getenv(TickwheelTarget.FIRINGS_CSV_ENV) == null ? ""
            : "  firings written to (" + TickwheelTarget.FIRINGS_CSV_ENV + "): "
                + System.getenv(TickwheelTarget.FIRINGS_CSV_ENV) + "\n")
        + "  client: jvm=" + System.getProperty("java.version") + " cores=" + Runtime.getRuntime().availableProcessors()
        + " maxHeap=" + (Runtime.getRuntime().maxMemory() >> 20) + "MiB";
  }
}
