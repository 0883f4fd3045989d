package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Firing;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A firing push on the wire: what {@link FiringPush#start}, {@link FiringPush#part} and {@link FiringPush#end} write
 * (with each firing's {@link FiringPush#firingText}) reads back as the same push, whatever the ids, topics and
 * payloads hold; and a body that is not a push is refused naming what is wrong.
 */
class FiringPushProperties {

  static final int PARTITIONS = 64;

  /** One partition's stretch to write: its firings' seqs are after + 1 + the gaps before each. */
  record Stretch(int partition, long after, List<Firing> firings, long extra) {}

  @Property(tries = 300)
  void aWrittenPushReadsBackAsWritten(@ForAll("nodes") String node, @ForAll("versions") long version,
      @ForAll("stretches") List<Stretch> stretches) {
    StringBuilder out = FiringPush.start(node, version);
    List<FiringPush.Part> expected = new ArrayList<>();
    for (int i = 0; i < stretches.size(); i++) {
      Stretch s = stretches.get(i);
      List<String> texts = new ArrayList<>();
      for (Firing f : s.firings()) {
        texts.add(FiringPush.firingText(f));
      }
      long upTo = (s.firings().isEmpty() ? s.after() : s.firings().get(s.firings().size() - 1).seq()) + s.extra();
      FiringPush.part(out, i == 0, s.partition(), s.after(), upTo, texts);
      expected.add(new FiringPush.Part(s.partition(), s.after(), upTo, s.firings()));
    }
    FiringPush read = FiringPush.decode(FiringPush.end(out), PARTITIONS);
    assertThat(read).isEqualTo(new FiringPush(node, version, expected));
  }

  @Example
  void aBodyThatIsNotAPushIsRefusedNamingWhatIsWrong() {
    assertRefused("[]", "a firing push must be a JSON object");
    assertRefused("{\"node\":\"n\",\"version\":1", "a firing push must be a JSON object");
    assertRefused("{\"node\":1,\"version\":1,\"parts\":[]}", "needs node (a string), version (a number) and parts");
    assertRefused("{\"node\":\"n\",\"parts\":[]}", "needs node (a string), version (a number) and parts");
    assertRefused("{\"node\":\"n\",\"version\":1,\"parts\":{}}", "needs node (a string), version (a number) and parts");
    assertRefused(push("[64,0,1,[]]"), "parts[0]: partition 64 (of 64), after 0, upTo 1 do not name a stretch");
    assertRefused(push("[1,5,5,[]]"), "parts[0]: partition 1 (of 64), after 5, upTo 5 do not name a stretch");
    assertRefused(push("[1,-1,5,[]]"), "parts[0]: partition 1 (of 64), after -1, upTo 5");
    assertRefused(push("[1,0,5,[]],[2,0,9,[[3,\"i\",\"t\",1,2,3,null,2],[3,\"j\",\"t\",1,2,3,null,2]]]"),
        "parts[1]: seq 3 is not in order within (0, 9]");
    assertRefused(push("[2,0,9,[[10,\"i\",\"t\",1,2,3,null,2]]]"), "parts[0]: seq 10 is not in order within (0, 9]");
    assertRefused(push("[2,0,9,[[1,null,\"t\",1,2,3,null,2]]]"), "parts[0] is not [partition, after, upTo, [firing");
    assertRefused(push("[2,0,9,[[1,\"i\",\"t\",1,2]]]"), "parts[0] is not [partition, after, upTo, [firing");
    assertRefused(push("[2,0,9]"), "parts[0] is not [partition, after, upTo, [firing");
    assertRefused(push("\"x\""), "parts[0] is not [partition, after, upTo, [firing");
  }

  private static String push(String parts) {
    return "{\"node\":\"n\",\"version\":1,\"parts\":[" + parts + "]}";
  }

  private static void assertRefused(String body, String message) {
    assertThatThrownBy(() -> FiringPush.decode(Buffer.buffer(body), PARTITIONS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Provide
  Arbitrary<String> nodes() {
    return Arbitraries.strings().ofMinLength(1).ofMaxLength(20);
  }

  @Provide
  Arbitrary<Long> versions() {
    return Arbitraries.longs().between(-1, Long.MAX_VALUE);
  }

  @Provide
  Arbitrary<List<Stretch>> stretches() {
    Arbitrary<String> text = Arbitraries.strings().ofMaxLength(12);
    Arbitrary<String> payload = Arbitraries.oneOf(Arbitraries.just(null),
        text.map(t -> "{\"p\":" + io.vertx.core.json.Json.encode(t) + "}"), text);
    Arbitrary<long[]> times = Arbitraries.longs().between(0, 1L << 45).array(long[].class).ofSize(4);
    Arbitrary<List<Object[]>> firings = Combinators.combine(text.filter(t -> !t.isEmpty()), text, payload, times,
        Arbitraries.longs().between(0, 3)).as((id, topic, p, t, gap) -> new Object[] {id, topic, p, t, gap})
        .list().ofMaxSize(6);
    return Combinators.combine(Arbitraries.integers().between(0, PARTITIONS - 1), Arbitraries.longs().between(0,
        1L << 40), firings, Arbitraries.longs().between(0, 2)).as((p, after, fs, extra) -> {
          List<Firing> out = new ArrayList<>();
          long seq = after;
          for (Object[] f : fs) {
            seq += 1 + (long) f[4];
            long[] t = (long[]) f[3];
            out.add(new Firing(seq, (String) f[0], (String) f[1], t[0], t[1], t[2], (String) f[2], t[3]));
          }
          return new Stretch(p, after, out, out.isEmpty() ? 1 + extra : extra);
        }).list().ofMinSize(1).ofMaxSize(5);
  }
}
