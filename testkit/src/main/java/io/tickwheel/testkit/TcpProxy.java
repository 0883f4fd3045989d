package io.tickwheel.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP proxy for fault tests: accepts on a free loopback port and forwards each connection to a target port
 * on 127.0.0.1, byte for byte, both ways. {@link #cut()} drops every connection and blackholes new ones (they are
 * accepted and then neither read nor answered, so a client sees timeouts, not refusals) until {@link #heal()}, which
 * closes the held ones and forwards again. Thread-safe; one platform thread per direction of each connection.
 */
public final class TcpProxy implements AutoCloseable {

  private final int target;
  private final ServerSocket server;
  private final List<Socket> open = new ArrayList<>();
  private final Thread acceptor;
  private volatile boolean cut;
  private volatile boolean closed;

  private TcpProxy(int target) throws IOException {
    this.target = target;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts a proxy to {@code 127.0.0.1:targetPort}. */
  public static TcpProxy start(int targetPort) {
    try {
      return new TcpProxy(targetPort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The loopback port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** Drops every connection at once and blackholes new ones until {@link #heal()}. */
  public void cut() {
    cut = true;
    closeAll();
  }

  /** Closes the blackholed connections and forwards new ones again. */
  public void heal() {
    closeAll();
    cut = false;
  }

  /** Whether the proxy is cut. */
  public boolean isCut() {
    return cut;
  }

  private void closeAll() {
    List<Socket> all;
    synchronized (open) {
      all = new ArrayList<>(open);
      open.clear();
    }
    all.forEach(TcpProxy::quietly);
  }

  private void track(Socket s) {
    synchronized (open) {
      open.add(s);
    }
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return;
      }
      track(client);
      if (cut) {
        continue;   // blackholed: held open, never read, until heal() or close()
      }
      try {
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        track(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        quietly(client);
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // closed by cut() or by either side
      } finally {
        quietly(from);
        quietly(to);
      }
    }, "tcp-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void quietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // already closed
    }
    closeAll();
  }
}
