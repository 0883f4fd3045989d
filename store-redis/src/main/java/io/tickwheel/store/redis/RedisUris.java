package io.tickwheel.store.redis;

import java.net.URI;
import java.net.URISyntaxException;

/** Checks and masks Redis connection strings, so a password never reaches a log line or an exception. */
public final class RedisUris {

  private RedisUris() {}

  /**
   * {@code uri} with its user-info (user and password) replaced by {@code ***}: {@code redis://:s3cret@h:6379}
   * becomes {@code redis://***@h:6379}. A string that does not parse is masked entirely after the scheme.
   */
  public static String mask(String uri) {
    if (uri == null) {
      return "null";
    }
    int scheme = uri.indexOf("://");
    int at = uri.lastIndexOf('@');
    if (scheme >= 0 && at > scheme) {
      return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
    }
    try {
      new URI(uri);
      return uri;
    } catch (URISyntaxException e) {
      return scheme >= 0 ? uri.substring(0, scheme + 3) + "***" : "***";
    }
  }

  /**
   * Returns {@code uri} if it is a {@code redis://} or {@code rediss://} URI with a host.
   *
   * @throws IllegalArgumentException naming {@code field} and the masked value otherwise
   */
  static String check(String field, String uri) {
    if (uri == null) {
      throw new IllegalArgumentException(field + " must not be null");
    }
    try {
      URI u = new URI(uri);
      String scheme = u.getScheme();
      if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
        throw new IllegalArgumentException(field + " must start with redis:// or rediss://, was \"" + mask(uri) + "\"");
      }
      if (u.getHost() == null) {
        throw new IllegalArgumentException(field + " has no host: \"" + mask(uri) + "\"");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(field + " is not a valid URI: \"" + mask(uri) + "\"");
    }
  }
}
