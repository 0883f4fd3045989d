package io.tickwheel.core.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.CharArrayWriter;
import java.io.IOException;

/**
 * Encodes a decoded payload value (what Vert.x's JSON decoding yields: {@code JsonObject}, {@code JsonArray},
 * {@code String}, {@code Number}, {@code Boolean}) as compact JSON text, exactly as {@code Json.encode} does, but
 * with one reusable Jackson generator per thread instead of a new generator, writer and buffers per call. The
 * batch endpoint encodes one payload per timer (up to 10,000 per request), where creating a generator per payload
 * was a quarter of the batch decoding time.
 *
 * <p>Thread safe: each thread has its own encoder. A thread's buffer keeps the size of the largest payload it
 * encoded, up to {@link #KEEP_CHARS}; after a larger one the encoder is dropped and a fresh one made next time.
 */
final class PayloadJson {

  /** Largest buffer (chars) a thread keeps between calls. */
  static final int KEEP_CHARS = 64 * 1024;

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final ThreadLocal<Encoder> ENCODER = new ThreadLocal<>();

  private PayloadJson() {}

  /**
   * The compact JSON text of {@code value}.
   *
   * @throws EncodeException if the value cannot be encoded (a type JSON has no form for)
   */
  static String encode(Object value) {
    Encoder e = ENCODER.get();
    if (e == null) {
      e = new Encoder();
      ENCODER.set(e);
    }
    boolean keep = false;
    try {
      String s = e.encode(value);
      keep = s.length() <= KEEP_CHARS;
      return s;
    } catch (IOException ex) {
      throw new EncodeException("payload could not be encoded: " + ex.getMessage(), ex);
    } finally {
      if (!keep) {
        ENCODER.remove();    // after a failure its generator's state is unknown; after a huge payload, its buffer
      }
    }
  }

  /**
   * UTF-8 length of {@code s}, in bytes, without encoding it: what {@code s.getBytes(UTF_8).length} answers (an
   * unpaired surrogate counts 1 byte, the {@code '?'} that {@code getBytes} writes for it).
   */
  static int utf8Length(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2;      // 4 bytes for the pair of 2 chars
        i++;
      } else {
        bytes += Character.isSurrogate(c) ? 0 : 2;      // 3 bytes; a lone surrogate is written as '?': 1 byte
      }
    }
    return bytes;
  }

  private static final class Encoder {
    private final CharArrayWriter out = new CharArrayWriter(256);
    private final JsonGenerator gen;

    Encoder() {
      try {
        gen = FACTORY.createGenerator(out);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      gen.setRootValueSeparator(null);   // values follow each other with nothing between them
    }

    String encode(Object value) throws IOException {
      out.reset();
      JacksonCodec.encodeJson(value, gen);
      gen.flush();
      return out.toString();
    }
  }
}
