package io.tickwheel.bench.load;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A slowloris client against a server on loopback: opens {@code CONNECTIONS} connections to {@code 127.0.0.1:PORT},
 * sends each an unfinished request head, then one more header byte per connection every 100 ms for {@code SECONDS};
 * prints how many of its connections are still open every 5 s and at the end. A server with a header deadline
 * closes them at the deadline; one without holds them all.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.tickwheel.bench.load.Slowloris PORT CONNECTIONS SECONDS</pre>
 *
 * Loopback only: the host is not an argument. Not thread safe; one run per process.
 */
public final class Slowloris {
  private Slowloris() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: Slowloris PORT CONNECTIONS SECONDS");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    int connections = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    byte[] head = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII);
    List<Socket> open = new ArrayList<>();
    int refused = 0;
    for (int i = 0; i < connections; i++) {
      try {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(1);
        s.getOutputStream().write(head);
        open.add(s);
      } catch (IOException e) {
        refused++;
      }
    }
    int opened = open.size();
    long t0 = System.currentTimeMillis();
    long nextReport = t0;
    byte[] sink = new byte[4096];
    while (System.currentTimeMillis() - t0 < seconds * 1000L) {
      for (Iterator<Socket> it = open.iterator(); it.hasNext();) {
        Socket s = it.next();
        boolean closed;
        try {
          closed = readsEnd(s, sink);
          if (!closed) {
            s.getOutputStream().write('x');
          }
        } catch (IOException e) {
          closed = true;
        }
        if (closed) {
          s.close();
          it.remove();
        }
      }
      if (System.currentTimeMillis() >= nextReport) {
        System.out.println("t=" + (System.currentTimeMillis() - t0) / 1000 + "s open=" + open.size());
        nextReport += 5_000;
      }
      Thread.sleep(100); // the drip rate: one header byte per connection every 100 ms is what a slowloris does
    }
    System.out.println("connections opened " + opened + " (refused " + refused + "), still open after " + seconds
        + " s: " + open.size());
    for (Socket s : open) {
      s.close();
    }
  }

  /** Whether the server closed {@code s} (an answer, such as a 408, is read and dropped). */
  private static boolean readsEnd(Socket s, byte[] sink) throws IOException {
    try {
      return s.getInputStream().read(sink) < 0;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }
}
