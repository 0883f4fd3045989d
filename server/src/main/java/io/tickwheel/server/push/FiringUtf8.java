package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.TimerJson;
import java.nio.charset.StandardCharsets;

/**
 * A pushed firing's wire text in UTF-8: the contract's firing JSON ({@link TimerJson#firingJson}), then
 * {@code partition} (in a cluster) and {@code cursor}.
 *
 * <p>When the id, topic and payload are ASCII (ids and topics always are; payloads usually are) and no number is
 * negative, the bytes are written straight into one array of the exact length: no builder, no intermediate string.
 * Otherwise the text is built as a string and encoded ({@link String#getBytes}), with the same result. The cursor
 * must be one this package made ({@link FiringCursor}: a decimal seq, or {@code c} and base64url), so ASCII; it is
 * not checked (a cluster cursor is a few hundred characters), except by an {@code assert}.
 *
 * <p>Stateless; thread safe.
 */
final class FiringUtf8 {

  private static final byte[] TYPE_SEQ = ascii("{\"type\":\"fired\",\"seq\":");
  private static final byte[] ID = ascii(",\"id\":\"");
  private static final byte[] TOPIC = ascii("\",\"topic\":\"");
  private static final byte[] FIRING = ascii("\",\"firing\":");
  private static final byte[] DUE_AT = ascii(",\"dueAt\":");
  private static final byte[] NOMINAL_AT = ascii(",\"nominalAt\":");
  private static final byte[] FIRED_AT = ascii(",\"firedAt\":");
  private static final byte[] PAYLOAD = ascii(",\"payload\":");
  private static final byte[] NULL = ascii("null");
  private static final byte[] PARTITION = ascii(",\"partition\":");
  private static final byte[] CURSOR = ascii(",\"cursor\":\"");
  private static final byte[] END = ascii("\"}");

  private FiringUtf8() {}

  /**
   * @param partition the firing's partition, written only when {@code clustered}
   * @param cursor    the cursor the firing carries: ASCII (see above)
   * @return the firing's wire text in UTF-8 (a new array, never changed afterwards)
   */
  static byte[] encode(Firing f, int partition, boolean clustered, String cursor) {
    String id = f.id();
    String topic = f.topic();
    String payload = f.payload();
    assert isAscii(cursor) : "a cursor is ASCII: " + cursor;
    if (!isAscii(id) || !isAscii(topic) || (payload != null && !isAscii(payload))
        || f.seq() < 0 || f.firing() < 0 || f.dueAt() < 0 || f.nominalAt() < 0 || f.firedAt() < 0 || partition < 0) {
      return viaString(f, partition, clustered, cursor);
    }
    int seqDigits = digits(f.seq());
    int firingDigits = digits(f.firing());
    int dueDigits = digits(f.dueAt());
    int nominalDigits = digits(f.nominalAt());
    int firedDigits = digits(f.firedAt());
    int partitionDigits = clustered ? digits(partition) : 0;
    int n = TYPE_SEQ.length + seqDigits + ID.length + id.length() + TOPIC.length + topic.length()
        + FIRING.length + firingDigits + DUE_AT.length + dueDigits + NOMINAL_AT.length + nominalDigits
        + FIRED_AT.length + firedDigits + PAYLOAD.length + (payload == null ? NULL.length : payload.length())
        + (clustered ? PARTITION.length + partitionDigits : 0) + CURSOR.length + cursor.length() + END.length;
    byte[] b = new byte[n];
    int o = put(b, 0, TYPE_SEQ);
    o = putDigits(b, o, f.seq(), seqDigits);
    o = put(b, o, ID);
    o = putAscii(b, o, id);
    o = put(b, o, TOPIC);
    o = putAscii(b, o, topic);
    o = put(b, o, FIRING);
    o = putDigits(b, o, f.firing(), firingDigits);
    o = put(b, o, DUE_AT);
    o = putDigits(b, o, f.dueAt(), dueDigits);
    o = put(b, o, NOMINAL_AT);
    o = putDigits(b, o, f.nominalAt(), nominalDigits);
    o = put(b, o, FIRED_AT);
    o = putDigits(b, o, f.firedAt(), firedDigits);
    o = put(b, o, PAYLOAD);
    o = payload == null ? put(b, o, NULL) : putAscii(b, o, payload);
    if (clustered) {
      o = put(b, o, PARTITION);
      o = putDigits(b, o, partition, partitionDigits);
    }
    o = put(b, o, CURSOR);
    o = putAscii(b, o, cursor);
    put(b, o, END);
    return b;
  }

  /** The same text built as a string and encoded: any text, any number. */
  static byte[] viaString(Firing f, int partition, boolean clustered, String cursor) {
    StringBuilder sb = new StringBuilder(256 + f.id().length() + f.topic().length() + cursor.length()
        + (f.payload() == null ? 0 : f.payload().length()));
    TimerJson.appendFiringFields(sb, f);
    if (clustered) {
      sb.append(",\"partition\":").append(partition);
    }
    return sb.append(",\"cursor\":\"").append(cursor).append("\"}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Decimal digits of {@code v >= 0}. */
  static int digits(long v) {
    int d = 1;
    for (long p = 10; d < 19 && v >= p; p *= 10) {
      d++;
    }
    return d;
  }

  private static int put(byte[] b, int o, byte[] src) {
    System.arraycopy(src, 0, b, o, src.length);
    return o + src.length;
  }

  /** Copies {@code s}, all ASCII, as its bytes (a plain array copy for a Latin-1 string). */
  @SuppressWarnings("deprecation")
  private static int putAscii(byte[] b, int o, String s) {
    s.getBytes(0, s.length(), b, o);
    return o + s.length();
  }

  /** Writes {@code v >= 0} in decimal: its {@code digits} ({@link #digits}) bytes. */
  private static int putDigits(byte[] b, int o, long v, int digits) {
    int end = o + digits;
    int i = end;
    do {
      b[--i] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    } while (v != 0);
    return end;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
