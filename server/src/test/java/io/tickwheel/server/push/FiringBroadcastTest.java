package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FiringBroadcastTest {

  static Firing firing(long seq, String payload) {
    return new Firing(seq, "id-" + seq, "t\"ö", 3, 1_000 + seq, 1_001 + seq, payload, 999 + seq);
  }

  @Test
  void consecutiveFiringsTravelWholeWithThePayloadTextAndEveryFieldAsRecorded() {
    List<Firing> batch = List.of(firing(7, "{\"a\":\"x\\\"y é\"}"), firing(8, null), firing(9, "[1,2]"));
    String m = FiringBroadcast.encode(5, batch);
    assertThat(m).startsWith("F 5 7 9 ");
    String body = m.substring("F 5 7 9 ".length());
    assertThat(FiringBroadcast.decode(body, 7, 9)).isEqualTo(batch);
    assertThat(FiringBroadcast.decode(body, 6, 8)).as("other seqs than announced").isNull();
    assertThat(FiringBroadcast.decode("[[7,", 7, 7)).as("malformed").isNull();
  }

  @Test
  void aBatchOverThirtyTwoKibOrWithAGapInItsSeqsIsAnnouncedAsAHintOnly() {
    List<Firing> big = new ArrayList<>();
    for (long s = 1; s <= 100; s++) {
      big.add(firing(s, "\"" + "x".repeat(400) + "\""));
    }
    assertThat(FiringBroadcast.encode(2, big)).isEqualTo("f 2 100");
    assertThat(FiringBroadcast.encode(2, List.of(firing(4, null), firing(6, null)))).isEqualTo("f 2 6");
  }
}
