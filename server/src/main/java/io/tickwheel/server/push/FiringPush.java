package io.tickwheel.server.push;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tickwheel.core.model.Firing;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a partition owner pushes to another node (a binary WebSocket message or a {@code POST} on {@value #PATH}):
 * for each partition, a stretch of its firing log ({@code after}, {@code upTo}] and, of the firings in it, those of
 * the topics the receiver wants, as the receiver announced them in its interest {@code version}. The receiver thereby
 * knows it has everything of that stretch its subscribers want, without reading the log.
 *
 * <p>JSON: {@code {"node":N,"version":V,"parts":[[partition,after,upTo,[FIRING,…]],…]}}, each firing
 * {@code [seq,id,topic,firing,dueAt,firedAt,payload,nominalAt]} ({@code payload} the payload's JSON text as a string,
 * or null), seqs increasing within ({@code after}, {@code upTo}]. Immutable.
 *
 * @param node    the sender's node id
 * @param version the receiver's interest version the firings were chosen by (the lowest, if several)
 * @param parts   per partition, one stretch
 */
public record FiringPush(String node, long version, List<Part> parts) {

  private static final JsonFactory FACTORY = new JsonFactory();

  /** The internal route firings are pushed to. */
  public static final String PATH = "/internal/v1/firings";

  /** Firings of partition {@code partition} after {@code after} up to {@code upTo} of the topics asked for. */
  public record Part(int partition, long after, long upTo, List<Firing> firings) {}

  public FiringPush {
    parts = List.copyOf(parts);
  }

  /** One firing's JSON text in a push (built once, shared by every receiver). */
  static String firingText(Firing f) {
    java.io.StringWriter out = new java.io.StringWriter(96 + (f.payload() == null ? 0 : f.payload().length()));
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartArray();
      g.writeNumber(f.seq());
      g.writeString(f.id());
      g.writeString(f.topic());
      g.writeNumber(f.firing());
      g.writeNumber(f.dueAt());
      g.writeNumber(f.firedAt());
      g.writeString(f.payload());    // null: a JSON null
      g.writeNumber(f.nominalAt());
      g.writeEndArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Starts the JSON text of a push from {@code node} tagged {@code version}; add parts, then {@link #end}. */
  static StringBuilder start(String node, long version) {
    return new StringBuilder(256).append("{\"node\":").append(io.vertx.core.json.Json.encode(node))
        .append(",\"version\":").append(version).append(",\"parts\":[");
  }

  /** Adds a part to a push begun by {@link #start}: {@code texts} are its firings' {@link #firingText}s. */
  static void part(StringBuilder out, boolean first, int partition, long after, long upTo, List<String> texts) {
    if (!first) {
      out.append(',');
    }
    out.append('[').append(partition).append(',').append(after).append(',').append(upTo).append(",[");
    for (int i = 0; i < texts.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(texts.get(i));
    }
    out.append("]]");
  }

  /** The body of a push begun by {@link #start}. */
  static Buffer end(StringBuilder out) {
    return Buffer.buffer(out.append("]}").toString());
  }

  /**
   * Reads a push (a streaming parse: no tree of the body is built). Fields other than {@code node}, {@code version}
   * and {@code parts}, and elements past a part's fourth or a firing's eighth, are ignored.
   *
   * @param partitions the cluster's partition count
   * @throws IllegalArgumentException naming what is wrong
   */
  public static FiringPush decode(Buffer body, int partitions) {
    String node = null;
    Long version = null;
    List<Part> parts = null;
    try (JsonParser p = FACTORY.createParser(body.getBytes())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("a firing push must be a JSON object");
      }
      boolean nodeOk = true;
      boolean versionOk = true;
      boolean partsOk = true;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "node" -> {
            nodeOk = v == JsonToken.VALUE_STRING;
            node = nodeOk ? p.getText() : null;
          }
          case "version" -> {
            versionOk = v.isNumeric();
            version = versionOk ? p.getLongValue() : null;
          }
          case "parts" -> {
            partsOk = v == JsonToken.START_ARRAY;
            parts = partsOk ? parts(p, partitions) : null;
          }
          default -> { }
        }
        p.skipChildren();
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IllegalArgumentException("a firing push must be a JSON object, and nothing after it");
      }
      if (!nodeOk || !versionOk || !partsOk || node == null || version == null || parts == null) {
        throw new IllegalArgumentException("a firing push needs node (a string), version (a number) and parts (an array)");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("a firing push must be a JSON object: " + e.getMessage());
    }
    return new FiringPush(node, version, parts);
  }

  /** The parts array, its opening read. */
  private static List<Part> parts(JsonParser p, int partitions) throws IOException {
    List<Part> parts = new ArrayList<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      int i = parts.size();
      if (t != JsonToken.START_ARRAY) {
        throw notAPart(i);
      }
      int partition = (int) number(p, i);
      long after = number(p, i);
      long upTo = number(p, i);
      if (partition < 0 || partition >= partitions || after < 0 || upTo <= after) {
        throw new IllegalArgumentException("parts[" + i + "]: partition " + partition + " (of " + partitions
            + "), after " + after + ", upTo " + upTo + " do not name a stretch of a log");
      }
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw notAPart(i);
      }
      List<Firing> firings = new ArrayList<>();
      long last = after;
      for (JsonToken f = p.nextToken(); f != JsonToken.END_ARRAY; f = p.nextToken()) {
        if (f != JsonToken.START_ARRAY) {
          throw notAPart(i);
        }
        long seq = number(p, i);
        if (seq <= last || seq > upTo) {
          throw new IllegalArgumentException("parts[" + i + "]: seq " + seq + " is not in order within (" + after
              + ", " + upTo + "]");
        }
        last = seq;
        String id = text(p, i, false);
        String topic = text(p, i, false);
        long firing = number(p, i);
        long dueAt = number(p, i);
        long firedAt = number(p, i);
        String payload = text(p, i, true);
        long nominalAt = number(p, i);
        end(p);
        firings.add(new Firing(seq, id, topic, firing, dueAt, firedAt, payload, nominalAt));
      }
      end(p);
      parts.add(new Part(partition, after, upTo, firings));
    }
    return parts;
  }

  /** The next element, a number (as a long). */
  private static long number(JsonParser p, int part) throws IOException {
    JsonToken t = p.nextToken();
    if (t == null || !t.isNumeric()) {
      throw notAPart(part);
    }
    return p.getLongValue();
  }

  /** The next element, a string (or null, if {@code nullable}). */
  private static String text(JsonParser p, int part, boolean nullable) throws IOException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (nullable && t == JsonToken.VALUE_NULL) {
      return null;
    }
    throw notAPart(part);
  }

  /** Skips the rest of the array whose elements were read. */
  private static void end(JsonParser p) throws IOException {
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t == null) {
        throw new java.io.EOFException("the body ends inside an array");
      }
      p.skipChildren();
    }
  }

  private static IllegalArgumentException notAPart(int i) {
    return new IllegalArgumentException("parts[" + i + "] is not [partition, after, upTo, [firing, …]]");
  }
}
