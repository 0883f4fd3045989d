package io.tickwheel.server.http;

import java.util.List;
import java.util.Locale;

/**
 * Which browser origins may open the WebSocket: the server's own ({@code http(s)://HOST:PORT} as configured, or
 * {@code http://} or {@code https://} + the request's {@code Host} header, i.e. a page the server itself served: a
 * port speaks either TLS or not, so no page of the other scheme can come from it), and those of
 * {@code --allowed-origins} ({@code *} allows any). A request without {@code Origin} is not from a browser page and
 * passes (the token protects it).
 *
 * <p>Thread safe: the allowed list is fixed at construction; the server's own origin is set once, by
 * {@link #own}, when the port is known (a volatile write), and read by {@link #allows} on any thread. Before that
 * only a page served under the request's own {@code Host} and the listed origins pass.
 */
public final class OriginCheck {

  private final List<String> allowed;
  private volatile String own;

  public OriginCheck(List<String> allowed) {
    this.allowed = allowed.stream().map(OriginCheck::norm).toList();
  }

  /** Sets the server's own origin once the port is known. */
  public void own(String origin) {
    this.own = norm(origin);
  }

  /** Whether a request with this {@code Origin} and {@code Host} may upgrade. */
  public boolean allows(String origin, String host) {
    if (origin == null) {
      return true;
    }
    String o = norm(origin);
    if (o.equals(own) || (host != null && (o.equals(norm("http://" + host)) || o.equals(norm("https://" + host))))) {
      return true;
    }
    return allowed.contains("*") || allowed.contains(o);
  }

  private static String norm(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    return t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
  }
}
