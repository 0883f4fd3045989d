package io.tickwheel.bench.load.peer;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away redis-server on a free loopback port, nothing on disk, for the Redisson peer's smoke test (the
 * machine's Redis on 6379 is not for tests). Needs {@code redis-server} on the PATH.
 */
final class TestRedis implements AutoCloseable {

  final int port;
  private final Process process;

  private TestRedis(int port, Process process) {
    this.port = port;
    this.process = process;
  }

  static TestRedis start() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Process p;
    try {
      p = new ProcessBuilder("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port),
          "--save", "", "--appendonly", "no", "--dir", System.getProperty("java.io.tmpdir"))
          .redirectErrorStream(true)
          .redirectOutput(new File(System.getProperty("java.io.tmpdir"), "tickwheel-bench-redis-" + port + ".log"))
          .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start redis-server (is it on the PATH?)", e);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return new TestRedis(port, p);
      } catch (IOException notYet) {
        if (!p.isAlive()) {
          throw new IllegalStateException("redis-server exited with " + p.exitValue() + " on port " + port);
        }
        Thread.sleep(50);
      }
    }
    p.destroyForcibly();
    throw new IllegalStateException("redis-server did not listen on port " + port + " within 10 s");
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
