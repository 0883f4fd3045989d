package io.tickwheel.bench.load;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Creates a {@link TimerTarget} by name (a switch, no reflection). Options (all strings): {@code url}, {@code token},
 * {@code server-jar}, {@code store}, {@code tickwheelMode} ({@code http} or {@code client}), {@code endpoints} (the Java client's, comma-separated:
 * every node of a cluster; client mode with {@code url}), {@code concurrency}, {@code clientLoops} (tickwheel's HTTP client event loops,
 * sharing {@code concurrency} connections), {@code redis} (tickwheel's {@code --redis} and the Redisson
 * peer's Redis), {@code jdbcUrl} (the JDBC peers); each target reads the keys it knows and ignores the others.
 * Peers add their case here in one small commit.
 */
public final class Targets {
  private Targets() {}

  /**
   * {@code tickwheel}: with option {@code url}, the running server there; otherwise option {@code server-jar} is
   * started as a child process with {@code --store} = option {@code store} (default rocksdb) on a temp directory;
   * with store {@code redis} also {@code --redis} = option {@code redis} (default {@code redis://127.0.0.1:6379}),
   * whose tickwheel keys the {@link ManagedServer} then owns (see there).
   * @throws IllegalArgumentException for an unknown name or missing option, naming it
   */
  public static TimerTarget create(String name, Map<String, String> options) throws Exception {
    switch (name) {
      case "tickwheel": {
        int conns = Integer.parseInt(options.getOrDefault("concurrency", "64"));
        int loops = Integer.parseInt(options.getOrDefault("clientLoops", String.valueOf(LoadConfig.defaultClientLoops())));
        String token = options.get("token");
        String url = options.get("url");
        boolean viaClient = "client".equals(options.getOrDefault("tickwheelMode", "http"));
        String prefix = viaClient ? "tickwheel-client" : "tickwheel";
        if (url != null) {
          String endpoints = options.get("endpoints");
          return new TickwheelTarget(prefix + "@" + url, url.replaceAll("/+$", ""), token, null, conns, loops,
              viaClient).keepTimers(Boolean.parseBoolean(options.get("keepTimers")))
              .clientEndpoints(endpoints == null ? List.of() : List.of(endpoints.split(",")));
        }
        String jar = options.get("server-jar");
        if (jar == null) {
          throw new IllegalArgumentException("target tickwheel needs --url or --server-jar");
        }
        String store = options.getOrDefault("store", "rocksdb");
        ManagedServer server;
        if (store.equals("redis")) {
          String redis = options.getOrDefault("redis", "redis://127.0.0.1:6379");
          server = new ManagedServer(Path.of(jar), store, token, List.of("--redis", redis), new RedisKeys(redis));
        } else {
          server = new ManagedServer(Path.of(jar), store, token, List.of());
        }
        return new TickwheelTarget(prefix + "-" + store, null, token, server, conns, loops, viaClient);
      }
      case io.tickwheel.bench.load.peer.QuartzJdbcTarget.NAME:
        return new io.tickwheel.bench.load.peer.QuartzJdbcTarget(options);
      case io.tickwheel.bench.load.peer.DbSchedulerTarget.NAME:
        return new io.tickwheel.bench.load.peer.DbSchedulerTarget(options);
      case io.tickwheel.bench.load.peer.RedissonDelayedQueueTarget.NAME:
        return new io.tickwheel.bench.load.peer.RedissonDelayedQueueTarget(options);
      default:
        throw new IllegalArgumentException("--target: unknown target '" + name
            + "' (known: tickwheel, quartz-jdbc, db-scheduler, redisson-delayed-queue)");
    }
  }
}
