package io.tickwheel.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster on loopback for tests: {@code masters} masters with {@code replicasPerMaster} replicas each,
 * every node a {@link RedisServerProcess} ({@code --cluster-enabled yes}, node timeout
 * {@value #NODE_TIMEOUT_MS} ms, no persistence) on free ports, formed with {@code redis-cli --cluster create …
 * --cluster-replicas N --cluster-yes}. It can find the master of a key, {@code kill -9} a master and wait until one
 * of its replicas took over its slots (a failover). Not thread safe; blocking: test threads only.
 */
public final class RedisClusterProcess implements AutoCloseable {

  /** {@code cluster-node-timeout}: a master unreachable this long is failed over. */
  public static final int NODE_TIMEOUT_MS = 1000;

  private final List<RedisServerProcess> nodes = new ArrayList<>();

  private RedisClusterProcess() {}

  /** Starts and forms a cluster; fails (having stopped what it started) if it is not {@code cluster_state:ok}. */
  public static RedisClusterProcess start(int masters, int replicasPerMaster) {
    RedisClusterProcess c = new RedisClusterProcess();
    try {
      int total = masters * (1 + replicasPerMaster);
      for (int i = 0; i < total; i++) {
        c.nodes.add(RedisServerProcess.startWith(RedisServerProcess.freePort(true), null, List.of("--save", "",
            "--appendonly", "no", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MS), "--cluster-replica-validity-factor", "0")));
      }
      List<String> cmd = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
      for (RedisServerProcess n : c.nodes) {
        cmd.add("127.0.0.1:" + n.port());
      }
      cmd.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("redis-cli --cluster create failed: " + out);
      }
      c.awaitOk(30_000);
      long deadline = System.currentTimeMillis() + 30_000;
      for (RedisServerProcess n : c.nodes) {
        String info = n.command("INFO", "replication");
        while (info.contains("role:slave") && !info.contains("master_link_status:up")) {
          if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException("replica " + n.port() + " not in sync: " + info);
          }
          RedisServerProcess.sleep(50);
          info = n.command("INFO", "replication");
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

  /** Every node, masters and replicas, as started (some may be stopped now). */
  public List<RedisServerProcess> nodes() {
    return nodes;
  }

  /** The URIs of every node (a client needs only some to find the rest). */
  public List<String> uris() {
    return nodes.stream().map(RedisServerProcess::uri).toList();
  }

  /** Waits until every running node reports {@code cluster_state:ok}. */
  public void awaitOk(long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    for (RedisServerProcess n : nodes) {
      if (!n.isRunning()) {
        continue;
      }
      while (!n.command("CLUSTER", "INFO").contains("cluster_state:ok")) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("cluster not ok on " + n.port() + ": " + n.command("CLUSTER", "INFO"));
        }
        RedisServerProcess.sleep(50);
      }
    }
  }

  /** The running node that is the master of {@code key}'s slot, as a running node's {@code CLUSTER NODES} says. */
  public RedisServerProcess masterOf(String key) {
    RedisServerProcess any = anyRunning();
    int slot = Integer.parseInt(any.command("CLUSTER", "KEYSLOT", key).substring(1));
    for (String line : any.command("CLUSTER", "NODES").split("\n")) {
      String[] f = line.trim().split(" ");
      if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
        continue;
      }
      for (int i = 8; i < f.length; i++) {
        String range = f[i];
        if (range.startsWith("[")) {
          continue;
        }
        int dash = range.indexOf('-');
        int lo = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
        int hi = dash < 0 ? lo : Integer.parseInt(range.substring(dash + 1));
        if (slot >= lo && slot <= hi) {
          int port = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
          return nodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
        }
      }
    }
    throw new IllegalStateException("no master serves slot " + slot);
  }

  /** Waits until every replica of {@code master} has received everything the master has written. */
  public void awaitReplicated(RedisServerProcess master, long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      String info = master.command("INFO", "replication");
      long offset = field(info, "master_repl_offset");
      boolean all = true;
      for (String line : info.split("\r?\n")) {
        if (line.startsWith("slave") && line.contains("offset=")) {
          long o = Long.parseLong(line.replaceAll(".*offset=(\\d+).*", "$1"));
          all &= o >= offset;
        }
      }
      if (all) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("replicas of " + master.port() + " behind: " + info);
      }
      RedisServerProcess.sleep(20);
    }
  }

  /**
   * {@code kill -9}s {@code master} and waits (up to {@code timeoutMs}) until the cluster is {@code ok} again with
   * another node serving {@code key}, i.e. a replica was promoted.
   */
  public RedisServerProcess killMasterAndAwaitFailover(RedisServerProcess master, String key, long timeoutMs) {
    master.kill9();
    return awaitFailover(master, key, timeoutMs);
  }

  /** Waits (up to {@code timeoutMs}) until the cluster is {@code ok} with another node than {@code master} serving
   * {@code key}; returns that node. */
  public RedisServerProcess awaitFailover(RedisServerProcess master, String key, long timeoutMs) {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try {
        RedisServerProcess now = masterOf(key);
        if (now != master && now.isRunning()) {
          awaitOk(Math.max(1, deadline - System.currentTimeMillis()));
          return now;
        }
      } catch (RuntimeException notYet) {
        // a node may answer with a half-updated view meanwhile
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("no failover of " + master.port() + " within " + timeoutMs + " ms");
      }
      RedisServerProcess.sleep(50);
    }
  }

  private RedisServerProcess anyRunning() {
    return nodes.stream().filter(RedisServerProcess::isRunning).findFirst()
        .orElseThrow(() -> new IllegalStateException("no node running"));
  }

  private static long field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return Long.parseLong(line.substring(name.length() + 1).trim());
      }
    }
    throw new IllegalStateException(name + " missing from " + info);
  }

  @Override
  public void close() {
    for (RedisServerProcess n : nodes) {
      n.close();
    }
  }
}
