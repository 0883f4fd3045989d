package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The broadcasts between nodes, both ways; a text that is none of them reads as {@code null}. */
class BroadcastCodecTest {

  static Firing firing(long seq, String payload) {
    return new Firing(seq, "id-" + seq, "t\"ö", 3, 1_000 + seq, 1_001 + seq, payload, 999 + seq);
  }

  @Test
  void everyBroadcastReadsBackAsWritten() {
    for (Broadcast b : List.of(new Broadcast.OwnershipChanged(), new Broadcast.PausedTopicsChanged(),
        new Broadcast.FiringsRecorded(7, 12345678901L), BroadcastCodec.firings(3, List.of(firing(4, "[1]"))))) {
      assertThat(BroadcastCodec.decode(BroadcastCodec.encode(b))).isEqualTo(b);
    }
    assertThat(BroadcastCodec.encode(new Broadcast.OwnershipChanged())).isEqualTo("m");
    assertThat(BroadcastCodec.encode(new Broadcast.PausedTopicsChanged())).isEqualTo("t");
    assertThat(BroadcastCodec.encode(new Broadcast.FiringsRecorded(2, 9))).isEqualTo("f 2 9");
  }

  @Test
  void consecutiveFiringsTravelWholeWithThePayloadTextAndEveryFieldAsRecorded() {
    List<Firing> batch = List.of(firing(7, "{\"a\":\"x\\\"y é\"}"), firing(8, null), firing(9, "[1,2]"));
    String m = BroadcastCodec.encode(BroadcastCodec.firings(5, batch));
    assertThat(m).startsWith("F 5 7 9 ");
    Broadcast.Firings f = (Broadcast.Firings) BroadcastCodec.decode(m);
    assertThat(BroadcastCodec.firings(f)).isEqualTo(batch);
    assertThat(BroadcastCodec.firings(new Broadcast.Firings(5, 6, 8, f.encodedFirings())))
        .as("other seqs than announced").isNull();
    assertThat(BroadcastCodec.firings(new Broadcast.Firings(5, 7, 7, "[[7,"))).as("malformed").isNull();
  }

  @Test
  void aBatchOverThirtyTwoKibOrWithAGapInItsSeqsIsAnnouncedAsAHintOnly() {
    List<Firing> big = new ArrayList<>();
    for (long s = 1; s <= 100; s++) {
      big.add(firing(s, "\"" + "x".repeat(400) + "\""));
    }
    assertThat(BroadcastCodec.firings(2, big)).isEqualTo(new Broadcast.FiringsRecorded(2, 100));
    assertThat(BroadcastCodec.firings(2, List.of(firing(4, null), firing(6, null))))
        .isEqualTo(new Broadcast.FiringsRecorded(2, 6));
  }

  @Test
  void anInterestReadsBackWithItsTopicsOrAsEveryTopic() {
    Broadcast.Interest named = new Broadcast.Interest("n1", "http://127.0.0.1:8080", 1234567890123L, false,
        List.of("orders", "a \"b\" ö"));
    assertThat(BroadcastCodec.decode(BroadcastCodec.encode(named))).isEqualTo(named);
    Broadcast.Interest all = new Broadcast.Interest("n2", "http://h:1", 5, true, List.of());
    assertThat(BroadcastCodec.encode(all)).isEqualTo("i 5 n2 http://h:1 [\"*\"]");
    assertThat(BroadcastCodec.decode(BroadcastCodec.encode(all))).isEqualTo(all);
    Broadcast.Interest none = new Broadcast.Interest("n3", "http://h:2", 6, false, List.of());
    assertThat(BroadcastCodec.decode(BroadcastCodec.encode(none))).isEqualTo(none);
  }

  @Test
  void aTextThatIsNoBroadcastReadsAsNothing() {
    for (String s : List.of("", "x", "f", "f 1", "f a 2", "f -1 2", "F 1 2", "F 1 5 4 []", "F x 1 2 []", "M", "tt",
        "i", "i 1 n", "i 1 n a", "i x n a []", "i 1 n a {}", "i 1 n a [1]", "i 1  a []")) {
      assertThat(BroadcastCodec.decode(s)).as(s).isNull();
    }
    assertThat(BroadcastCodec.decode(null)).isNull();
  }
}
