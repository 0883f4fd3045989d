package io.tickwheel.bench.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load tool's options, parsed from {@code --name value} / {@code --name=value}. Unknown options and bad numbers
 * fail with a message naming the option and value. {@link #describe()} prints every value used, defaults included.
 *
 * <p>{@code --target} is a comma-separated list; every target runs the same scenarios with the same sizes and
 * concurrency, {@code tickwheel} once per {@code --store}. {@code --redis URI} goes to tickwheel's {@code --redis}
 * (store {@code redis}) and to the Redisson peer; {@code --jdbc-url URL} to the JDBC peers (unset: each component's
 * own default, the machine's services). {@code --csv FILE} gets every value and, with more than one target, the
 * ratio rows of {@link Comparison}; {@code --chart FILE.svg} the chart of {@link SvgChart}.
 *
 * <p>Throughput caps by time, so that one preset is fair to targets thousands of times apart: {@code --warmup-ms W}
 * ends the single-schedule warm-up after W ms even if fewer than {@code --warmup} were sent, and
 * {@code --throughput-ms T} ends each measured run (single, batch) after T ms even if fewer than {@code --timers}
 * (batch: 4 × timers) were sent; the rate is then over what was sent. 0 (the default): counts only.
 *
 * <p>{@code --lateness-warmup-ms W} (default 3000): the unmeasured warm-up of the lateness stream, and of the
 * heartbeat's touch path (touches of a separate set of keys at the heartbeat's rate).
 *
 * <p>{@code --client-loops N} (default: the client's cores, at most 2): event loops of tickwheel's HTTP client, each
 * with its own pool; they share the {@code --concurrency} connections, so tickwheel never gets more requests in flight
 * than a peer. The peers' own client threads are their libraries' (see PEERS.md).
 */
public record LoadConfig(List<String> targets, String url, String token, String serverJar, List<String> stores,
    List<String> scenarios, int timers, int warmup, long warmupMs, long throughputMs, int concurrency, int clientLoops, int rate, int batchSize, int batchConcurrency,
    int pending, int firingRate, long windowMs, long latenessWarmupMs, int burst, int keys, int durationS, int heartbeatDelayMs,
    String csv, String redis, String jdbcUrl, String chart) {

  /** Every target name {@link Targets#create} knows. */
  public static final List<String> TARGETS =
      List.of("tickwheel", "quartz-jdbc", "db-scheduler", "redisson-delayed-queue");

  /** Every scenario, in the order {@code all} runs them. */
  public static final List<String> ALL = List.of("throughput", "lateness", "burst", "heartbeat", "recovery");

  static final Map<String, String> DEFAULTS = new LinkedHashMap<>();
  static {
    DEFAULTS.put("target", "tickwheel");
    DEFAULTS.put("url", null);
    DEFAULTS.put("token", null);
    DEFAULTS.put("server-jar", null);
    DEFAULTS.put("store", "rocksdb");
    DEFAULTS.put("scenario", "throughput,lateness,burst,heartbeat");
    DEFAULTS.put("timers", "50000");
    DEFAULTS.put("warmup", "10000");
    DEFAULTS.put("warmup-ms", "0");
    DEFAULTS.put("throughput-ms", "0");
    DEFAULTS.put("concurrency", "64");
    DEFAULTS.put("client-loops", String.valueOf(defaultClientLoops()));
    DEFAULTS.put("rate", "0");
    DEFAULTS.put("batch-size", "10000");
    DEFAULTS.put("batch-concurrency", "2");
    DEFAULTS.put("pending", "100000");
    DEFAULTS.put("firing-rate", "2000");
    DEFAULTS.put("window-ms", "10000");
    DEFAULTS.put("lateness-warmup-ms", "3000");
    DEFAULTS.put("burst", "20000");
    DEFAULTS.put("keys", "10000");
    DEFAULTS.put("duration-s", "10");
    DEFAULTS.put("heartbeat-delay-ms", "3000");
    DEFAULTS.put("csv", null);
    DEFAULTS.put("redis", null);
    DEFAULTS.put("jdbc-url", null);
    DEFAULTS.put("chart", null);
  }

  /** Default of {@code --client-loops}: the client's cores, at most 2 (see {@link HttpLanes}). */
  public static int defaultClientLoops() {
    return Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
  }

  public static LoadConfig parse(String[] args) {
    Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + a + "' (options are --name value)");
      }
      String name = a.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("--" + name + " needs a value");
        }
        value = args[++i];
      }
      if (!DEFAULTS.containsKey(name)) {
        throw new IllegalArgumentException("unknown option --" + name + " (known: " + DEFAULTS.keySet() + ")");
      }
      v.put(name, value);
    }
    List<String> scenarios = new ArrayList<>();
    for (String s : v.get("scenario").split(",")) {
      if (s.equals("all")) {
        scenarios.addAll(ALL);
      } else if (ALL.contains(s)) {
        scenarios.add(s);
      } else {
        throw new IllegalArgumentException("--scenario: unknown scenario '" + s + "' (known: " + ALL + ", all)");
      }
    }
    List<String> targets = new ArrayList<>();
    for (String t : v.get("target").split(",")) {
      if (!TARGETS.contains(t)) {
        throw new IllegalArgumentException("--target: unknown target '" + t + "' (known: " + TARGETS + ")");
      }
      if (!targets.contains(t)) {
        targets.add(t);
      }
    }
    if (v.get("url") == null && v.get("server-jar") == null && targets.contains("tickwheel")) {
      throw new IllegalArgumentException("give --url http://127.0.0.1:PORT or --server-jar server/target/tickwheel.jar");
    }
    if (scenarios.contains("recovery") && v.get("server-jar") == null && targets.contains("tickwheel")) {
      throw new IllegalArgumentException("--scenario recovery needs --server-jar (it kills and restarts the server)");
    }
    if (v.get("chart") != null && !v.get("chart").endsWith(".svg")) {
      throw new IllegalArgumentException("--chart must name an .svg file, got '" + v.get("chart") + "'");
    }
    return new LoadConfig(List.copyOf(targets), v.get("url"), v.get("token"), v.get("server-jar"),
        List.of(v.get("store").split(",")), List.copyOf(scenarios), num(v, "timers", 1), num(v, "warmup", 0),
        num(v, "warmup-ms", 0), num(v, "throughput-ms", 0),
        num(v, "concurrency", 1), num(v, "client-loops", 1), num(v, "rate", 0), num(v, "batch-size", 1), num(v, "batch-concurrency", 1),
        num(v, "pending", 0), num(v, "firing-rate", 1), num(v, "window-ms", 100),
        num(v, "lateness-warmup-ms", 0), num(v, "burst", 1),
        num(v, "keys", 1), num(v, "duration-s", 1), num(v, "heartbeat-delay-ms", 100), v.get("csv"),
        v.get("redis"), v.get("jdbc-url"), v.get("chart"));
  }

  private static int num(Map<String, String> v, String name, int min) {
    String s = v.get(name);
    try {
      int n = Integer.parseInt(s.replace("_", ""));
      if (n < min) {
        throw new IllegalArgumentException("--" + name + " must be >= " + min + ", got " + s);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be an integer, got '" + s + "'");
    }
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
        + " concurrency=" + concurrency + " client-loops=" + clientLoops + " rate="
        + (rate == 0 ? "flat-out" : rate + "/s") + " batch-size=" + batchSize + " batch-concurrency="
        + batchConcurrency + "\n"
        + "  lateness: pending=" + pending + " firing-rate=" + firingRate + "/s window-ms=" + windowMs
        + " lateness-warmup-ms=" + latenessWarmupMs + "\n"
        + "  burst: burst=" + burst + "\n"
        + "  heartbeat: keys=" + keys + " duration-s=" + durationS + " heartbeat-delay-ms=" + heartbeatDelayMs
        + " warm-up-ms=" + latenessWarmupMs + " (--lateness-warmup-ms)\n"
        + "  recovery: pending=" + pending + "\n"
        + "  server jvm flags (" + ServerProcess.JAVA_OPTS_ENV + "): " + ServerProcess.serverJavaOpts() + "\n"
        + "  client: jvm=" + System.getProperty("java.version") + " cores=" + Runtime.getRuntime().availableProcessors()
        + " maxHeap=" + (Runtime.getRuntime().maxMemory() >> 20) + "MiB";
  }
}
