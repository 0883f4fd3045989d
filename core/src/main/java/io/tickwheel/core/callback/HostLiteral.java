package io.tickwheel.core.callback;

/**
 * Reads a URL host as browsers, curl and {@code inet_aton} read it: an IPv4 address in any of the numeric forms
 * ({@code 127.0.0.1}, decimal {@code 2130706433}, hex {@code 0x7f000001}, octal {@code 0177.0.0.1}, short
 * {@code 127.1}, and mixtures such as {@code 0x7f.0.1}), an IPv6 address (what was inside the URL's brackets, with
 * an embedded dotted IPv4 tail and a zone id allowed), or else a name to resolve.
 *
 * <p>The rules are the WHATWG URL standard's IPv4 and IPv6 parsers: a host whose last label is a number (decimal
 * digits, or {@code 0x} and hex digits) is an IPv4 address or invalid, never a name. Each part is hex after
 * {@code 0x}, octal after a leading {@code 0}, else decimal; all parts but the last are one byte, the last fills the
 * remaining bytes; one trailing dot is allowed. (The JDK's {@code InetAddress} is not used: it reads {@code 0177}
 * as decimal 177, refuses hex, and resolves what it does not read, blocking.)
 *
 * <p>Stateless, thread safe, no I/O.
 */
public final class HostLiteral {

  private HostLiteral() {}

  /**
   * The address {@code host} spells, or {@code null} when it is a name.
   *
   * @param host a URL host without brackets (IPv6 literals contain {@code ':'}; a zone id after {@code '%'} is
   *             dropped: it only scopes a link-local address)
   * @return 4 bytes for IPv4, 16 for IPv6, network order
   * @throws IllegalArgumentException when {@code host} is neither a name nor a valid address (an IPv6 literal that
   *                                  does not parse, a number out of range, "1.2.3.4.5")
   */
  public static byte[] parse(String host) {
    if (host.indexOf(':') >= 0) {
      int zone = host.indexOf('%');
      String addr = zone < 0 ? host : host.substring(0, zone);
      if (zone >= 0) {
        String id = host.substring(zone + 1);
        if (id.isEmpty() || !id.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '_'
            || c == '-' || c == '~')) {
          throw new IllegalArgumentException("has an IPv6 zone id that is empty or has odd characters");
        }
      }
      byte[] b = ipv6(addr);
      if (b == null) {
        throw new IllegalArgumentException("has an IPv6 host that is not a valid IPv6 address");
      }
      return b;
    }
    if (!endsInANumber(host)) {
      return null;
    }
    byte[] b = ipv4(host);
    if (b == null) {
      throw new IllegalArgumentException("has a host that ends in a number but is not a valid IPv4 address");
    }
    return b;
  }

  /** WHATWG's "ends in a number": the last label (after one trailing dot) is all digits or {@code 0x} and hex. */
  static boolean endsInANumber(String host) {
    String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    String last = h.substring(h.lastIndexOf('.') + 1);
    if (last.isEmpty()) {
      return false;
    }
    if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return true;
    }
    return number(last) >= 0;
  }

  /** The IPv4 address {@code host} spells in any inet_aton form, or {@code null}. */
  static byte[] ipv4(String host) {
    String h = host.endsWith(".") && host.length() > 1 ? host.substring(0, host.length() - 1) : host;
    String[] parts = h.split("\\.", -1);
    if (parts.length > 4) {
      return null;
    }
    long[] n = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      n[i] = number(parts[i]);
      if (n[i] < 0) {
        return null;
      }
    }
    for (int i = 0; i < n.length - 1; i++) {
      if (n[i] > 255) {
        return null;
      }
    }
    long last = n[n.length - 1];
    if (last >= 1L << (8 * (5 - n.length))) {
      return null;
    }
    long v = last;
    for (int i = 0; i < n.length - 1; i++) {
      v += n[i] << (8 * (3 - i));
    }
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }

  /**
   * One IPv4 part: {@code 0x} hex (empty after the prefix is 0), leading-{@code 0} octal, else decimal; -1 when it is
   * not a number; values above 2^32 are capped to 2^32 (out of range for every position).
   */
  static long number(String s) {
    if (s.isEmpty()) {
      return -1;
    }
    int radix = 10;
    int from = 0;
    if (s.length() >= 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
      radix = 16;
      from = 2;
    } else if (s.length() >= 2 && s.charAt(0) == '0') {
      radix = 8;
      from = 1;
    }
    long v = 0;
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      int d = c < 0x80 ? Character.digit(c, radix) : -1;
      if (d < 0) {
        return -1;
      }
      v = Math.min(v * radix + d, 1L << 32);
    }
    return v;
  }

  /** The IPv6 address {@code s} spells (WHATWG's IPv6 parser: {@code ::} once, a dotted IPv4 tail), or null. */
  static byte[] ipv6(String s) {
    int[] pieces = new int[8];
    int piece = 0;
    int compress = -1;
    int p = 0;
    int n = s.length();
    if (n == 0) {
      return null;
    }
    if (s.charAt(0) == ':') {
      if (n < 2 || s.charAt(1) != ':') {
        return null;
      }
      p = 2;
      piece = 1;
      compress = 1;
    }
    while (p < n) {
      if (piece == 8) {
        return null;
      }
      if (s.charAt(p) == ':') {
        if (compress != -1) {
          return null;
        }
        p++;
        piece++;
        compress = piece;
        continue;
      }
      int value = 0;
      int len = 0;
      while (len < 4 && p < n && hex(s.charAt(p)) >= 0) {
        value = value * 16 + hex(s.charAt(p));
        p++;
        len++;
      }
      if (p < n && s.charAt(p) == '.') {
        if (len == 0 || piece > 6) {
          return null;
        }
        p -= len;
        int seen = 0;
        while (p < n) {
          int part = -1;
          if (seen > 0) {
            if (s.charAt(p) == '.' && seen < 4) {
              p++;
            } else {
              return null;
            }
          }
          if (p >= n || !isDigit(s.charAt(p))) {
            return null;
          }
          while (p < n && isDigit(s.charAt(p))) {
            int d = s.charAt(p) - '0';
            if (part == -1) {
              part = d;
            } else if (part == 0) {
              return null;
            } else {
              part = part * 10 + d;
            }
            if (part > 255) {
              return null;
            }
            p++;
          }
          pieces[piece] = pieces[piece] * 0x100 + part;
          seen++;
          if (seen == 2 || seen == 4) {
            piece++;
          }
        }
        if (seen != 4) {
          return null;
        }
        break;
      } else if (p < n && s.charAt(p) == ':') {
        p++;
        if (p >= n) {
          return null;
        }
      } else if (p < n) {
        return null;
      }
      pieces[piece] = value;
      piece++;
    }
    if (compress != -1) {
      int swaps = piece - compress;
      piece = 7;
      while (piece != 0 && swaps > 0) {
        int t = pieces[piece];
        pieces[piece] = pieces[compress + swaps - 1];
        pieces[compress + swaps - 1] = t;
        piece--;
        swaps--;
      }
    } else if (piece != 8) {
      return null;
    }
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[2 * i] = (byte) (pieces[i] >>> 8);
      b[2 * i + 1] = (byte) pieces[i];
    }
    return b;
  }

  private static int hex(char c) {
    return c < 0x80 ? Character.digit(c, 16) : -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
