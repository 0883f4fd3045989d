package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cutting a byte stream into numbered lines, whatever the chunk boundaries, with the line cap. */
class NdjsonLinesTest {

  /** Feeds {@code text} in chunks of {@code size} bytes; returns the lines as text ({@code "<too long>"} for those). */
  static List<String> cut(String text, int size, int max) {
    NdjsonLines lines = new NdjsonLines(max);
    List<String> out = new ArrayList<>();
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < b.length; i += size) {
      Buffer chunk = Buffer.buffer().appendBytes(b, i, Math.min(size, b.length - i));
      lines.feed(chunk).forEach(l -> out.add(show(l, out.size() + 1)));
    }
    NdjsonLines.Line last = lines.end();
    if (last != null) {
      out.add(show(last, out.size() + 1));
    }
    return out;
  }

  static String show(NdjsonLines.Line l, int expected) {
    assertThat(l.number()).isEqualTo(expected);
    return l.tooLong() ? "<too long>" : l.bytes().toString();
  }

  @Test
  void linesComeOutTheSameWhateverTheChunks() {
    String text = "{\"a\":1}\r\n\n{\"b\":\"é\"}\n" + "x".repeat(40) + "\nlast";
    for (int size = 1; size <= text.length() + 1; size++) {
      assertThat(cut(text, size, 100)).as("chunks of %d", size)
          .containsExactly("{\"a\":1}", "", "{\"b\":\"é\"}", "x".repeat(40), "last");
    }
  }

  @Test
  void aLineOverTheCapIsReportedAndSkippedAndTheNextOnesGoOn() {
    String text = "ok1\n" + "y".repeat(30) + "\nok2\n" + "z".repeat(11) + "\n" + "w".repeat(10) + "\n";
    for (int size = 1; size <= 8; size++) {
      assertThat(cut(text, size, 10)).as("chunks of %d", size)
          .containsExactly("ok1", "<too long>", "ok2", "<too long>", "w".repeat(10));
    }
    assertThat(cut("v".repeat(25), 4, 10)).containsExactly("<too long>");
    assertThat(cut("", 4, 10)).isEmpty();
    assertThat(cut("a\n", 4, 10)).containsExactly("a");
  }
}
