package io.tickwheel.server.push;

import java.nio.charset.StandardCharsets;

/**
 * Encodes the cluster cursors (the format is {@link FiringCursor}'s) of one position that moves a partition or a few
 * at a time, re-encoding only what changed since the last call: a publish moves one partition, which changes two
 * varints (its difference to the previous partition and the next one's to it) and the few base64 characters over
 * them. When a changed varint's length changes, everything after it is rewritten. No byte stream, no {@code Base64}
 * encoder: the varints and their base64url characters are kept in arrays, and the cursor is a string of the latter.
 *
 * <p>Holds about 35 bytes per partition (a copy of the seqs, their offsets, the longest cursor's bytes and
 * characters). Not thread safe: one owner (the hub's context, or a subscriber's).
 */
final class CursorEncoder {

  /** The base64url alphabet (RFC 4648 §5), as Latin-1 bytes. */
  private static final byte[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(StandardCharsets.ISO_8859_1);

  /** The seqs last encoded (a copy). */
  private long[] seqs = new long[0];
  /** The varints: the partition count, then each partition's zigzagged difference. */
  private byte[] bytes = new byte[0];
  /** {@code at[p]}: where partition {@code p}'s varint starts in {@link #bytes}; {@code at[n]}: their end. */
  private int[] at = new int[1];
  /** {@code 'c'} and the base64url (no padding) of {@link #bytes}, as Latin-1. */
  private byte[] chars = new byte[0];
  /** The cursor of {@link #seqs}, or {@code null} before the first call. */
  private String cursor;

  /**
   * The cluster cursor of {@code s} (each {@code >= 0}). O(partitions) to find what changed since the last call,
   * O(changed) to re-encode it (the same string again if nothing changed).
   */
  String encode(long[] s) {
    int n = s.length;
    if (cursor == null || n != seqs.length) {
      allocate(n);
      System.arraycopy(s, 0, seqs, 0, n);
      at[0] = writeVarint(0, n);
      rewriteFrom(0);
      base64(0, at[n]);
      return cursor = string();
    }
    int lo = 0;
    while (lo < n && s[lo] == seqs[lo]) {
      lo++;
    }
    if (lo == n) {
      return cursor;
    }
    int hi = n - 1;
    while (s[hi] == seqs[hi]) {
      hi--;
    }
    System.arraycopy(s, lo, seqs, lo, hi - lo + 1);
    int last = Math.min(hi + 1, n - 1); // the next partition's difference changes too
    boolean sameLengths = true;
    for (int p = lo; p <= last && sameLengths; p++) {
      sameLengths = FiringCursor.varintLength(diff(p)) == at[p + 1] - at[p];
    }
    int oldEnd = at[n];
    if (sameLengths) {
      for (int p = lo; p <= last; p++) {
        writeVarint(at[p], diff(p));
      }
      base64(at[lo], at[last + 1]);
      return cursor = string();
    }
    rewriteFrom(lo);
    base64(at[lo], Math.max(oldEnd, at[n]));
    return cursor = string();
  }

  private void allocate(int n) {
    seqs = new long[n];
    at = new int[n + 1];
    int maxBytes = 10 + 10 * n;
    bytes = new byte[maxBytes];
    chars = new byte[1 + FiringCursor.base64Length(maxBytes)];
    chars[0] = FiringCursor.CLUSTER;
  }

  /** Partition {@code p}'s zigzagged difference to the previous partition (the first's to 0). */
  private long diff(int p) {
    return FiringCursor.zigzag(seqs[p] - (p == 0 ? 0 : seqs[p - 1]));
  }

  /** Writes the varints of partitions {@code from..n-1} from {@code at[from]} on, and their offsets. */
  private void rewriteFrom(int from) {
    int n = seqs.length;
    int end = at[from];
    for (int p = from; p < n; p++) {
      at[p] = end;
      end = writeVarint(end, diff(p));
    }
    at[n] = end;
  }

  private int writeVarint(int i, long v) {
    return FiringCursor.writeVarint(bytes, i, v);
  }

  /** Re-encodes the base64 groups over bytes {@code from..to-1} (clipped to the bytes in use). */
  private void base64(int from, int to) {
    int total = at[seqs.length];
    to = Math.min(to, total);
    byte[] a = ALPHABET;
    for (int g = from / 3 * 3; g < to; g += 3) {
      int c = 1 + g / 3 * 4;
      int b0 = bytes[g] & 0xFF;
      if (g + 2 < total) {
        int bits = (b0 << 16) | ((bytes[g + 1] & 0xFF) << 8) | (bytes[g + 2] & 0xFF);
        chars[c] = a[bits >>> 18];
        chars[c + 1] = a[(bits >>> 12) & 0x3F];
        chars[c + 2] = a[(bits >>> 6) & 0x3F];
        chars[c + 3] = a[bits & 0x3F];
      } else if (g + 1 < total) {
        int bits = (b0 << 8) | (bytes[g + 1] & 0xFF);
        chars[c] = a[bits >>> 10];
        chars[c + 1] = a[(bits >>> 4) & 0x3F];
        chars[c + 2] = a[(bits << 2) & 0x3F];
      } else {
        chars[c] = a[b0 >>> 2];
        chars[c + 1] = a[(b0 << 4) & 0x3F];
      }
    }
  }

  private String string() {
    return new String(chars, 0, 1 + FiringCursor.base64Length(at[seqs.length]), StandardCharsets.ISO_8859_1);
  }
}
