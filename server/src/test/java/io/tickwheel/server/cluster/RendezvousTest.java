package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RendezvousTest {

  static List<String> nodes(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add("node-" + i);
    }
    return out;
  }

  static Map<String, Integer> counts(String[] owners) {
    Map<String, Integer> c = new HashMap<>();
    for (String o : owners) {
      c.merge(o, 1, Integer::sum);
    }
    return c;
  }

  @Test
  void everyNodeGetsWithinThirtyFivePercentOfItsFairShareOf256PartitionsFor2To8Nodes() {
    for (int n = 2; n <= 8; n++) {
      Map<String, Integer> c = counts(Rendezvous.assign(nodes(n), 256));
      double fair = 256.0 / n;
      assertThat(c).hasSize(n);
      for (int k : c.values()) {
        assertThat((double) k).as("%d nodes: %s", n, c).isBetween(fair * 0.65, fair * 1.35);
      }
    }
  }

  @Test
  void everyNodeGetsWithinTenPercentOfItsFairShareOf4096Partitions() {
    Map<String, Integer> c = counts(Rendezvous.assign(nodes(3), 4096));
    for (int k : c.values()) {
      assertThat((double) k).as("%s", c).isBetween(4096 / 3.0 * 0.9, 4096 / 3.0 * 1.1);
    }
  }

  @Test
  void aJoiningNodeTakesOnlyPartitionsItNowOwnsAndNothingElseMoves() {
    String[] before = Rendezvous.assign(nodes(3), 256);
    String[] after = Rendezvous.assign(nodes(4), 256);
    int moved = 0;
    for (int p = 0; p < 256; p++) {
      if (!before[p].equals(after[p])) {
        assertThat(after[p]).isEqualTo("node-4");
        moved++;
      }
    }
    assertThat(moved).isEqualTo(counts(after).get("node-4")).isBetween(45, 83);
  }

  @Test
  void aLeavingNodeGivesUpOnlyItsOwnPartitions() {
    String[] before = Rendezvous.assign(nodes(4), 256);
    List<String> three = new ArrayList<>(nodes(4));
    three.remove("node-2");
    String[] after = Rendezvous.assign(three, 256);
    for (int p = 0; p < 256; p++) {
      if (!before[p].equals("node-2")) {
        assertThat(after[p]).isEqualTo(before[p]);
      } else {
        assertThat(after[p]).isNotEqualTo("node-2");
      }
    }
  }

  @Test
  void theAnswerDoesNotDependOnTheOrderOfTheMembers() {
    List<String> a = nodes(5);
    List<String> b = new ArrayList<>(a);
    java.util.Collections.reverse(b);
    assertThat(Arrays.asList(Rendezvous.assign(a, 300))).isEqualTo(Arrays.asList(Rendezvous.assign(b, 300)));
  }

  @Test
  void nobodyOwnsAnythingWithoutMembers() {
    assertThat(Rendezvous.assign(List.of(), 4)).containsOnlyNulls();
  }
}
