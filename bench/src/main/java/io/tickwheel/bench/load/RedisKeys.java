package io.tickwheel.bench.load;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts and deletes the keys of one pattern on a Redis, for the tickwheel target with {@code --store redis}: its
 * server keeps every key under {@value #TICKWHEEL_PATTERN}, and a fresh server (the reset between scenarios) must
 * not find the previous scenario's timers there. A few RESP2 commands over a plain socket ({@code SELECT},
 * {@code SCAN … MATCH … COUNT 1000}, {@code UNLINK}), so no client library is started for it.
 *
 * <p>URI: {@code redis://host[:port][/db]} with a loopback host (the load tool only touches local services); no
 * password. Not thread safe; each call opens and closes its own connection.
 */
public final class RedisKeys {
  /** Every key of tickwheel's Redis store (its default key prefix {@code tw}, which the server does not change). */
  public static final String TICKWHEEL_PATTERN = "{tw}:*";

  private final String host;
  private final int port;
  private final int db;

  /** @throws IllegalArgumentException when the URI is not {@code redis://loopback-host[:port][/db]} */
  public RedisKeys(String uri) {
    URI u;
    try {
      u = new URI(uri);
    } catch (Exception e) {
      throw new IllegalArgumentException("--redis: not a URI: '" + uri + "'");
    }
    if (!"redis".equals(u.getScheme()) || u.getHost() == null || u.getUserInfo() != null) {
      throw new IllegalArgumentException("--redis must be redis://host[:port][/db] without a password, got '" + uri
          + "'");
    }
    boolean loopback;
    try {
      loopback = InetAddress.getByName(u.getHost()).isLoopbackAddress();
    } catch (IOException e) {
      loopback = false;
    }
    if (!loopback) {
      throw new IllegalArgumentException("--redis must name a loopback host (load targets are local only), got '"
          + uri + "'");
    }
    this.host = u.getHost();
    this.port = u.getPort() < 0 ? 6379 : u.getPort();
    String path = u.getPath() == null ? "" : u.getPath().replaceAll("^/+", "");
    try {
      this.db = path.isEmpty() ? 0 : Integer.parseInt(path);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--redis: database must be a number, got '" + path + "' in '" + uri + "'");
    }
  }

  /** How many keys match {@code pattern} (a full {@code SCAN}). */
  public long count(String pattern) throws IOException {
    return scan(pattern, false);
  }

  /** Deletes ({@code UNLINK}) every key matching {@code pattern}; returns how many were found. */
  public long delete(String pattern) throws IOException {
    return scan(pattern, true);
  }

  private long scan(String pattern, boolean delete) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 2_000);
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      InputStream in = new BufferedInputStream(s.getInputStream());
      if (db != 0) {
        command(out, in, "SELECT", String.valueOf(db));
      }
      long found = 0;
      String cursor = "0";
      do {
        List<?> reply = (List<?>) command(out, in, "SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
        cursor = (String) reply.get(0);
        List<?> keys = (List<?>) reply.get(1);
        found += keys.size();
        if (delete && !keys.isEmpty()) {
          List<String> cmd = new ArrayList<>();
          cmd.add("UNLINK");
          for (Object k : keys) {
            cmd.add((String) k);
          }
          command(out, in, cmd.toArray(new String[0]));
        }
      } while (!cursor.equals("0"));
      return found;
    }
  }

  private static Object command(OutputStream out, InputStream in, String... args) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
    for (String a : args) {
      byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
      b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
      b.writeBytes(bytes);
      b.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    out.write(b.toByteArray());
    out.flush();
    return read(in);
  }

  /** One RESP2 reply: simple string, error (thrown), integer, bulk string (null for nil) or array. */
  private static Object read(InputStream in) throws IOException {
    int type = in.read();
    String line = line(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new IOException("redis: " + line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        byte[] data = in.readNBytes(n + 2);
        return new String(data, 0, n, StandardCharsets.UTF_8);
      }
      case '*': {
        int n = Integer.parseInt(line);
        List<Object> items = new ArrayList<>(Math.max(0, n));
        for (int i = 0; i < n; i++) {
          items.add(read(in));
        }
        return items;
      }
      default:
        throw new IOException("redis: unexpected reply type " + (type < 0 ? "EOF" : "'" + (char) type + "'"));
    }
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) != '\r') {
      if (c < 0) {
        throw new IOException("redis: connection closed mid-reply");
      }
      b.append((char) c);
    }
    in.read(); // '\n'
    return b.toString();
  }
}
