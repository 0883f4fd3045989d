package io.tickwheel.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for tests that must control every byte (the {@code Host} header, partial headers):
 * one request per connection ({@code Connection: close}), the answer read to the end of the stream.
 */
public final class RawHttp {

  private RawHttp() {}

  /** An answer: status, headers (names in lower case) and body. */
  public record Answer(int status, Map<String, List<String>> headers, byte[] body) {
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public String header(String name) {
      List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
      return v == null ? null : v.get(0);
    }
  }

  /** A loopback socket to {@code port}, reads timing out after 10 s. */
  public static Socket open(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    s.setSoTimeout(10_000);
    return s;
  }

  /**
   * Sends {@code method path} with {@code headers} ({@code "Name: value"} lines, {@code Host} among them if wanted)
   * and {@code body} (or {@code null}), and reads the answer.
   */
  public static Answer send(int port, String method, String path, List<String> headers, String body)
      throws IOException {
    try (Socket s = open(port)) {
      StringBuilder sb = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      for (String h : headers) {
        sb.append(h).append("\r\n");
      }
      byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      if (body != null) {
        sb.append("Content-Length: ").append(b.length).append("\r\n");
      }
      sb.append("Connection: close\r\n\r\n");
      s.getOutputStream().write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().write(b);
      s.getOutputStream().flush();
      return read(s.getInputStream());
    }
  }

  /** Reads one answer, to the end of the stream. */
  public static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    in.transferTo(all);
    byte[] bytes = all.toByteArray();
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new IOException("no complete answer: \"" + text + "\"");
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(lines[i].substring(colon + 1).trim());
    }
    byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
    return new Answer(status, headers, body);
  }
}
