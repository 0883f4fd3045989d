package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.Topics;
import org.junit.jupiter.api.Test;

class CodecTest {

  private final Timer timer = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"välue ☃\"}", 11, 22, 3, 4);

  @Test
  void timerRoundTripsThroughTheBinaryCodec() {
    assertThat(Codec.decodeTimer(Codec.encodeTimer(timer))).isEqualTo(timer);
    assertThat(Codec.decodeTimer(Codec.encodeTimer(timer.withoutPayload()))).isEqualTo(timer.withoutPayload());
  }

  @Test
  void firingRoundTripsThroughTheBinaryCodec() {
    Firing f = new Firing(42, "id", "t", 3, 100, 105, "[1]");
    assertThat(Codec.decodeFiring(Codec.encodeFiring(f))).isEqualTo(f);
    Firing noPayload = new Firing(1, "id", "t", 1, 100, 105, null);
    assertThat(Codec.decodeFiring(Codec.encodeFiring(noPayload))).isEqualTo(noPayload);
  }

  @Test
  void anUnknownRecordVersionIsRefused() {
    byte[] bytes = Codec.encodeTimer(timer);
    bytes[0] = 99;
    assertThatThrownBy(() -> Codec.decodeTimer(bytes)).hasMessageContaining("version 99");
  }

  @Test
  void decodedTimersOfOneTopicShareTheCanonicalTopicString() {
    Timer t = new Timer("t1", new String("orders"), Kind.ONCE, 5, 0, 0, Misfire.FIRE_ONCE, null, 0, 5, 0, 1);
    Timer decoded = Codec.decodeTimer(Codec.encodeTimer(t));
    assertThat(decoded).isEqualTo(t);
    assertThat(decoded.topic()).isSameAs(Topics.canonical(new String("orders")));
  }
}
