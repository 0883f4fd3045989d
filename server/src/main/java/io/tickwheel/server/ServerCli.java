package io.tickwheel.server;

import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.cluster.ClusterOptions;
import io.tickwheel.server.security.TlsMaterial;
import io.tickwheel.server.security.TlsOptions;
import io.tickwheel.server.security.TokenTable;
import io.tickwheel.server.security.Tokens;
import io.tickwheel.store.redis.RedisStoreOptions;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

/**
 * The server's command line, parsed with picocli into a {@link ServerConfig}. Every flag {@code --name} also reads
 * the environment variable {@code TICKWHEEL_NAME} ({@code --tick-ms} from {@code TICKWHEEL_TICK_MS}); a flag wins
 * over its variable, which wins over the default. Flags take {@code --name value} or {@code --name=value};
 * {@code --fsync} needs no value ({@code --fsync=false} turns it off). Integers may use {@code _} as a separator;
 * booleans read {@code true|false|1|0|yes|no|on|off}. A flag given twice: the last wins.
 *
 * <p>The defaults are {@link ServerConfig}'s and core's constants, never repeated here as literals.
 *
 * <p>A bad value is a {@link ConfigException} whose message names where the value came from ({@code flag --port},
 * {@code environment variable TICKWHEEL_PORT} or {@code default of --port}) and the value. Not thread safe: one
 * instance per parse (the static methods make their own).
 */
@Command(name = "java -jar tickwheel.jar", customSynopsis = "java -jar tickwheel.jar [flags]",
    sortOptions = false, usageHelpWidth = 110,
    description = "tickwheel: a durable timer server.", versionProvider = ServerCli.VersionProvider.class)
public final class ServerCli {

  /** Every flag's variable is this prefix plus the flag's name in upper case, '-' as '_'. */
  public static final String ENV_PREFIX = "TICKWHEEL_";

  /** What a command line asks for. */
  public sealed interface Request permits Run, Help, Version {}

  /** Run the server with this configuration. */
  public record Run(ServerConfig config) implements Request {}

  /** Print this usage text and exit 0. */
  public record Help(String text) implements Request {}

  /** Print this version text and exit 0. */
  public record Version(String text) implements Request {}

  // Each field is named after the ServerConfig component it sets: a ConfigException's field() finds its flag.
  @Option(names = "--host", paramLabel = "HOST", defaultValue = ServerConfig.DEFAULT_HOST,
      description = "interface to bind; non-loopback requires --token (default ${DEFAULT-VALUE})")
  private String host;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + ServerConfig.DEFAULT_PORT,
      description = "TCP port; 0 picks a free one (default ${DEFAULT-VALUE})")
  private int port;

  @Option(names = "--store", paramLabel = "KIND", defaultValue = ServerConfig.DEFAULT_STORE,
      description = "rocksdb | redis | memory (default ${DEFAULT-VALUE})")
  private String store;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = ServerConfig.DEFAULT_DATA_DIR,
      description = "RocksDB data directory (default ${DEFAULT-VALUE})")
  private String dataDir;

  @Option(names = "--redis", paramLabel = "URL", defaultValue = RedisStoreOptions.DEFAULT_CONNECTION_STRING,
      description = "Redis URL (default ${DEFAULT-VALUE}); two or more comma-separated URLs are the seed nodes of a"
          + " Redis Cluster")
  private String redis;

  @Option(names = "--redis-min-replicas-acked", paramLabel = "N",
      defaultValue = "" + RedisStoreOptions.DEFAULT_MIN_REPLICAS_ACKED,
      description = "Redis: a write succeeds only once N replicas acknowledged it (WAIT); 0 = off (default "
          + "${DEFAULT-VALUE}); needs --store redis")
  private int redisMinReplicasAcked;

  @Option(names = "--redis-replica-ack-timeout-ms", paramLabel = "MS",
      defaultValue = "" + RedisStoreOptions.DEFAULT_REPLICA_ACK_TIMEOUT_MS,
      description = "Redis: how long a write waits for its replicas, 1.." + (RedisStoreOptions.DEFAULT_COMMAND_TIMEOUT_MS
          - 1) + " ms; then it fails with 503 (applied on the master) (default ${DEFAULT-VALUE})")
  private long redisReplicaAckTimeoutMs;

  @Option(names = "--tick-ms", paramLabel = "MS", defaultValue = "" + TimerWheel.DEFAULT_TICK_MS,
      description = "wheel tick in ms, 1.." + ServerConfig.MAX_TICK_MS + " (default ${DEFAULT-VALUE})")
  private long tickMs;

  @Option(names = "--token", paramLabel = "SECRET",
      description = "bearer token required on /v1 and the WebSocket (default none)")
  private String token;

  @Option(names = "--fsync", arity = "0..1", fallbackValue = "true", defaultValue = "false", paramLabel = "BOOL",
      description = "RocksDB: fsync the WAL on every write")
  private boolean fsync;

  @Option(names = "--max-pending", paramLabel = "N", defaultValue = "" + Limits.DEFAULT_MAX_PENDING,
      description = "most pending timers, both tiers, then 429 (default ${DEFAULT-VALUE} with a window; "
          + Limits.DEFAULT_MAX_PENDING_IN_MEMORY + " while every pending timer is in memory: --store memory or "
          + "--window-ms 0)")
  private long maxPending;

  @Option(names = "--window-ms", paramLabel = "MS", defaultValue = "" + ServerConfig.DEFAULT_WINDOW_MS,
      description = "RocksDB and Redis: keep in memory only the timers due within this many ms, the rest in the "
          + "store until their time comes; a restart reads only the window; 0 = every timer in memory; else "
          + ServerConfig.MIN_WINDOW_MS + ".." + ServerConfig.MAX_WINDOW_MS + " (default ${DEFAULT-VALUE}, 10 min)")
  private long windowMs;

  @Option(names = "--misfire-threshold-ms", paramLabel = "MS",
      defaultValue = "" + Schedule.DEFAULT_MISFIRE_THRESHOLD_MS,
      description = "lateness beyond which a fixed-rate due time counts as missed (default ${DEFAULT-VALUE})")
  private long misfireThresholdMs;

  @Option(names = "--log-retention-count", paramLabel = "N", defaultValue = "" + Retention.DEFAULT_MAX_COUNT,
      description = "firing log: newest firings kept at most (default ${DEFAULT-VALUE})")
  private long logRetentionCount;

  @Option(names = "--log-retention-ms", paramLabel = "MS", defaultValue = "" + Retention.DEFAULT_MAX_AGE_MS,
      description = "firing log: how long a firing is kept, ms (default ${DEFAULT-VALUE})")
  private long logRetentionMs;

  @Option(names = "--allowed-origins", paramLabel = "ORIGINS", defaultValue = "",
      description = "comma-separated browser origins allowed (CORS, WebSocket), e.g. http://host:port or *")
  private String allowedOrigins;

  @Option(names = "--webhook-secret", paramLabel = "whsec_KEY",
      description = "key callbacks are signed with: whsec_ + base64 of 24..64 bytes (default: generated at first "
          + "start and kept in the store)")
  private String webhookSecret;

  @Option(names = "--webhook-allow-private", arity = "0..1", fallbackValue = "true", defaultValue = "false",
      paramLabel = "BOOL", description = "callbacks may reach loopback, private, link-local and other local addresses")
  private boolean webhookAllowPrivate;

  @Option(names = "--webhook-allow-cidr", paramLabel = "CIDR", split = ",",
      description = "address block callbacks may reach although private (e.g. 10.1.0.0/16); repeatable or a comma "
          + "list")
  private List<String> webhookAllowCidr = new ArrayList<>();

  @Option(names = "--cluster", arity = "0..1", fallbackValue = "true", defaultValue = "false", paramLabel = "BOOL",
      description = "join a cluster of equal nodes sharing the Redis of --redis (needs --store redis)")
  private boolean cluster;

  @Option(names = "--node-id", paramLabel = "ID",
      description = "cluster: this node's id (default HOSTNAME-PORT, stable across restarts on the same port)")
  private String nodeId;

  @Option(names = "--advertise", paramLabel = "URL",
      description = "cluster: base URL the other nodes route to (default this server's URL; required with a "
          + "wildcard --host)")
  private String advertise;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + Partitions.DEFAULT,
      description = "cluster: partitions, 1.." + Partitions.MAX + ", fixed by the first node (default ${DEFAULT-VALUE})")
  private int partitions;

  @Option(names = "--lease-ms", paramLabel = "MS", defaultValue = "" + ClusterOptions.DEFAULT_LEASE_MS,
      description = "cluster: partition lease in ms, " + ClusterOptions.MIN_LEASE_MS + ".." + ClusterOptions.MAX_LEASE_MS
          + "; a dead node's partitions are taken over when its lease ends, within about this (default ${DEFAULT-VALUE})")
  private long leaseMs;

  @Option(names = "--max-connections", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_MAX_CONNECTIONS,
      description = "most open HTTP connections, streams included, 1.." + ServerConfig.MAX_MAX_CONNECTIONS
          + "; a request on one beyond gets 503 and the connection is closed (default ${DEFAULT-VALUE})")
  private int maxConnections;

  @Option(names = "--idle-timeout-ms", paramLabel = "MS", defaultValue = "" + ServerConfig.DEFAULT_IDLE_TIMEOUT_MS,
      description = "close a connection idle (nothing read or written) this long, " + ServerConfig.MIN_IDLE_TIMEOUT_MS
          + ".." + ServerConfig.MAX_TIMEOUT_MS + "; streams get heartbeats within it (default ${DEFAULT-VALUE})")
  private long idleTimeoutMs;

  @Option(names = "--header-timeout-ms", paramLabel = "MS",
      defaultValue = "" + ServerConfig.DEFAULT_HEADER_TIMEOUT_MS,
      description = "a request's headers must arrive within this of its first byte, " + ServerConfig.MIN_TIMEOUT_MS
          + ".." + ServerConfig.MAX_TIMEOUT_MS + ", else 408 and close (default ${DEFAULT-VALUE})")
  private long headerTimeoutMs;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "serve HTTPS/WSS with this certificate chain (PEM; needs --tls-key); re-read when it changes")
  private String tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "the private key of --tls-cert (PEM, PKCS#8 or PKCS#1); re-read when it changes")
  private String tlsKey;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "CA certificates (PEM) the https:// addresses of other cluster nodes and a rediss:// Redis are "
          + "verified against (default: the JVM's trust store)")
  private String tlsCa;

  @Option(names = "--tokens-file", paramLabel = "FILE",
      description = "tokens with roles, one 'ROLE SECRET' a line (read, write, admin; # comments); re-read when it "
          + "changes")
  private String tokensFile;

  @Option(names = "--help", usageHelp = true, description = "print this help and exit")
  private boolean help;

  @Option(names = "--version", versionHelp = true, description = "print the version and exit")
  private boolean version;

  private ServerCli() {}

  /**
   * Parses flags over environment variables over defaults.
   *
   * @param env the environment ({@code System.getenv()} in Main)
   * @throws ConfigException naming the flag (or variable) and the bad value
   */
  public static Request parse(String[] args, Map<String, String> env) {
    ServerCli flags = new ServerCli();
    Set<ArgSpec> fromEnv = new HashSet<>();
    CommandLine cl = commandLine(flags);
    cl.setDefaultValueProvider(arg -> {
      String var = arg instanceof OptionSpec o ? envName(o) : null;
      String v = var == null ? null : env.get(var);
      if (v != null) {
        fromEnv.add(arg);
      }
      return v;
    });
    ParseResult parsed;
    try {
      parsed = cl.parseArgs(args);
    } catch (ParameterException e) {
      throw translate(e, fromEnv);
    }
    if (cl.isUsageHelpRequested()) {
      return new Help(usage());
    }
    if (cl.isVersionHelpRequested()) {
      return new Version(version());
    }
    return new Run(flags.build(cl, parsed, fromEnv));
  }

  /**
   * The configuration {@code args} and {@code env} ask to run with, for callers that never ask for help.
   *
   * @throws ConfigException as {@link #parse}, and when {@code args} ask for {@code --help} or {@code --version}
   */
  public static ServerConfig config(String[] args, Map<String, String> env) {
    Request r = parse(args, env);
    if (r instanceof Run run) {
      return run.config();
    }
    throw new ConfigException("--help and --version print text instead of configuring a server");
  }

  /** The {@code --help} text: every flag with its default, then every flag's environment variable. */
  public static String usage() {
    CommandLine cl = commandLine(new ServerCli());
    List<String> keys = new ArrayList<>(cl.getHelpSectionKeys());
    keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), "environment");
    cl.setHelpSectionKeys(keys);
    cl.getHelpSectionMap().put("environment", help -> {
      StringBuilder sb = new StringBuilder("%nEach flag also reads an environment variable; a flag wins over its "
          + "variable, which wins over the default:%n");
      for (OptionSpec o : help.commandSpec().options()) {
        String var = envName(o);
        if (var != null) {
          sb.append(String.format("  %-34s %s%n", var, o.longestName()));
        }
      }
      return String.format(sb.toString());
    });
    return cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  /** The {@code --version} text: {@code tickwheel VERSION}, the version from the jar's manifest. */
  public static String version() {
    String v = ServerCli.class.getPackage().getImplementationVersion();
    return "tickwheel " + (v != null ? v : "(development build: no jar manifest)") + System.lineSeparator();
  }

  /** Picocli's hook for {@code --version}. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {version().strip()};
    }
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

  private static CommandLine commandLine(ServerCli flags) {
    CommandLine cl = new CommandLine(flags);
    cl.setExpandAtFiles(false);
    cl.setOverwrittenOptionsAllowed(true);
    cl.setTrimQuotes(false);
    cl.registerConverter(Integer.TYPE, s -> (int) integer(s, Integer.MIN_VALUE, Integer.MAX_VALUE));
    cl.registerConverter(Long.TYPE, s -> integer(s, Long.MIN_VALUE, Long.MAX_VALUE));
    cl.registerConverter(Boolean.TYPE, ServerCli::bool);
    return cl;
  }

  /** {@code TICKWHEEL_TICK_MS} for {@code --tick-ms}; {@code null} for {@code --help} and {@code --version}. */
  static String envName(OptionSpec o) {
    if (o.usageHelp() || o.versionHelp()) {
      return null;
    }
    return ENV_PREFIX + o.longestName().substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
  }

  private ServerConfig build(CommandLine cl, ParseResult parsed, Set<ArgSpec> fromEnv) {
    String t = token == null || token.isEmpty() ? null : token;
    List<String> origins = new ArrayList<>();
    for (String o : allowedOrigins.split(",")) {
      if (!o.isBlank()) {
        origins.add(o.trim());
      }
    }
    ServerConfig c;
    try {
      Path dir;
      try {
        dir = Path.of(dataDir);
      } catch (InvalidPathException e) {
        throw ConfigException.field("dataDir", "is not a path, was '" + dataDir + "'");
      }
      WebhookOptions webhooks = WebhookOptions.parse(webhookSecret, webhookAllowPrivate, webhookAllowCidr);
      ClusterOptions co = new ClusterOptions(cluster, blankToNull(nodeId), blankToNull(advertise), partitions, leaseMs);
      TlsOptions tls = tls(cl, parsed, fromEnv);
      Path tokens = path("tokensFile", tokensFile);
      if (tokens != null) {
        Tokens loaded;
        try {
          loaded = Tokens.load(t, tokens);
        } catch (TokenTable.Invalid e) {
          throw ConfigException.field("tokensFile", "'" + tokens + "' " + e.getMessage());
        }
        if (cluster && loaded.internalToken() == null) {
          throw ConfigException.field("tokensFile", "'" + tokens + "' has no admin token, which cluster nodes call "
              + "each other with: add an 'admin SECRET' line (the same on every node) or give --token");
        }
      }
      String storeKind = store.trim().toLowerCase(Locale.ROOT);
      long max = maxPending;
      OptionSpec maxFlag = cl.getCommandSpec().findOption("--max-pending");
      boolean maxGiven = (parsed != null && parsed.hasMatchedOption(maxFlag)) || fromEnv.contains(maxFlag);
      if (!maxGiven && (storeKind.equals("memory") || windowMs == 0)) {
        max = ServerConfig.DEFAULT_MAX_PENDING_IN_MEMORY;      // every pending timer in memory: the heap's cap
      }
      c = new ServerConfig(host.trim(), port, storeKind, dir, redis.trim(), tickMs, t,
          fsync, max, misfireThresholdMs, logRetentionCount, logRetentionMs, origins, webhooks, co,
          redisMinReplicasAcked, redisReplicaAckTimeoutMs, maxConnections, idleTimeoutMs, headerTimeoutMs, tls,
          tokens, windowMs);
    } catch (ConfigException e) {
      OptionSpec o = e.field() == null ? null : optionOf(cl, e.field());
      throw o == null ? e : new ConfigException(source(o, parsed, fromEnv) + " " + e.problem());
    }
    if (!c.tokensRequired() && !isLoopback(c.host())) {
      throw new ConfigException("refusing to listen on non-loopback host '" + c.host()
          + "' without a token: set --token (or " + ENV_PREFIX + "TOKEN) or --tokens-file, or bind 127.0.0.1");
    }
    return c;
  }

  /**
   * The TLS flags, their files read and checked: both of {@code --tls-cert} and {@code --tls-key} or neither, each
   * readable PEM, the certificate valid now and the key its own; {@code --tls-ca} readable PEM certificates.
   */
  private TlsOptions tls(CommandLine cl, ParseResult parsed, Set<ArgSpec> fromEnv) {
    Path cert = path("tlsCert", tlsCert);
    Path key = path("tlsKey", tlsKey);
    Path ca = path("tlsCa", tlsCa);
    if ((cert == null) != (key == null)) {
      OptionSpec given = optionOf(cl, cert != null ? "tlsCert" : "tlsKey");
      throw new ConfigException((cert == null ? "--tls-cert" : "--tls-key") + " is missing: "
          + source(given, parsed, fromEnv) + " '" + (cert != null ? cert : key) + "' needs "
          + (cert == null ? "its certificate (PEM) in --tls-cert" : "its private key (PEM) in --tls-key")
          + " (give both or neither)");
    }
    if (cert != null) {
      try {
        TlsMaterial.load(cert, key, java.time.Instant.now());
      } catch (TlsMaterial.Invalid e) {
        boolean isCert = e.flag.equals("--tls-cert");
        throw ConfigException.field(isCert ? "tlsCert" : "tlsKey", "'" + (isCert ? cert : key) + "' " + e.problem);
      }
    }
    if (ca != null) {
      try {
        TlsMaterial.trust(ca);
      } catch (TlsMaterial.Invalid e) {
        throw ConfigException.field("tlsCa", "'" + ca + "' " + e.problem);
      }
    }
    return new TlsOptions(cert, key, ca);
  }

  private static Path path(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Path.of(value.trim());
    } catch (InvalidPathException e) {
      throw ConfigException.field(field, "is not a path, was '" + value + "'");
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** The flag whose field is the {@link ServerConfig} component {@code field}. */
  private static OptionSpec optionOf(CommandLine cl, String field) {
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.userObject() instanceof Field f && f.getName().equals(field)) {
        return o;
      }
    }
    return null;
  }

  private static String source(OptionSpec o, ParseResult parsed, Set<ArgSpec> fromEnv) {
    if (parsed != null && parsed.hasMatchedOption(o)) {
      return "flag " + o.longestName();
    }
    if (fromEnv.contains(o)) {
      return "environment variable " + envName(o);
    }
    return "default of " + o.longestName();
  }

  /** Picocli's exceptions as messages in the house style (naming the flag or variable and the value). */
  private static ConfigException translate(ParameterException e, Set<ArgSpec> fromEnv) {
    if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String a = u.getUnmatched().get(0);
      if (a.startsWith("-")) {
        int eq = a.indexOf('=');
        return new ConfigException("unknown flag " + (eq < 0 ? a : a.substring(0, eq)) + " (see --help)");
      }
      return new ConfigException("unexpected argument '" + a + "' (flags start with --; see --help)");
    }
    if (e instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()
        && m.getMissing().get(0) instanceof OptionSpec o) {
      return new ConfigException("flag " + o.longestName() + " needs a value");
    }
    if (e.getArgSpec() instanceof OptionSpec o && e.getCause() instanceof TypeConversionException t) {
      // Picocli asks the default provider only for options not given as flags.
      String from = fromEnv.contains(o) ? "environment variable " + envName(o) : "flag " + o.longestName();
      return new ConfigException(from + " " + t.getMessage() + ", was '" + e.getValue() + "'");
    }
    return new ConfigException(e.getMessage());
  }

  private static long integer(String s, long min, long max) {
    long n;
    try {
      n = Long.parseLong(s.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new TypeConversionException("must be an integer");
    }
    if (n < min || n > max) {
      throw new TypeConversionException("must be between " + min + " and " + max);
    }
    return n;
  }

  private static boolean bool(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes", "on" -> true;
      case "false", "0", "no", "off", "" -> false;
      default -> throw new TypeConversionException("must be true or false");
    };
  }
}
