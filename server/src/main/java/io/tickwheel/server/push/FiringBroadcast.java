package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster broadcast a partition's owner sends after each recorded firing batch, so that the other nodes' feeds
 * ({@link ClusterFiringFeed}) publish the firings without reading the partition's log:
 * <ul>
 *   <li>{@code "F <partition> <firstSeq> <lastSeq> <firings>"} when the batch's firings encode within
 *       {@value #MAX_BODY_CHARS} characters: a JSON array of {@code [seq, id, topic, firing, dueAt, firedAt, payload,
 *       nominalAt]} arrays in seq order, consecutive seqs ({@code payload} the payload's JSON text as a string, or
 *       null);</li>
 *   <li>{@code "f <partition> <lastSeq>"} otherwise (a hint: the receivers read the log).</li>
 * </ul>
 * A receiver uses the firings only if they follow what it has published for the partition; otherwise (a lost
 * broadcast, a read in between) the message counts as a hint. The log stays the truth. Stateless, thread safe.
 */
public final class FiringBroadcast {

  /** Most characters of firings one broadcast carries (beyond: a hint). */
  public static final int MAX_BODY_CHARS = 32 * 1024;

  private FiringBroadcast() {}

  /** The broadcast for {@code firings} (applied, seq order, not empty) recorded in {@code partition}. */
  public static String encode(int partition, List<Firing> firings) {
    Firing first = firings.get(0);
    Firing last = firings.get(firings.size() - 1);
    if (last.seq() - first.seq() == firings.size() - 1) {
      JsonArray body = new JsonArray(new ArrayList<>(firings.size()));
      int chars = 0;
      for (Firing f : firings) {
        body.add(new JsonArray().add(f.seq()).add(f.id()).add(f.topic()).add(f.firing()).add(f.dueAt())
            .add(f.firedAt()).add(f.payload()).add(f.nominalAt()));
        chars += f.id().length() + f.topic().length() + (f.payload() == null ? 0 : f.payload().length()) + 64;
        if (chars > MAX_BODY_CHARS) {
          break;
        }
      }
      if (chars <= MAX_BODY_CHARS) {
        String text = body.encode();
        if (text.length() <= MAX_BODY_CHARS) {
          return "F " + partition + " " + first.seq() + " " + last.seq() + " " + text;
        }
      }
    }
    return "f " + partition + " " + last.seq();
  }

  /**
   * The firings of an {@code "F"} broadcast's body, or {@code null} if it is malformed or not the consecutive seqs
   * {@code firstSeq..lastSeq}.
   */
  static List<Firing> decode(String body, long firstSeq, long lastSeq) {
    try {
      JsonArray a = new JsonArray(body);
      if (a.size() != lastSeq - firstSeq + 1) {
        return null;
      }
      List<Firing> out = new ArrayList<>(a.size());
      for (int i = 0; i < a.size(); i++) {
        JsonArray f = a.getJsonArray(i);
        long seq = f.getLong(0);
        if (seq != firstSeq + i) {
          return null;
        }
        out.add(new Firing(seq, f.getString(1), f.getString(2), f.getLong(3), f.getLong(4), f.getLong(5),
            f.getString(6), f.getLong(7)));
      }
      return out;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
