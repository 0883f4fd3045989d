package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.model.Jitter;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Version 4 timer records over arbitrary field values: what is written reads back, and a re-arm patches exactly. */
class CodecProperties {

  @Property(tries = 2000)
  void everyTimerReadsBackAsWritten(@ForAll("timers") Timer t) {
    byte[] bytes = Codec.encodeTimer(t);
    assertThat(Codec.decodeTimer(Keys.id(t.id()), bytes)).isEqualTo(t);
    Codec.Head head = Codec.decodeHead(Keys.id(t.id()), bytes);
    assertThat(head).usingRecursiveComparison().ignoringFields("stored").isEqualTo(Codec.Head.of(t));
  }

  @Property(tries = 2000)
  void aReArmIsWhatEncodingTheNextStateGivesOrNothing(@ForAll("timers") Timer t, @ForAll long due,
      @ForAll long nominal) {
    Timer next = t.fired(nominal, due);
    byte[] patched = Codec.rearmed(Codec.encodeTimer(t), next);
    if (t.jitterMs() == 0) {
      assertThat(patched).isEqualTo(Codec.encodeTimer(next));
    } else {
      assertThat(patched).isNull();
    }
  }

  @Provide
  Arbitrary<Timer> timers() {
    Arbitrary<String> ids = Arbitraries.strings().ascii().ofMinLength(1).ofMaxLength(40);
    Arbitrary<String> texts = Arbitraries.strings().ofMaxLength(60);
    Arbitrary<Long> numbers = Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-300, 300),
        Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, 63L, 64L, -65L, 1_795_000_000_000L));
    Arbitrary<Callback> callbacks = Combinators.combine(
        Arbitraries.of("http://h/", "https://hooks.example.com/x?q=é"),
        Arbitraries.integers().between(Callback.MIN_TIMEOUT_MS, Callback.MAX_TIMEOUT_MS),
        Arbitraries.integers().between(Callback.MIN_ATTEMPTS, Callback.MAX_ATTEMPTS),
        Arbitraries.longs().between(Callback.MIN_BACKOFF_MS, Callback.MAX_BACKOFF_MS),
        Arbitraries.of(true, false))
        .as((url, timeout, attempts, min, backoff) -> backoff
            ? new Callback(url, timeout, attempts, min, Callback.MAX_BACKOFF_MS)
            : new Callback(url, timeout, attempts, Callback.NO_BACKOFF, Callback.NO_BACKOFF));
    Arbitrary<Timer.Extras> extras = Combinators.combine(numbers, Arbitraries.longs().between(0, Jitter.MAX_JITTER_MS),
        Arbitraries.of(true, false), numbers, callbacks.injectNull(0.5))
        .as((end, jitter, paused, nominal, cb) -> new Timer.Extras(null, end, jitter, paused, nominal, cb));
    return Combinators.combine(ids, texts, Arbitraries.of(Kind.ONCE, Kind.FIXED_RATE, Kind.FIXED_DELAY),
        numbers.list().ofSize(7), Arbitraries.of(Misfire.values()), texts.injectNull(0.2), extras.injectNull(0.4))
        .as((id, topic, kind, n, misfire, payload, x) -> new Timer(id, topic, kind, n.get(0), n.get(1), n.get(2),
            misfire, payload, n.get(3), n.get(4), n.get(5), n.get(6), x));
  }
}
