package io.tickwheel.server.push;

import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import java.util.Base64;

/**
 * The resume cursor carried by every pushed firing: an opaque, URL-safe string naming a position in the firing
 * log, per partition.
 *
 * <h2>Formats</h2>
 * <ul>
 *   <li>Single node (one log): the decimal seq of the last firing, e.g. {@code "1234"}. So the integer {@code from}
 *       and {@code Last-Event-ID} of earlier versions are cursors too, and a browser's EventSource resumes across
 *       an upgrade.</li>
 *   <li>Cluster ({@code P} partitions): {@code "c"} followed by base64url (no padding) of unsigned LEB128 varints:
 *       {@code P}, then for each partition in order the zigzag-encoded difference between its seq and the previous
 *       partition's (the first against 0). Partitions fill evenly, so the differences are small: for 256
 *       partitions the cursor is 2 + 256 bytes (345 characters) at seq 0, 2 + 3 + 255 bytes (348 characters) at seqs
 *       around a million that differ by less than 64 between neighbours, and at
 *       most 2 + 256 * 10 bytes (3,417 characters) in the worst case ({@link #maxLength}).</li>
 * </ul>
 * A cursor names, per partition, the highest seq the stream accounted for (delivered, or passed over as another
 * topic's); resuming from it replays every retained firing after it, per partition.
 *
 * <p>Stateless; thread safe.
 */
final class FiringCursor {

  /** The first character of a cluster cursor (never a digit). */
  static final char CLUSTER = 'c';

  private FiringCursor() {}

  /** The single-node cursor of {@code seq}. */
  public static String single(long seq) {
    return Long.toString(seq);
  }

  /**
   * The cluster cursor of a position per partition ({@code seqs[p]} for partition {@code p}, each {@code >= 0}), for a
   * one-off cursor. A position that moves (a hub's, a subscriber's) keeps a {@link CursorEncoder}, which re-encodes
   * only what moved.
   */
  public static String encode(long[] seqs) {
    return new CursorEncoder().encode(seqs);
  }

  /** The longest cursor of {@code partitions} partitions (what the parser accepts at most). */
  static int maxLength(int partitions) {
    int bytes = 10 + partitions * 10;
    return 1 + (bytes * 4 + 2) / 3;
  }

  /**
   * Parses a cursor given in {@code field}.
   *
   * @param partitions how many partitions the log has (1 on a single node)
   * @param acceptSeq  whether a decimal seq is accepted (single node only)
   * @return the position per partition
   * @throws ValidationException naming {@code field} and the bad value: not a cursor, a cursor of another
   *                             partition count, a negative seq
   */
  public static long[] parse(String field, String value, int partitions, boolean acceptSeq) {
    if (value == null || value.isEmpty()) {
      throw bad(field, value, acceptSeq, "it is empty");
    }
    if (value.length() > maxLength(partitions)) {
      throw bad(field, value, acceptSeq, "it is " + value.length() + " characters long");
    }
    char first = value.charAt(0);
    if (first >= '0' && first <= '9') {
      if (!acceptSeq) {
        throw bad(field, value, false, "an integer seq names no position in a cluster's partitions");
      }
      try {
        return new long[] {Long.parseLong(value)};
      } catch (NumberFormatException e) {
        throw bad(field, value, true, "it is not an integer");
      }
    }
    if (first != CLUSTER) {
      throw bad(field, value, acceptSeq, "it does not start with a digit or '" + CLUSTER + "'");
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(value.substring(1));
    } catch (IllegalArgumentException e) {
      throw bad(field, value, acceptSeq, "it is not base64url");
    }
    int[] at = {0};
    long n = readVarint(bytes, at, field, value, acceptSeq);
    if (n != partitions) {
      throw bad(field, value, acceptSeq, "it names " + n + " partitions, this server has " + partitions);
    }
    long[] seqs = new long[partitions];
    long prev = 0;
    for (int p = 0; p < partitions; p++) {
      long z = readVarint(bytes, at, field, value, acceptSeq);
      long s = prev + ((z >>> 1) ^ -(z & 1));
      if (s < 0) {
        throw bad(field, value, acceptSeq, "partition " + p + " has a negative seq");
      }
      seqs[p] = s;
      prev = s;
    }
    if (at[0] != bytes.length) {
      throw bad(field, value, acceptSeq, "it has " + (bytes.length - at[0]) + " bytes too many");
    }
    return seqs;
  }

  /** The zigzag encoding of {@code d}: small magnitudes, either sign, become small unsigned values. */
  static long zigzag(long d) {
    return (d << 1) ^ (d >> 63);
  }

  /** How many bytes the unsigned LEB128 varint of {@code v} takes, 1..10. */
  static int varintLength(long v) {
    return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
  }

  /** How many base64 characters (no padding) {@code bytes} bytes take. */
  static int base64Length(int bytes) {
    return (bytes * 4 + 2) / 3;
  }

  /** Writes the unsigned LEB128 varint of {@code v} into {@code b} at {@code i}; returns where it ends. */
  static int writeVarint(byte[] b, int i, long v) {
    while ((v & ~0x7FL) != 0) {
      b[i++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[i++] = (byte) v;
    return i;
  }

  private static long readVarint(byte[] b, int[] at, String field, String value, boolean acceptSeq) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at[0] >= b.length) {
        throw bad(field, value, acceptSeq, "it is cut short");
      }
      int x = b[at[0]++];
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw bad(field, value, acceptSeq, "it holds a varint over 64 bits");
  }

  private static ValidationException bad(String field, String value, boolean acceptSeq, String why) {
    String shown = value == null ? "null"
        : TopicRule.quote(value.length() > 64 ? value.substring(0, 64) + "…" : value);
    return new ValidationException(field, field + " must be the cursor of a firing"
        + (acceptSeq ? " or the integer seq of the last firing you saw" : "") + ", was " + shown + ": " + why);
  }
}
