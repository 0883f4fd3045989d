package io.tickwheel.server.push;

import io.tickwheel.core.model.TopicRule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.ValidationException;
import io.vertx.core.Future;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The topic index and filters, without sockets: who a publish visits, and which seqs a topic brings. */
class TopicIndexTest {

  /** A subscriber with no transport: the index only needs its identity and its filter. */
  private static Subscriber subscriber() {
    return new Subscriber(null, null) {
      @Override
      boolean transportClosed() {
        return false;
      }

      @Override
      boolean transportFull() {
        return false;
      }

      @Override
      void writeFiring(EncodedFiring e) {}

      @Override
      void writeControl(Object message) {}

      @Override
      int controlSize(Object message) {
        return 0;
      }

      @Override
      Object gapNotice(int partition, long fromSeq, long toSeq) {
        return null;
      }

      @Override
      void closeSlowTransport() {}

      @Override
      void closeFailedTransport(Throwable cause) {}

      @Override
      Future<Void> closeShutdownTransport() {
        return Future.succeededFuture();
      }
    };
  }

  @Test
  void namedSubscribersAreListedUnderEachTopicAndWildcardOnesOnlyUnderTheWildcard() {
    TopicIndex index = new TopicIndex();
    Subscriber ab = subscriber();
    ab.topics.add(List.of("a", "b"), 0);
    Subscriber all = subscriber();
    all.topics.add(List.of("*", "a"), 0);
    index.update(ab, ab.topics);
    index.update(all, all.topics);

    assertThat(index.topic("a")).containsExactly(ab);
    assertThat(index.topic("b")).containsExactly(ab);
    assertThat(index.topic("c")).isEmpty();
    assertThat(index.wildcard()).containsExactly(all);
  }

  @Test
  void updateReplacesTheListingAndRemoveDropsEmptyTopics() {
    TopicIndex index = new TopicIndex();
    Subscriber s = subscriber();
    s.topics.add(List.of("a", "b"), 0);
    index.update(s, s.topics);
    s.topics.remove(List.of("a"));
    index.update(s, s.topics);

    assertThat(index.topic("a")).isEmpty();
    assertThat(index.topic("b")).containsExactly(s);
    assertThat(index.topics()).isEqualTo(1);

    index.remove(s);
    index.remove(s);
    assertThat(index.topics()).isZero();
    assertThat(index.wildcard()).isEmpty();
  }

  @Test
  void aTopicOnlyMatchesSeqsAfterTheOneItWasAddedAt() {
    TopicFilter f = new TopicFilter();
    f.add(List.of("a"), 10);
    f.add(List.of("b"), 20);
    f.add(List.of("a"), 99); // already there: keeps 10

    assertThat(f.matches("a", 10)).isFalse();
    assertThat(f.matches("a", 11)).isTrue();
    assertThat(f.matches("b", 15)).isFalse();
    assertThat(f.matches("b", 21)).isTrue();
    assertThat(f.matches("c", 100)).isFalse();

    f.add(List.of("*"), 50);
    assertThat(f.matches("c", 50)).isFalse();
    assertThat(f.matches("c", 51)).isTrue();
    assertThat(f.sorted()).containsExactly("*", "a", "b");
    assertThat(f.countNew(List.of("*", "a", "z"))).isEqualTo(1);
  }

  @Test
  void topicNamesAreCheckedAgainstTheContractPattern() {
    assertThat(TopicRule.checkSubscription("topics[0]", "orders.eu-1_x")).isEqualTo("orders.eu-1_x");
    assertThat(TopicRule.checkSubscription("topics[0]", "*")).isEqualTo("*");
    assertThatThrownBy(() -> TopicRule.checkSubscription("topics[3]", "a:b"))
        .isInstanceOf(ValidationException.class).hasMessageContaining("topics[3] \"a:b\"");
    assertThatThrownBy(() -> TopicRule.checkSubscription("topics[0]", "x".repeat(101)))
        .hasMessageContaining("not a valid topic");
    assertThatThrownBy(() -> TopicRule.checkSubscription("topics[1]", 5)).hasMessageContaining("was 5");
  }
}
