package io.tickwheel.core.callback;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A callback URL taken apart: scheme, host (as written, lower-cased; without the brackets of an IPv6 literal), port
 * and request target. The one parser of callback URLs: the create path validates with it, and the delivery path
 * takes the host to resolve, the host:port its per-host state is keyed by and the request it sends from it.
 *
 * <p>Only absolute {@code http} and {@code https} URLs with a host are callback URLs; user info
 * ({@code user:pass@}) is refused (it would be shown in every delivery record). The host is a bracketed IPv6
 * literal, or a DNS host name (RFC 1123: dot-separated labels of 1 to 63 letters, digits and hyphens, not starting or
 * ending with a hyphen, 253 characters at most, one trailing dot allowed), which includes every IPv4 form
 * {@code HostLiteral} reads. Anything else, an underscore included, is refused: the JDK's URL parser does not take
 * it as a host, TLS cannot send it as SNI, and resolvers may refuse it (international names: send their punycode
 * {@code xn--} form). Whether the host is an address literal is {@code HostLiteral}'s question.
 *
 * <p>Immutable, thread safe.
 *
 * @param scheme {@code http} or {@code https}
 * @param host   the host, lower-cased, IPv6 without brackets (a zone id kept as written, {@code %25} decoded)
 * @param port   the port given, or the scheme's default (80, 443)
 * @param target the request target: the raw path ({@code /} when empty) and {@code ?query} if any, as written;
 *               the fragment is dropped
 */
public record CallbackUrl(String scheme, String host, int port, String target) {

  /** The longest host name (without a trailing dot), characters. */
  public static final int MAX_HOST_NAME = 253;
  /** The longest label of a host name, characters. */
  public static final int MAX_LABEL = 63;

  /**
   * The key of the receiver's per-host state: {@code scheme://host:port}, an IPv6 host in brackets. Two URLs that
   * reach the same scheme, host and port (whatever their paths, the case of their hosts, an explicit default port)
   * have the same key.
   */
  public String hostKey() {
    return scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  /**
   * Takes {@code url} apart.
   *
   * @throws IllegalArgumentException saying what is wrong (without repeating the URL)
   */
  public static CallbackUrl parse(String url) {
    if (url.isEmpty() || url.length() > Callback.MAX_URL_LENGTH) {
      throw new IllegalArgumentException("must have 1.." + Callback.MAX_URL_LENGTH + " characters");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("is not a valid URL (" + e.getReason() + " at index " + e.getIndex() + ")");
    }
    String scheme = uri.getScheme();
    if (scheme == null) {
      throw new IllegalArgumentException("must be an absolute http or https URL");
    }
    scheme = scheme.toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("must use http or https, not " + scheme);
    }
    String authority = uri.getRawAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("must name a host");
    }
    if (authority.indexOf('@') >= 0) {
      throw new IllegalArgumentException("must not carry user info (user:password@)");
    }
    String host;
    String portText;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("has an IPv6 host without its closing bracket");
      }
      host = authority.substring(1, close);
      String rest = authority.substring(close + 1);
      if (!rest.isEmpty() && !rest.startsWith(":")) {
        throw new IllegalArgumentException("has characters after the IPv6 host");
      }
      portText = rest.isEmpty() ? "" : rest.substring(1);
      host = host.replace("%25", "%");
      if (host.isEmpty() || host.indexOf(':') < 0) {
        throw new IllegalArgumentException("has brackets around something that is not an IPv6 address");
      }
    } else {
      int colon = authority.lastIndexOf(':');
      host = colon < 0 ? authority : authority.substring(0, colon);
      portText = colon < 0 ? "" : authority.substring(colon + 1);
      if (host.isEmpty()) {
        throw new IllegalArgumentException("must name a host");
      }
      String why = hostNameError(host);
      if (why != null) {
        throw new IllegalArgumentException("has a host '" + host + "' that is not a valid host name (" + why
            + "; only letters, digits, '-' and '.' between labels of 1 to " + MAX_LABEL
            + " characters; international names in their xn-- form)");
      }
    }
    int port = scheme.equals("https") ? 443 : 80;
    if (!portText.isEmpty()) {
      if (portText.length() > 5 || !portText.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
        throw new IllegalArgumentException("has a port that is not a number from 1 to 65535");
      }
      port = Integer.parseInt(portText);
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("has a port that is not a number from 1 to 65535");
      }
    }
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    return new CallbackUrl(scheme, host.toLowerCase(Locale.ROOT), port, target);
  }

  /** What makes {@code host} no RFC 1123 host name, or null when it is one. */
  static String hostNameError(String host) {
    String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (h.isEmpty()) {
      return "it has no label";
    }
    if (h.length() > MAX_HOST_NAME) {
      return "it has " + h.length() + " characters, more than " + MAX_HOST_NAME;
    }
    int start = 0;
    for (int i = 0; i <= h.length(); i++) {
      if (i == h.length() || h.charAt(i) == '.') {
        int len = i - start;
        if (len == 0) {
          return "it has an empty label";
        }
        if (len > MAX_LABEL) {
          return "it has a label of " + len + " characters";
        }
        if (h.charAt(start) == '-' || h.charAt(i - 1) == '-') {
          return "it has a label that starts or ends with '-'";
        }
        start = i + 1;
        continue;
      }
      char c = h.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
      if (!ok) {
        return "it has the character '" + c + "'";
      }
    }
    return null;
  }
}
