package io.tickwheel.core.callback;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A callback URL taken apart: scheme, host (as written, lower-cased; without the brackets of an IPv6 literal) and
 * port. Only absolute {@code http} and {@code https} URLs with a host are callback URLs; user info
 * ({@code user:pass@}) is refused (it would be shown in every delivery record), and so is a host with characters
 * outside {@code [A-Za-z0-9._-]} unless it is a bracketed IPv6 literal (international names: send their punycode
 * {@code xn--} form). Whether the host is an address literal is {@code HostLiteral}'s question.
 *
 * <p>Immutable, thread safe.
 *
 * @param scheme {@code http} or {@code https}
 * @param host   the host, lower-cased, IPv6 without brackets (a zone id kept as written, {@code %25} decoded)
 * @param port   the port given, or the scheme's default (80, 443)
 */
public record CallbackUrl(String scheme, String host, int port) {

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
      for (int i = 0; i < host.length(); i++) {
        char c = host.charAt(i);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
            || c == '-' || c == '_';
        if (!ok) {
          throw new IllegalArgumentException("has a host with the character '" + c
              + "' (only letters, digits, '.', '-', '_'; international names in their xn-- form)");
        }
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
    return new CallbackUrl(scheme, host.toLowerCase(Locale.ROOT), port);
  }
}
