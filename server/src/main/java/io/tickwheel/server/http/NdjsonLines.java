package io.tickwheel.server.http;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a byte stream into NDJSON lines ({@code \n}-terminated, a trailing {@code \r} dropped), numbered from 1, with a
 * cap: a line longer than {@code maxLineBytes} is not kept (its bytes are skipped up to its end) but reported as
 * {@link Line#tooLong()}, and the lines after it go on. Holds at most one unfinished line of at most
 * {@code maxLineBytes}. Not thread safe (one request's).
 */
final class NdjsonLines {

  /**
   * One line.
   *
   * @param number  its number, from 1, counting every line (blank ones too)
   * @param bytes   its bytes without the line end; {@code null} when it is too long
   */
  record Line(long number, Buffer bytes) {
    boolean tooLong() {
      return bytes == null;
    }
  }

  private final int maxLineBytes;
  private Buffer partial = Buffer.buffer();
  private boolean skipping;
  private long number;

  NdjsonLines(int maxLineBytes) {
    this.maxLineBytes = maxLineBytes;
  }

  /** The lines {@code chunk} completes, in order. */
  List<Line> feed(Buffer chunk) {
    List<Line> out = new ArrayList<>();
    int from = 0;
    int n = chunk.length();
    for (int i = 0; i < n; i++) {
      if (chunk.getByte(i) == '\n') {
        take(chunk, from, i);
        out.add(finish());
        from = i + 1;
      }
    }
    take(chunk, from, n);
    return out;
  }

  /** The last line when the stream ended without a line end, or {@code null} when there is none. */
  Line end() {
    if (partial.length() == 0 && !skipping) {
      return null;
    }
    return finish();
  }

  private void take(Buffer chunk, int from, int to) {
    if (skipping || from == to) {
      return;
    }
    if (partial.length() + (to - from) > maxLineBytes) {
      skipping = true;
      partial = Buffer.buffer();
      return;
    }
    partial.appendBuffer(chunk, from, to - from);
  }

  private Line finish() {
    number++;
    Line line;
    if (skipping) {
      line = new Line(number, null);
    } else {
      Buffer b = partial;
      if (b.length() > 0 && b.getByte(b.length() - 1) == '\r') {
        b = b.getBuffer(0, b.length() - 1);
      }
      line = new Line(number, b);
    }
    partial = Buffer.buffer();
    skipping = false;
    return line;
  }
}
