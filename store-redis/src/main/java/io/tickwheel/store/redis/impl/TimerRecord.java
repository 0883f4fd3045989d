package io.tickwheel.store.redis.impl;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.Topics;
import java.nio.charset.StandardCharsets;

/**
 * The Redis value of a timer, laid out so the Lua scripts can read what they need with one pattern match:
 *
 * <pre>
 * GEN FIRINGS DUEHEX TOPIC KIND MISFIRE DELAYMS PERIODMS MAXFIRINGS CREATEDAT[ EXTRAS]\n(N | P&lt;payload utf-8&gt;)
 * </pre>
 *
 * {@code EXTRAS} is there only for a timer with {@link Timer#extras()} (a plain timer's record is what it was
 * before calendars existed, byte for byte, and such records of earlier releases read as plain timers):
 * space-separated {@code key=value} tokens for the fields that are not at their defaults, {@code z=ZONE g=GAP
 * o=OVERLAP} (zone id and DST policies as configured, wire names, {@code auto} included), {@code e=ENDAT},
 * {@code j=JITTERMS n=NOMINALAT}, {@code p=1} (paused), the callback {@code u=URL t=TIMEOUTMS a=MAXATTEMPTS} with
 * {@code b=MINBACKOFFMS m=MAXBACKOFFMS} when it has backoff bounds (a callback URL holds no whitespace), and last {@code c=} followed by the cron expression to the
 * end of the line (its single spaces included). The scripts never look past the fourth header field.
 *
 * The header is ASCII, space separated; generation and firing count are compared as decimal strings by the
 * scripts (exact, no float rounding). {@code DUEHEX} is {@link #dueHex}: 16 lowercase hex digits whose byte order
 * is the numeric order of {@code nextDueAt}; {@code DUEHEX + id} is the member of the lex-ordered due indexes.
 * The part after the newline (the "payload segment") is {@code N} for no payload or {@code P} followed by the
 * payload; scripts copy it verbatim into the firing log and keep it on update. The id is the hash field, not
 * part of the value. Stateless, thread safe.
 */
public final class TimerRecord {

  private static final Kind[] KINDS = Kind.values();
  private static final Misfire[] MISFIRES = Misfire.values();
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private TimerRecord() {}

  /** The 16 hex digits of {@code due} with the sign bit flipped, so byte order equals numeric order. */
  public static String dueHex(long due) {
    byte[] b = new byte[16];
    putDueHex(b, 0, due);
    return new String(b, StandardCharsets.US_ASCII);
  }

  /** Inverse of {@link #dueHex}. */
  public static long parseDueHex(String hex) {
    return Long.parseUnsignedLong(hex, 16) ^ Long.MIN_VALUE;
  }

  /** The member of a due index: {@code dueHex(due) + id}. */
  public static String member(long due, String id) {
    return dueHex(due) + id;
  }

  /** The member of a due index as bytes: {@code dueHex(due)} followed by {@code id} (the id's UTF-8 bytes). */
  public static byte[] member(long due, byte[] id) {
    byte[] m = new byte[16 + id.length];
    putDueHex(m, 0, due);
    System.arraycopy(id, 0, m, 16, id.length);
    return m;
  }

  /** Writes {@link #dueHex dueHex(due)} as 16 ASCII bytes at {@code b[at]}. */
  private static void putDueHex(byte[] b, int at, long due) {
    long u = due ^ Long.MIN_VALUE;
    for (int k = at + 15; k >= at; k--) {
      b[k] = (byte) HEX[(int) (u & 0xf)];
      u >>>= 4;
    }
  }

  /** Whether {@code member} is the due-index entry of {@code t} (its id and its current due time). */
  public static boolean isMemberOf(String member, Timer t) {
    return member.length() == 16 + t.id().length() && member.endsWith(t.id())
        && member.startsWith(dueHex(t.nextDueAt()));
  }

  /** The id in a due-index member. */
  public static String idOfMember(String member) {
    return member.substring(16);
  }

  /**
   * Checks what the record layout needs: id and topic are non-empty and free of whitespace (the API's id and
   * topic rules already guarantee it).
   *
   * @throws IllegalArgumentException naming the field and value
   */
  public static void check(Timer t) {
    checkToken("id", t.id());
    checkToken("topic", t.topic());
    ZonedCron c = t.cron();
    if (c != null) {
      checkToken("timeZone", c.zone().getId());
      if (c.expression().indexOf('\n') >= 0 || c.expression().indexOf('\r') >= 0) {
        throw new IllegalArgumentException("cron must not contain a line break, was \"" + c.expression() + "\"");
      }
    }
    Callback cb = t.callback();
    if (cb != null) {
      checkToken("callback.url", cb.url());
    }
  }

  private static void checkToken(String field, String v) {
    if (v.isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    for (int i = 0; i < v.length(); i++) {
      if (Character.isWhitespace(v.charAt(i))) {
        throw new IllegalArgumentException(field + " must not contain whitespace, was \"" + v + "\"");
      }
    }
  }

  /**
   * The short form of {@code next}'s header for fire.lua, {@code "+GEN FIRINGS DUEHEX"}, when {@code next} is the
   * timer stored with {@code generation} and {@code firingsBefore} firings, re-armed by a firing (same generation,
   * the same or one more firing, no jitter: the rest of its header, calendar included, is then what is stored, and
   * the script keeps it); else {@code null} (send {@link #header}). A periodic timer's header is written on every
   * firing; this form leaves its calendar out of the request.
   */
  public static String rearmedHeader(Timer next, long generation, long firingsBefore) {
    Timer.Extras x = next.extras();
    if (next.generation() != generation || next.firings() - firingsBefore > 1 || next.firings() < firingsBefore
        || (x != null && x.jitterMs() > 0)) {
      return null;
    }
    return new StringBuilder(48).append('+').append(generation).append(' ').append(next.firings()).append(' ')
        .append(dueHex(next.nextDueAt())).toString();
  }

  /** The header line (no newline) of {@code t}. */
  public static String header(Timer t) {
    return new StringBuilder(96)
        .append(t.generation()).append(' ')
        .append(t.firings()).append(' ')
        .append(dueHex(t.nextDueAt())).append(' ')
        .append(t.topic()).append(' ')
        .append(t.kind().ordinal()).append(' ')
        .append(t.misfire().ordinal()).append(' ')
        .append(t.delayMs()).append(' ')
        .append(t.periodMs()).append(' ')
        .append(t.maxFirings()).append(' ')
        .append(t.createdAt())
        .append(extrasTail(t))
        .toString();
  }

  /** The {@code EXTRAS} part of the header with its leading space, or {@code ""} for a plain timer. */
  static String extrasTail(Timer t) {
    Timer.Extras x = t.extras();
    if (x == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(64);
    ZonedCron c = x.cron();
    if (c != null) {
      b.append(" z=").append(c.zone().getId()).append(" g=").append(c.gap().wireName())
          .append(" o=").append(c.overlap().wireName());
    }
    if (x.endAt() != Timer.NO_END) {
      b.append(" e=").append(x.endAt());
    }
    if (x.jitterMs() > 0) {
      b.append(" j=").append(x.jitterMs()).append(" n=").append(x.nominalAt());
    }
    if (x.paused()) {
      b.append(" p=1");
    }
    Callback cb = x.callback();
    if (cb != null) {
      b.append(" u=").append(cb.url()).append(" t=").append(cb.timeoutMs()).append(" a=").append(cb.maxAttempts());
      if (cb.hasBackoff()) {
        b.append(" b=").append(cb.minBackoffMs()).append(" m=").append(cb.maxBackoffMs());
      }
    }
    if (c != null) {
      b.append(" c=").append(c.expression());
    }
    return b.toString();
  }

  /** Parses {@link #extrasTail} without its leading space. */
  static Timer.Extras parseExtras(String tail) {
    String zone = null;
    String gap = null;
    String overlap = null;
    String expr = null;
    long endAt = Timer.NO_END;
    long jitter = 0;
    long nominal = 0;
    boolean paused = false;
    String url = null;
    int timeout = Callback.DEFAULT_TIMEOUT_MS;
    int attempts = Callback.DEFAULT_MAX_ATTEMPTS;
    long minBackoff = Callback.NO_BACKOFF;
    long maxBackoff = Callback.NO_BACKOFF;
    int i = 0;
    while (i < tail.length()) {
      if (tail.startsWith("c=", i)) {
        expr = tail.substring(i + 2);
        break;
      }
      int end = tail.indexOf(' ', i);
      if (end < 0) {
        end = tail.length();
      }
      String token = tail.substring(i, end);
      i = end + 1;
      if (token.length() < 3 || token.charAt(1) != '=') {
        throw new IllegalArgumentException("bad extras field \"" + token + "\"");
      }
      String v = token.substring(2);
      switch (token.charAt(0)) {
        case 'z' -> zone = v;
        case 'g' -> gap = v;
        case 'o' -> overlap = v;
        case 'e' -> endAt = Long.parseLong(v);
        case 'j' -> jitter = Long.parseLong(v);
        case 'n' -> nominal = Long.parseLong(v);
        case 'p' -> paused = "1".equals(v);
        case 'u' -> url = v;
        case 't' -> timeout = Integer.parseInt(v);
        case 'a' -> attempts = Integer.parseInt(v);
        case 'b' -> minBackoff = Long.parseLong(v);
        case 'm' -> maxBackoff = Long.parseLong(v);
        default -> throw new IllegalArgumentException("unknown extras field \"" + token + "\"");
      }
    }
    ZonedCron cron = null;
    if (expr != null) {
      if (zone == null || gap == null || overlap == null) {
        throw new IllegalArgumentException("a cron timer record lacks its zone or DST policies");
      }
      DstGap g = DstGap.fromWire(gap);
      DstOverlap o = DstOverlap.fromWire(overlap);
      if (g == null || o == null) {
        throw new IllegalArgumentException("unknown DST policy \"" + (g == null ? gap : overlap) + "\"");
      }
      cron = ZonedCron.stored(expr, zone, g, o);
    }
    Callback callback = url == null ? null : new Callback(url, timeout, attempts, minBackoff, maxBackoff);
    return new Timer.Extras(cron, endAt, jitter, paused, nominal, callback);
  }

  /**
   * The whole value of {@code t}, payload included: the bytes of {@code header(t) + "\n" + (N | P payload)}, written
   * straight into one array (no intermediate strings; this runs for every created timer).
   */
  public static byte[] encode(Timer t) {
    if (t.extras() != null) {
      byte[] h = header(t).getBytes(StandardCharsets.UTF_8);
      byte[] p = t.payload() == null ? null : t.payload().getBytes(StandardCharsets.UTF_8);
      byte[] out = new byte[h.length + 2 + (p == null ? 0 : p.length)];
      System.arraycopy(h, 0, out, 0, h.length);
      out[h.length] = '\n';
      out[h.length + 1] = (byte) (p == null ? 'N' : 'P');
      if (p != null) {
        System.arraycopy(p, 0, out, h.length + 2, p.length);
      }
      return out;
    }
    String topic = t.topic();      // [A-Za-z0-9._-]: one byte per char
    int topicLen = topic.length();
    byte[] p = t.payload() == null ? null : t.payload().getBytes(StandardCharsets.UTF_8);
    int kind = t.kind().ordinal();
    int misfire = t.misfire().ordinal();
    int len = digits(t.generation()) + digits(t.firings()) + 16 + topicLen + digits(kind) + digits(misfire)
        + digits(t.delayMs()) + digits(t.periodMs()) + digits(t.maxFirings()) + digits(t.createdAt())
        + 9 + 2 + (p == null ? 0 : p.length);
    byte[] out = new byte[len];
    int i = putLong(out, 0, t.generation());
    out[i++] = ' ';
    i = putLong(out, i, t.firings());
    out[i++] = ' ';
    putDueHex(out, i, t.nextDueAt());
    i += 16;
    out[i++] = ' ';
    for (int k = 0; k < topicLen; k++) {
      out[i++] = (byte) topic.charAt(k);
    }
    out[i++] = ' ';
    i = putLong(out, i, kind);
    out[i++] = ' ';
    i = putLong(out, i, misfire);
    out[i++] = ' ';
    i = putLong(out, i, t.delayMs());
    out[i++] = ' ';
    i = putLong(out, i, t.periodMs());
    out[i++] = ' ';
    i = putLong(out, i, t.maxFirings());
    out[i++] = ' ';
    i = putLong(out, i, t.createdAt());
    out[i++] = '\n';
    out[i++] = (byte) (p == null ? 'N' : 'P');
    if (p != null) {
      System.arraycopy(p, 0, out, i, p.length);
    }
    return out;
  }

  /** The number of characters of {@code Long.toString(v)}. */
  static int digits(long v) {
    if (v < 0) {
      return v == Long.MIN_VALUE ? 20 : 1 + digits(-v);
    }
    int n = 1;
    while (v >= 10) {
      v /= 10;
      n++;
    }
    return n;
  }

  /** Writes {@code Long.toString(v)} as ASCII at {@code b[at]}; returns the index after it. */
  static int putLong(byte[] b, int at, long v) {
    if (v == Long.MIN_VALUE) {
      byte[] min = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
      System.arraycopy(min, 0, b, at, min.length);
      return at + min.length;
    }
    if (v < 0) {
      b[at++] = '-';
      v = -v;
    }
    int end = at + digits(v);
    for (int k = end - 1; k >= at; k--) {
      b[k] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    }
    return end;
  }

  /** The payload in a payload segment ({@code N} or {@code P...}), or {@code null}. */
  public static String payloadOf(byte[] seg, int from) {
    if (from >= seg.length) {
      throw new IllegalArgumentException("payload segment is empty");
    }
    if (seg[from] == 'N') {
      return null;
    }
    if (seg[from] != 'P') {
      throw new IllegalArgumentException("payload segment starts with " + (char) seg[from]);
    }
    return new String(seg, from + 1, seg.length - from - 1, StandardCharsets.UTF_8);
  }

  /**
   * Decodes a value written by {@link #encode} (or by a script from a header and a payload segment).
   *
   * @throws IllegalArgumentException naming the id when the value is not a timer record
   */
  public static Timer decode(String id, byte[] v) {
    try {
      Cursor c = new Cursor(v);
      long gen = c.nextLong();
      long firings = c.nextLong();
      long due = parseDueHex(c.nextToken());
      String topic = Topics.canonical(c.nextToken());
      Kind kind = KINDS[(int) c.nextLong()];
      Misfire misfire = MISFIRES[(int) c.nextLong()];
      long delay = c.nextLong();
      long period = c.nextLong();
      long max = c.nextLong();
      long created = c.nextLong();
      Timer.Extras extras = null;
      if (c.pos <= v.length && v[c.pos - 1] == ' ') {
        int nl = c.pos;
        while (nl < v.length && v[nl] != '\n') {
          nl++;
        }
        if (nl >= v.length) {
          throw new IllegalArgumentException("no newline after the header");
        }
        extras = parseExtras(new String(v, c.pos, nl - c.pos, StandardCharsets.UTF_8));
        c.pos = nl + 1;
      } else if (c.pos >= v.length || v[c.pos - 1] != '\n') {
        throw new IllegalArgumentException("no newline after the header");
      }
      String payload = payloadOf(v, c.pos);
      return new Timer(id, topic, kind, delay, period, max, misfire, payload, created, due, firings, gen, extras);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("stored record of timer \"" + id + "\" is malformed: " + e.getMessage(), e);
    }
  }

  /** Reads space/newline separated ASCII tokens. */
  static final class Cursor {
    private final byte[] b;
    int pos;

    Cursor(byte[] b) {
      this.b = b;
    }

    String nextToken() {
      int start = pos;
      while (pos < b.length && b[pos] != ' ' && b[pos] != '\n') {
        pos++;
      }
      if (pos == start) {
        throw new IllegalArgumentException("empty field at byte " + start);
      }
      String s = new String(b, start, pos - start, StandardCharsets.US_ASCII);
      pos++; // skip the separator
      return s;
    }

    long nextLong() {
      int start = pos;
      boolean neg = false;
      if (pos < b.length && b[pos] == '-') {
        neg = true;
        pos++;
      }
      long r = 0;
      int digits = 0;
      while (pos < b.length && b[pos] >= '0' && b[pos] <= '9') {
        r = r * 10 + (b[pos] - '0');
        pos++;
        digits++;
      }
      if (digits == 0 || digits > 19 || (pos < b.length && b[pos] != ' ' && b[pos] != '\n')) {
        throw new IllegalArgumentException("bad number at byte " + start);
      }
      pos++;
      return neg ? -r : r;
    }
  }
}
