package io.tickwheel.server.cluster;

import io.tickwheel.core.model.Firing;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of a {@link Broadcast}, both ways:
 * <ul>
 *   <li>{@code "m"}: {@link Broadcast.OwnershipChanged};</li>
 *   <li>{@code "t"}: {@link Broadcast.PausedTopicsChanged};</li>
 *   <li>{@code "f <partition> <lastSeq>"}: {@link Broadcast.FiringsRecorded};</li>
 *   <li>{@code "F <partition> <firstSeq> <lastSeq> <firings>"}: {@link Broadcast.Firings}, the firings a JSON array of
 *       {@code [seq, id, topic, firing, dueAt, firedAt, payload, nominalAt]} arrays in seq order ({@code payload} the
 *       payload's JSON text as a string, or null), at most {@value #MAX_BODY_CHARS} characters.</li>
 *   <li>{@code "i <version> <nodeId> <address> <topics>"}: {@link Broadcast.Interest}, the topics a JSON array of
 *       strings, {@code ["*"]} for every topic ({@code nodeId} and {@code address} without spaces).</li>
 * </ul>
 * Reading a text that is none of these (a node of another version, a bad number) gives {@code null}: receivers
 * ignore it. Stateless, thread safe.
 */
public final class BroadcastCodec {

  /** Most characters of firings one broadcast carries (beyond: {@link Broadcast.FiringsRecorded} only). */
  public static final int MAX_BODY_CHARS = 32 * 1024;

  private BroadcastCodec() {}

  /**
   * The broadcast for {@code firings} (applied, seq order, not empty) recorded in {@code partition}: the firings
   * themselves when their seqs are consecutive and they encode within {@value #MAX_BODY_CHARS} characters, else the
   * hint {@link Broadcast.FiringsRecorded}.
   */
  public static Broadcast firings(int partition, List<Firing> firings) {
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
          return new Broadcast.Firings(partition, first.seq(), last.seq(), text);
        }
      }
    }
    return new Broadcast.FiringsRecorded(partition, last.seq());
  }

  /** The text of {@code b}. */
  public static String encode(Broadcast b) {
    if (b instanceof Broadcast.OwnershipChanged) {
      return "m";
    }
    if (b instanceof Broadcast.PausedTopicsChanged) {
      return "t";
    }
    if (b instanceof Broadcast.FiringsRecorded r) {
      return "f " + r.partition() + " " + r.lastSeq();
    }
    if (b instanceof Broadcast.Interest i) {
      JsonArray topics = i.all() ? new JsonArray().add(ALL) : new JsonArray(new ArrayList<>(i.topics()));
      return "i " + i.version() + " " + i.nodeId() + " " + i.address() + " " + topics.encode();
    }
    Broadcast.Firings f = (Broadcast.Firings) b;
    return "F " + f.partition() + " " + f.firstSeq() + " " + f.lastSeq() + " " + f.encodedFirings();
  }

  /** The broadcast {@code text} stands for, or {@code null} if it is none (it is then ignored). */
  public static Broadcast decode(String text) {
    if (text == null) {
      return null;
    }
    if (text.equals("m")) {
      return new Broadcast.OwnershipChanged();
    }
    if (text.equals("t")) {
      return new Broadcast.PausedTopicsChanged();
    }
    try {
      if (text.startsWith("f ")) {
        int a = text.indexOf(' ', 2);
        if (a < 0) {
          return null;
        }
        int p = Integer.parseInt(text, 2, a, 10);
        long last = Long.parseLong(text, a + 1, text.length(), 10);
        return p < 0 ? null : new Broadcast.FiringsRecorded(p, last);
      }
      if (text.startsWith("i ")) {
        return interest(text);
      }
      if (text.startsWith("F ")) {
        int a = text.indexOf(' ', 2);
        int b = a < 0 ? -1 : text.indexOf(' ', a + 1);
        int c = b < 0 ? -1 : text.indexOf(' ', b + 1);
        if (c < 0) {
          return null;
        }
        int p = Integer.parseInt(text, 2, a, 10);
        long first = Long.parseLong(text, a + 1, b, 10);
        long last = Long.parseLong(text, b + 1, c, 10);
        return p < 0 || last < first ? null : new Broadcast.Firings(p, first, last, text.substring(c + 1));
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return null;
  }

  /** The topic that stands for every topic in an {@link Broadcast.Interest}. */
  public static final String ALL = "*";

  private static Broadcast interest(String text) {
    int a = text.indexOf(' ', 2);
    int b = a < 0 ? -1 : text.indexOf(' ', a + 1);
    int c = b < 0 ? -1 : text.indexOf(' ', b + 1);
    if (c < 0 || b == a + 1 || c == b + 1) {
      return null;
    }
    long version = Long.parseLong(text, 2, a, 10);
    JsonArray topics;
    try {
      topics = new JsonArray(text.substring(c + 1));
    } catch (RuntimeException e) {
      return null;
    }
    List<String> named = new ArrayList<>(topics.size());
    boolean all = false;
    for (Object t : topics) {
      if (!(t instanceof String s)) {
        return null;
      }
      if (ALL.equals(s)) {
        all = true;
      } else {
        named.add(s);
      }
    }
    return new Broadcast.Interest(text.substring(a + 1, b), text.substring(b + 1, c), version, all,
        all ? List.of() : named);
  }

  /**
   * The firings of {@code f}, or {@code null} if its body is malformed or not the consecutive seqs
   * {@code firstSeq..lastSeq} (a receiver then treats it as {@link Broadcast.FiringsRecorded}).
   */
  public static List<Firing> firings(Broadcast.Firings f) {
    try {
      JsonArray a = new JsonArray(f.encodedFirings());
      if (a.size() != f.lastSeq() - f.firstSeq() + 1) {
        return null;
      }
      List<Firing> out = new ArrayList<>(a.size());
      for (int i = 0; i < a.size(); i++) {
        JsonArray x = a.getJsonArray(i);
        long seq = x.getLong(0);
        if (seq != f.firstSeq() + i) {
          return null;
        }
        out.add(new Firing(seq, x.getString(1), x.getString(2), x.getLong(3), x.getLong(4), x.getLong(5),
            x.getString(6), x.getLong(7)));
      }
      return out;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
