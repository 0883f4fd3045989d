package io.tickwheel.bench.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load tool's options, parsed from {@code --name value} / {@code --name=value}. Unknown options and bad numbers
 * fail with a message naming the option and value. {@link #describe()} prints every value used, defaults included.
 */
public record LoadConfig(String target, String url, String token, String serverJar, List<String> stores,
    List<String> scenarios, int timers, int warmup, int concurrency, int rate, int batchSize, int batchConcurrency,
    int pending, int firingRate, long windowMs, int burst, int keys, int durationS, int heartbeatDelayMs,
    String csv) {

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
    DEFAULTS.put("concurrency", "64");
    DEFAULTS.put("rate", "0");
    DEFAULTS.put("batch-size", "10000");
    DEFAULTS.put("batch-concurrency", "2");
    DEFAULTS.put("pending", "100000");
    DEFAULTS.put("firing-rate", "2000");
    DEFAULTS.put("window-ms", "10000");
    DEFAULTS.put("burst", "20000");
    DEFAULTS.put("keys", "10000");
    DEFAULTS.put("duration-s", "10");
    DEFAULTS.put("heartbeat-delay-ms", "3000");
    DEFAULTS.put("csv", null);
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
    if (v.get("url") == null && v.get("server-jar") == null && v.get("target").equals("tickwheel")) {
      throw new IllegalArgumentException("give --url http://127.0.0.1:PORT or --server-jar server/target/tickwheel.jar");
    }
    if (scenarios.contains("recovery") && v.get("server-jar") == null) {
      throw new IllegalArgumentException("--scenario recovery needs --server-jar (it kills and restarts the server)");
    }
    return new LoadConfig(v.get("target"), v.get("url"), v.get("token"), v.get("server-jar"),
        List.of(v.get("store").split(",")), List.copyOf(scenarios), num(v, "timers", 1), num(v, "warmup", 0),
        num(v, "concurrency", 1), num(v, "rate", 0), num(v, "batch-size", 1), num(v, "batch-concurrency", 1),
        num(v, "pending", 0), num(v, "firing-rate", 1), num(v, "window-ms", 100), num(v, "burst", 1),
        num(v, "keys", 1), num(v, "duration-s", 1), num(v, "heartbeat-delay-ms", 100), v.get("csv"));
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
        + "  target=" + target + (url != null ? " url=" + url : " server-jar=" + serverJar + " stores=" + stores)
        + " token=" + (token == null ? "unset" : "set") + "\n"
        + "  scenarios=" + scenarios + "\n"
        + "  throughput: timers=" + timers + " warmup=" + warmup + " concurrency=" + concurrency + " rate="
        + (rate == 0 ? "flat-out" : rate + "/s") + " batch-size=" + batchSize + " batch-concurrency="
        + batchConcurrency + "\n"
        + "  lateness: pending=" + pending + " firing-rate=" + firingRate + "/s window-ms=" + windowMs + "\n"
        + "  burst: burst=" + burst + "\n"
        + "  heartbeat: keys=" + keys + " duration-s=" + durationS + " heartbeat-delay-ms=" + heartbeatDelayMs + "\n"
        + "  recovery: pending=" + pending + "\n"
        + "  client: jvm=" + System.getProperty("java.version") + " cores=" + Runtime.getRuntime().availableProcessors()
        + " maxHeap=" + (Runtime.getRuntime().maxMemory() >> 20) + "MiB";
  }
}
