package io.tickwheel.core.wheel;

import java.nio.charset.StandardCharsets;

/**
 * A {@link ValueCodec} of strings for the wheel's tests: writes the due time it was given and the string's UTF-8
 * bytes, and on decode fails unless it is given back that due time (the wheel must decode a value with the due time
 * it was encoded for). Keeps by reference every string whose length is a multiple of three, and {@code null}, so a
 * wheel holds both kinds side by side.
 */
final class CheckingCodec implements ValueCodec<String> {

  int encoded;
  int decoded;

  @Override
  public int encodedLength(String value, long dueAtMs) {
    if (value == null || value.length() % 3 == 0) {
      return BY_REFERENCE;
    }
    return 8 + 2 + value.getBytes(StandardCharsets.UTF_8).length;
  }

  @Override
  public void encode(String value, long dueAtMs, byte[] into, int offset) {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 8; i++) {
      into[offset + i] = (byte) (dueAtMs >>> (56 - 8 * i));
    }
    into[offset + 8] = (byte) (b.length >>> 8);
    into[offset + 9] = (byte) b.length;
    System.arraycopy(b, 0, into, offset + 10, b.length);
    encoded++;
  }

  @Override
  public String decode(String key, long dueAtMs, byte[] from, int offset) {
    long due = 0;
    for (int i = 0; i < 8; i++) {
      due = due << 8 | (from[offset + i] & 0xFF);
    }
    if (due != dueAtMs) {
      throw new AssertionError(key + " encoded for due time " + due + ", decoded for " + dueAtMs);
    }
    int len = (from[offset + 8] & 0xFF) << 8 | (from[offset + 9] & 0xFF);
    decoded++;
    return new String(from, offset + 10, len, StandardCharsets.UTF_8);
  }
}
