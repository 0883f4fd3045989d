package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EntryIndexTest {

  private static TimerEntry<String> entry(String key) {
    return new TimerEntry<>(key, key.hashCode(), 0, key);
  }

  /** 2^n distinct strings with one and the same hash code ("Aa" and "BB" collide). */
  private static List<String> collidingKeys(int n) {
    List<String> keys = new ArrayList<>();
    for (int bits = 0; bits < (1 << n); bits++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < n; i++) {
        sb.append((bits & (1 << i)) != 0 ? "Aa" : "BB");
      }
      keys.add(sb.toString());
    }
    return keys;
  }

  @Test
  void findsWhatWasAddedAndNothingElse() {
    EntryIndex<String> index = new EntryIndex<>(0);
    TimerEntry<String> a = entry("a");
    index.add(a);
    assertThat(index.find("a", "a".hashCode())).isSameAs(a);
    assertThat(index.find("b", "b".hashCode())).isNull();
    assertThat(index.size()).isEqualTo(1);
  }

  @Test
  void growsAndKeepsEveryEntryFindable() {
    EntryIndex<String> index = new EntryIndex<>(0);
    assertThat(index.capacity()).isEqualTo(16);
    for (int i = 0; i < 10_000; i++) {
      index.add(entry("key-" + i));
    }
    assertThat(index.size()).isEqualTo(10_000);
    assertThat(index.capacity()).isEqualTo(32_768);
    for (int i = 0; i < 10_000; i++) {
      assertThat(index.find("key-" + i, ("key-" + i).hashCode())).isNotNull();
    }
  }

  @Test
  void initialCapacityAvoidsGrowing() {
    EntryIndex<String> index = new EntryIndex<>(1_000);
    assertThat(index.capacity()).isEqualTo(2_048);
  }

  @Test
  void removalInAnyOrderWithinOneCollisionRunKeepsTheOthersFindable() {
    List<String> keys = collidingKeys(8);   // 256 keys, one hash code
    EntryIndex<String> index = new EntryIndex<>(0);
    List<TimerEntry<String>> entries = new ArrayList<>();
    for (String k : keys) {
      TimerEntry<String> e = entry(k);
      entries.add(e);
      index.add(e);
    }
    Collections.shuffle(entries, new Random(42));
    for (int i = 0; i < entries.size(); i++) {
      index.remove(entries.get(i));
      assertThat(index.find(entries.get(i).key, entries.get(i).hash)).isNull();
      for (int j = i + 1; j < entries.size(); j += 17) {
        assertThat(index.find(entries.get(j).key, entries.get(j).hash)).isSameAs(entries.get(j));
      }
    }
    assertThat(index.size()).isZero();
  }

  @Test
  void churnOfAddAndRemoveKeepsTheIndexConsistentWithAReferenceSet() {
    EntryIndex<String> index = new EntryIndex<>(0);
    java.util.Map<String, TimerEntry<String>> reference = new java.util.HashMap<>();
    Random random = new Random(7);
    int mismatches = 0;
    for (int step = 0; step < 200_000; step++) {
      String key = "k" + random.nextInt(3_000);
      TimerEntry<String> present = reference.get(key);
      if (index.find(key, key.hashCode()) != present) {
        mismatches++;
      }
      if (present == null) {
        TimerEntry<String> e = entry(key);
        index.add(e);
        reference.put(key, e);
      } else {
        index.remove(present);
        reference.remove(key);
      }
    }
    assertThat(mismatches).isZero();
    assertThat(index.size()).isEqualTo(reference.size());
    assertThat(index.capacity()).isLessThanOrEqualTo(8_192);
  }
}
