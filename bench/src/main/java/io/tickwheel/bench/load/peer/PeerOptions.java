package io.tickwheel.bench.load.peer;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Typed, validated reads of the {@code Map<String,String>} options that {@code Targets.create(name, options)} passes
 * to a peer. Every peer reads only the keys it knows and ignores the others (the load tool may pass one map to every
 * target). A bad value fails with an {@link IllegalArgumentException} naming the option and the value.
 *
 * <p>Immutable and thread safe.
 */
public final class PeerOptions {

  /** Connection string shared by the JDBC peers; the machine's PostgreSQL, trust auth, database {@code test}. */
  public static final String DEFAULT_JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/test";
  /** The Redis the Redisson peer uses unless told otherwise. */
  public static final String DEFAULT_REDIS = "redis://127.0.0.1:6379";

  private static final Pattern SQL_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final Map<String, String> values;

  /** @param values the options; {@code null} means none. Copied. */
  public PeerOptions(Map<String, String> values) {
    this.values = values == null ? Map.of() : Map.copyOf(values);
  }

  /** The value of {@code key}, or {@code fallback} when absent or blank. */
  public String string(String key, String fallback) {
    String v = values.get(key);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  /** An integer in {@code [min, max]}, or {@code fallback} when absent. */
  public int integer(String key, int fallback, int min, int max) {
    String v = values.get(key);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw new IllegalArgumentException(
            "option " + key + " must be in [" + min + ", " + max + "], got '" + v + "'");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + key + " must be an integer, got '" + v + "'", e);
    }
  }

  /**
   * A lower-case SQL identifier ({@code [a-z_][a-z0-9_]{0,62}}), safe to splice into DDL and DML without quoting.
   */
  public String sqlIdentifier(String key, String fallback) {
    String v = string(key, fallback);
    if (!SQL_IDENTIFIER.matcher(v).matches()) {
      throw new IllegalArgumentException(
          "option " + key + " must match " + SQL_IDENTIFIER.pattern() + ", got '" + v + "'");
    }
    return v;
  }

  /**
   * The {@code jdbcUrl} option: a {@code jdbc:postgresql://host[:port]/db[?...]} URL whose host is a loopback
   * address (load targets are only ever local).
   */
  public String postgresJdbcUrl() {
    String url = string("jdbcUrl", DEFAULT_JDBC_URL);
    if (!url.startsWith("jdbc:postgresql://")) {
      throw new IllegalArgumentException("option jdbcUrl must start with jdbc:postgresql://, got '" + url + "'");
    }
    requireLoopback("jdbcUrl", url, url.substring("jdbc:".length()));
    return url;
  }

  /** The {@code redis} option: a {@code redis://host:port} URI whose host is a loopback address. */
  public String redisUri() {
    String uri = string("redis", DEFAULT_REDIS);
    if (!uri.startsWith("redis://")) {
      throw new IllegalArgumentException("option redis must be a redis://host:port URI, got '" + uri + "'");
    }
    requireLoopback("redis", uri, uri);
    return uri;
  }

  private static void requireLoopback(String key, String shown, String uri) {
    String host;
    try {
      host = new URI(uri).getHost();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("option " + key + " is not a valid URI: '" + shown + "'", e);
    }
    if (host == null) {
      throw new IllegalArgumentException("option " + key + " has no host: '" + shown + "'");
    }
    boolean loopback;
    try {
      loopback = InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      loopback = false;
    }
    if (!loopback) {
      throw new IllegalArgumentException(
          "option " + key + " must name a loopback host (load targets are local only), got '" + shown + "'");
    }
  }
}
