package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyIndexTest {

  private final Entries entries = new Entries(0);
  private final KeyIndex index = new KeyIndex(0);

  private int add(String key) {
    int id = entries.allocate(key, null, 0);
    index.add(key.hashCode(), id);
    return id;
  }

  private int find(String key) {
    return index.find(key, key.hashCode(), entries);
  }

  private void remove(String key, int id) {
    index.remove(key.hashCode(), id);
    entries.release(id);
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
    int a = add("a");
    assertThat(find("a")).isEqualTo(a);
    assertThat(find(new String("a"))).isEqualTo(a);
    assertThat(find("b")).isEqualTo(KeyIndex.NONE);
    assertThat(index.size()).isEqualTo(1);
  }

  @Test
  void growsAndKeepsEveryKeyFindable() {
    assertThat(index.capacity()).isEqualTo(16);
    int[] ids = new int[10_000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = add("key-" + i);
    }
    assertThat(index.size()).isEqualTo(10_000);
    assertThat(index.capacity()).isEqualTo(16_384);
    for (int i = 0; i < ids.length; i++) {
      assertThat(find("key-" + i)).isEqualTo(ids[i]);
    }
  }

  @Test
  void initialCapacityAvoidsGrowing() {
    assertThat(new KeyIndex(1_000).capacity()).isEqualTo(2_048);
  }

  @Test
  void removalInAnyOrderWithinOneCollisionRunKeepsTheOthersFindable() {
    List<String> keys = collidingKeys(8);   // 256 keys, one hash code
    Map<String, Integer> ids = new HashMap<>();
    for (String k : keys) {
      ids.put(k, add(k));
    }
    Collections.shuffle(keys, new Random(42));
    for (int i = 0; i < keys.size(); i++) {
      remove(keys.get(i), ids.get(keys.get(i)));
      assertThat(find(keys.get(i))).isEqualTo(KeyIndex.NONE);
      for (int j = i + 1; j < keys.size(); j += 17) {
        assertThat(find(keys.get(j))).isEqualTo(ids.get(keys.get(j)));
      }
    }
    assertThat(index.size()).isZero();
  }

  @Test
  void churnOfAddAndRemoveAgreesWithAReferenceMapAndReusesIds() {
    Map<String, Integer> reference = new HashMap<>();
    Random random = new Random(7);
    int mismatches = 0;
    for (int step = 0; step < 100_000; step++) {
      String key = "k" + random.nextInt(3_000);
      Integer present = reference.get(key);
      if (find(key) != (present == null ? KeyIndex.NONE : present)) {
        mismatches++;
      }
      if (present == null) {
        reference.put(key, add(key));
      } else {
        remove(key, present);
        reference.remove(key);
      }
    }
    assertThat(mismatches).isZero();
    assertThat(index.size()).isEqualTo(reference.size());
    assertThat(index.capacity()).isLessThanOrEqualTo(8_192);
    assertThat(entries.capacity()).isLessThanOrEqualTo(4_000);
  }

  @Test
  void releasedEntryIdIsReusedFirstWithTheNewKeyAndValue() {
    int a = entries.allocate("a", "va", 5);
    int b = entries.allocate("b", "vb", 6);
    entries.release(a);
    assertThat(entries.allocate("c", "vc", 7)).isEqualTo(a);
    assertThat(entries.due(a)).isEqualTo(7);
    assertThat(entries.keyAt(a)).isEqualTo("c");
    assertThat(entries.keyEquals(a, "a")).isFalse();
    assertThat(entries.valueAt(a, "c")).isEqualTo("vc");
    assertThat(entries.keyAt(b)).isEqualTo("b");
    assertThat(entries.valueAt(b, "b")).isEqualTo("vb");
  }

  @Test
  void linksHoldAnyPairOfIdsIncludingNil() {
    int id = entries.allocate("a", null, 0);
    entries.setLinks(id, Entries.NIL, 123_456_789);
    assertThat(entries.prev(id)).isEqualTo(Entries.NIL);
    assertThat(entries.next(id)).isEqualTo(123_456_789);
    entries.setPrev(id, 42);
    entries.setNext(id, Entries.NIL);
    assertThat(entries.prev(id)).isEqualTo(42);
    assertThat(entries.next(id)).isEqualTo(Entries.NIL);
  }
}
