package io.tickwheel.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

  ServerSocket echo;
  TcpProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      while (!echo.isClosed()) {
        try {
          Socket s = echo.accept();
          Thread c = new Thread(() -> {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
              in.transferTo(out);
            } catch (IOException e) {
              // closed
            }
          });
          c.setDaemon(true);
          c.start();
        } catch (IOException e) {
          return;
        }
      }
    });
    t.setDaemon(true);
    t.start();
    proxy = TcpProxy.start(echo.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  Socket connect() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    s.setSoTimeout(1000);
    return s;
  }

  static String roundTrip(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes());
    s.getOutputStream().flush();
    return new String(s.getInputStream().readNBytes(text.length()));
  }

  @Test
  void forwardsBothWaysThenCutDropsOpenConnectionsAndBlackholesNewOnesUntilHealed() throws IOException {
    try (Socket before = connect()) {
      assertThat(roundTrip(before, "ping")).isEqualTo("ping");
      proxy.cut();
      assertThat(proxy.isCut()).isTrue();
      // the open connection was dropped: reading ends (EOF or reset), nothing is echoed
      int read;
      try {
        read = before.getInputStream().read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the open connection was not dropped by cut()", e);
      } catch (IOException e) {
        read = -1;
      }
      assertThat(read).isEqualTo(-1);
    }
    try (Socket during = connect()) {   // accepted, but never answered
      during.getOutputStream().write("lost".getBytes());
      during.getOutputStream().flush();
      assertThatThrownBy(() -> during.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
      proxy.heal();
    }
    try (Socket after = connect()) {
      assertThat(roundTrip(after, "pong")).isEqualTo("pong");
    }
  }
}
