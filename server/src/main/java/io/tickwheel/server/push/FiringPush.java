package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What a partition owner pushes to another node (a binary WebSocket message or a {@code POST} on {@value #PATH}):
 * for each partition, a stretch of its firing log ({@code after}, {@code upTo}] and, of the firings in it, those of
 * the topics the receiver wants, as the receiver announced them in its interest {@code version}. The receiver thereby knows it has everything of that
 * stretch its subscribers want, without reading the log.
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

  /** The internal route firings are pushed to. */
  public static final String PATH = "/internal/v1/firings";

  /** Firings of partition {@code partition} after {@code after} up to {@code upTo} of the topics asked for. */
  public record Part(int partition, long after, long upTo, List<Firing> firings) {}

  public FiringPush {
    parts = List.copyOf(parts);
  }

  /** One firing's JSON text in a push (built once, shared by every receiver). */
  static String firingText(Firing f) {
    return new JsonArray().add(f.seq()).add(f.id()).add(f.topic()).add(f.firing()).add(f.dueAt()).add(f.firedAt())
        .add(f.payload()).add(f.nominalAt()).encode();
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
   * Reads a push.
   *
   * @param partitions the cluster's partition count
   * @throws IllegalArgumentException naming what is wrong
   */
  public static FiringPush decode(Buffer body, int partitions) {
    JsonObject o;
    try {
      o = body.toJsonObject();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("a firing push must be a JSON object: " + e.getMessage());
    }
    String node = o.getValue("node") instanceof String s ? s : null;
    if (node == null || !(o.getValue("version") instanceof Number v) || !(o.getValue("parts") instanceof JsonArray ps)) {
      throw new IllegalArgumentException("a firing push needs node (a string), version (a number) and parts (an array)");
    }
    List<Part> parts = new ArrayList<>(ps.size());
    for (int i = 0; i < ps.size(); i++) {
      parts.add(part(ps.getValue(i), partitions, i));
    }
    return new FiringPush(node, v.longValue(), parts);
  }

  private static Part part(Object value, int partitions, int i) {
    try {
      JsonArray a = (JsonArray) value;
      int p = a.getInteger(0);
      long after = a.getLong(1);
      long upTo = a.getLong(2);
      if (p < 0 || p >= partitions || after < 0 || upTo <= after) {
        throw new IllegalArgumentException("parts[" + i + "]: partition " + p + " (of " + partitions
            + "), after " + after + ", upTo " + upTo + " do not name a stretch of a log");
      }
      JsonArray fs = a.getJsonArray(3);
      List<Firing> firings = new ArrayList<>(fs.size());
      long last = after;
      for (int j = 0; j < fs.size(); j++) {
        JsonArray x = fs.getJsonArray(j);
        long seq = x.getLong(0);
        if (seq <= last || seq > upTo) {
          throw new IllegalArgumentException("parts[" + i + "]: seq " + seq + " is not in order within (" + after
              + ", " + upTo + "]");
        }
        last = seq;
        firings.add(new Firing(seq, x.getString(1), x.getString(2), x.getLong(3), x.getLong(4), x.getLong(5),
            x.getString(6), x.getLong(7)));
      }
      return new Part(p, after, upTo, firings);
    } catch (ClassCastException | NullPointerException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("parts[" + i + "] is not [partition, after, upTo, [firing, …]]");
    }
  }
}
