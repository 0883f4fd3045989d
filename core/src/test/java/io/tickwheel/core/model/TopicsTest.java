package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class TopicsTest {

  @Test
  void equalTopicsShareOneInstance() {
    String a = new String("billing-" + 17);
    String b = new String("billing-" + 17);
    assertThat(a).isNotSameAs(b);
    assertThat(Topics.canonical(a)).isSameAs(Topics.canonical(b)).isEqualTo("billing-17");
  }

  @Test
  void parsedTimersOfOneTopicShareTheTopicString() {
    TimerParser parser = new TimerParser(Limits.defaults(10));
    TimerSpec s1 = parser.parse(new JsonObject().put("topic", new String("orders")).put("delayMs", 5), 0);
    TimerSpec s2 = parser.parse(new JsonObject().put("topic", new String("orders")).put("delayMs", 5), 0);
    assertThat(s1.topic()).isSameAs(s2.topic()).isSameAs(Topics.canonical(new String("orders")));
  }
}
