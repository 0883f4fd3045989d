package io.tickwheel.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server's configuration: command-line flags, each also read from an environment variable
 * ({@code --tick-ms} from {@code TICKWHEEL_TICK_MS}); a flag wins over its variable, which wins over the default.
 * Flags take {@code --name value} or {@code --name=value}; {@code --fsync} and {@code --help} need no value.
 *
 * <p>Immutable. {@link #toString()} never shows the token.
 *
 * @param host               interface to bind; a non-loopback host requires {@code token}
 * @param port               TCP port, 0 picks a free one
 * @param store              {@code rocksdb}, {@code redis} or {@code memory}
 * @param dataDir            RocksDB directory
 * @param redis              Redis connection string
 * @param tickMs             wheel tick, milliseconds, 1..1000
 * @param token              bearer token for /v1 and the WebSocket, or {@code null} for none
 * @param fsync              RocksDB: fsync the WAL on every write
 * @param maxPending         most pending timers; beyond, creates answer 429
 * @param misfireThresholdMs lateness beyond which a fixed-rate due time counts as missed
 * @param logRetentionCount  firing log: how many firings to keep at most
 * @param logRetentionMs     firing log: how long to keep a firing, milliseconds
 * @param allowedOrigins     browser origins allowed by CORS and the WebSocket Origin check (besides the server's own)
 * @param help               print usage and exit
 */
public record ServerConfig(
    String host,
    int port,
    String store,
    Path dataDir,
    String redis,
    long tickMs,
    String token,
    boolean fsync,
    long maxPending,
    long misfireThresholdMs,
    long logRetentionCount,
    long logRetentionMs,
    List<String> allowedOrigins,
    boolean help) {

  /** One flag: its name, the variable that also sets it, whether it takes a value, its default and help. */
  private record Flag(String name, String env, boolean takesValue, String dflt, String help) {}

  private static final List<Flag> FLAGS = List.of(
      new Flag("host", "TICKWHEEL_HOST", true, "127.0.0.1", "interface to bind; non-loopback requires --token"),
      new Flag("port", "TICKWHEEL_PORT", true, "8080", "TCP port; 0 picks a free one"),
      new Flag("store", "TICKWHEEL_STORE", true, "rocksdb", "rocksdb | redis | memory"),
      new Flag("data-dir", "TICKWHEEL_DATA_DIR", true, "./data", "RocksDB data directory"),
      new Flag("redis", "TICKWHEEL_REDIS", true, "redis://127.0.0.1:6379", "Redis connection string"),
      new Flag("tick-ms", "TICKWHEEL_TICK_MS", true, "10", "wheel tick in ms (1..1000)"),
      new Flag("token", "TICKWHEEL_TOKEN", true, null, "bearer token required on /v1 and the WebSocket"),
      new Flag("fsync", "TICKWHEEL_FSYNC", false, "false", "RocksDB: fsync the WAL on every write"),
      new Flag("max-pending", "TICKWHEEL_MAX_PENDING", true, "10000000", "most pending timers (then 429)"),
      new Flag("misfire-threshold-ms", "TICKWHEEL_MISFIRE_THRESHOLD_MS", true, "1000",
          "lateness beyond which a fixed-rate due time counts as missed"),
      new Flag("log-retention-count", "TICKWHEEL_LOG_RETENTION_COUNT", true, "1000000",
          "firing log: newest firings kept at most"),
      new Flag("log-retention-ms", "TICKWHEEL_LOG_RETENTION_MS", true, "86400000",
          "firing log: how long a firing is kept, ms"),
      new Flag("allowed-origins", "TICKWHEEL_ALLOWED_ORIGINS", true, "",
          "comma-separated browser origins allowed (CORS, WebSocket)"),
      new Flag("help", null, false, "false", "print this help and exit"));

  /** The configuration with every default. */
  public static ServerConfig defaults() {
    return parse(new String[0], Map.of());
  }

  /**
   * Parses flags over environment variables over defaults.
   *
   * @throws ConfigException naming the flag (or variable) and the bad value
   */
  public static ServerConfig parse(String[] args, Map<String, String> env) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    for (Flag f : FLAGS) {
      values.put(f.name, f.dflt);
      if (f.env != null && env.get(f.env) != null) {
        values.put(f.name, env.get(f.env));
        sources.put(f.name, "environment variable " + f.env);
      }
    }
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new ConfigException("unexpected argument '" + a + "' (flags start with --; see --help)");
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      Flag flag = find(name);
      if (flag == null) {
        throw new ConfigException("unknown flag --" + name + " (see --help)");
      }
      if (flag.takesValue && value == null) {
        if (i + 1 >= args.length) {
          throw new ConfigException("flag --" + name + " needs a value");
        }
        value = args[++i];
      } else if (!flag.takesValue && value == null) {
        value = "true";
      }
      values.put(name, value);
      sources.put(name, "flag --" + name);
    }
    return build(values, sources);
  }

  private static ServerConfig build(Map<String, String> v, Map<String, String> src) {
    String host = v.get("host").trim();
    if (host.isEmpty()) {
      throw new ConfigException(src(src, "host") + " must not be empty");
    }
    int port = (int) number(v, src, "port", 0, 65535);
    String store = v.get("store").trim().toLowerCase(Locale.ROOT);
    if (!List.of("rocksdb", "redis", "memory").contains(store)) {
      throw new ConfigException(src(src, "store") + " must be rocksdb, redis or memory, was '" + v.get("store") + "'");
    }
    String dataDir = v.get("data-dir");
    if (dataDir.isBlank()) {
      throw new ConfigException(src(src, "data-dir") + " must not be empty");
    }
    String redis = v.get("redis").trim();
    if (!redis.startsWith("redis://") && !redis.startsWith("rediss://") && !redis.startsWith("unix://")) {
      throw new ConfigException(src(src, "redis") + " must be a redis:// or rediss:// URL, was '" + redis + "'");
    }
    long tick = number(v, src, "tick-ms", 1, 1000);
    String token = v.get("token");
    if (token != null && token.isEmpty()) {
      token = null;
    }
    if (token != null && (token.length() > 4096 || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
      throw new ConfigException(src(src, "token") + " must be 1..4096 printable ASCII characters without spaces");
    }
    boolean fsync = bool(v, src, "fsync");
    long maxPending = number(v, src, "max-pending", 1, Integer.MAX_VALUE);
    long misfire = number(v, src, "misfire-threshold-ms", 0, Long.MAX_VALUE / 4);
    long retCount = number(v, src, "log-retention-count", 1, Long.MAX_VALUE);
    long retMs = number(v, src, "log-retention-ms", 0, Long.MAX_VALUE / 4);
    List<String> origins = new ArrayList<>();
    for (String o : v.get("allowed-origins").split(",")) {
      String t = o.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (!t.equals("*") && !t.matches("https?://[^/\\s]+")) {
        throw new ConfigException(src(src, "allowed-origins") + " must list origins like http://host:port, was '" + t + "'");
      }
      origins.add(t);
    }
    boolean help = bool(v, src, "help");
    ServerConfig c = new ServerConfig(host, port, store, Path.of(dataDir), redis, tick, token, fsync, maxPending,
        misfire, retCount, retMs, List.copyOf(origins), help);
    if (!help && token == null && !isLoopback(host)) {
      throw new ConfigException("refusing to listen on non-loopback host '" + host
          + "' without a token: set --token (or TICKWHEEL_TOKEN), or bind 127.0.0.1");
    }
    return c;
  }

  /** Whether {@code host} names only loopback addresses (resolving a name once, at startup). */
  static boolean isLoopback(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    try {
      InetAddress[] all = InetAddress.getAllByName(h);
      for (InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      throw new ConfigException("host '" + host + "' cannot be resolved");
    }
  }

  private static Flag find(String name) {
    for (Flag f : FLAGS) {
      if (f.name.equals(name)) {
        return f;
      }
    }
    return null;
  }

  private static String src(Map<String, String> src, String name) {
    return src.getOrDefault(name, "default of --" + name);
  }

  private static long number(Map<String, String> v, Map<String, String> src, String name, long min, long max) {
    String s = v.get(name).trim().replace("_", "");
    long n;
    try {
      n = Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new ConfigException(src(src, name) + " must be an integer, was '" + v.get(name) + "'");
    }
    if (n < min || n > max) {
      throw new ConfigException(src(src, name) + " must be between " + min + " and " + max + ", was " + n);
    }
    return n;
  }

  private static boolean bool(Map<String, String> v, Map<String, String> src, String name) {
    String s = v.get(name).trim().toLowerCase(Locale.ROOT);
    switch (s) {
      case "true", "1", "yes", "on" -> {
        return true;
      }
      case "false", "0", "no", "off", "" -> {
        return false;
      }
      default -> throw new ConfigException(src(src, name) + " must be true or false, was '" + v.get(name) + "'");
    }
  }

  /** The {@code --help} text. */
  public static String usage() {
    StringBuilder sb = new StringBuilder("usage: java -jar tickwheel.jar [flags]\n\nflags (each also from its environment variable; a flag wins):\n");
    for (Flag f : FLAGS) {
      String left = "  --" + f.name + (f.takesValue ? " VALUE" : "");
      sb.append(String.format("%-34s %s", left, f.help));
      if (f.dflt != null && f.takesValue && !f.dflt.isEmpty()) {
        sb.append(" (default ").append(f.dflt).append(')');
      }
      if (f.env != null) {
        sb.append(" [").append(f.env).append(']');
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** The base URL clients use: {@code http://HOST:PORT} (IPv6 literals in brackets). */
  public String url(int actualPort) {
    String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return "http://" + h + ":" + actualPort;
  }

  /** This configuration on another port (tests use 0). */
  public ServerConfig withPort(int p) {
    return new ServerConfig(host, p, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, help);
  }

  /** This configuration with another store kind. */
  public ServerConfig withStore(String s) {
    return new ServerConfig(host, port, s, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, help);
  }

  /** This configuration with another token ({@code null} for none). */
  public ServerConfig withToken(String t) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, t, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, help);
  }

  /** This configuration with another pending-timer cap. */
  public ServerConfig withMaxPending(long m) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, m, misfireThresholdMs,
        logRetentionCount, logRetentionMs, allowedOrigins, help);
  }

  /** This configuration with other allowed origins. */
  public ServerConfig withAllowedOrigins(List<String> o) {
    return new ServerConfig(host, port, store, dataDir, redis, tickMs, token, fsync, maxPending, misfireThresholdMs,
        logRetentionCount, logRetentionMs, List.copyOf(o), help);
  }

  @Override
  public String toString() {
    return "ServerConfig[host=" + host + ", port=" + port + ", store=" + store + ", dataDir=" + dataDir
        + ", redis=" + redactUrl(redis) + ", tickMs=" + tickMs + ", token=" + (token == null ? "none" : "set")
        + ", fsync=" + fsync + ", maxPending=" + maxPending + ", misfireThresholdMs=" + misfireThresholdMs
        + ", logRetentionCount=" + logRetentionCount + ", logRetentionMs=" + logRetentionMs
        + ", allowedOrigins=" + allowedOrigins + "]";
  }

  /** A Redis URL without its password. */
  static String redactUrl(String url) {
    return url.replaceAll("//[^@/]*@", "//***@");
  }
}
