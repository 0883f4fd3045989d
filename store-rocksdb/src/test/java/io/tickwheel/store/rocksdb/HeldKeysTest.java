package io.tickwheel.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HeldKeysTest {

  /** Random keys of 1-12 bytes, many sharing an 8-byte prefix (a due time), bytes above 0x7f included. */
  private static List<byte[]> keys(Random r, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[1 + r.nextInt(12)];
      r.nextBytes(k);
      if (k.length > 8 && r.nextBoolean()) {
        Arrays.fill(k, 0, 8, (byte) 0x80);
      }
      out.add(k);
    }
    return out;
  }

  @Test
  void sortsKeysUnsignedWithTheirValuesAtEverySize() {
    Random r = new Random(42);
    for (int n : new int[] {0, 1, 2, 3, 15, 16, 17, 33, 100, 1000, 4097}) {
      List<byte[]> ks = keys(r, n);
      HeldKeys puts = new HeldKeys(true);
      HeldKeys deletes = new HeldKeys(false);
      for (int i = 0; i < n; i++) {
        puts.add(ks.get(i), ("v" + i).getBytes());
        deletes.add(ks.get(i), null);
      }
      puts.sort();
      deletes.sort();
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        order.add(i);
      }
      order.sort((a, b) -> Arrays.compareUnsigned(ks.get(a), ks.get(b)));
      assertThat(puts.size()).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        byte[] want = ks.get(order.get(i));
        assertThat(puts.key(i)).as("n=%d, key %d", n, i).isEqualTo(want);
        assertThat(deletes.key(i)).as("n=%d, key %d", n, i).isEqualTo(want);
        // the value is the one added with that key (random keys may repeat: any index holding an equal key)
        int addedAt = Integer.parseInt(new String(puts.value(i)).substring(1));
        assertThat(ks.get(addedAt)).isEqualTo(want);
        assertThat(deletes.value(i)).isNull();
      }
    }
  }

  @Test
  void keysAlreadyInOrderStayAsTheyAreAndAReversedRunIsTurned() {
    HeldKeys h = new HeldKeys(true);
    for (int i = 0; i < 100; i++) {
      h.add(new byte[] {0, (byte) i}, new byte[] {(byte) i});
    }
    h.sort();
    for (int i = 0; i < 100; i++) {
      assertThat(h.key(i)).containsExactly(0, i);
      assertThat(h.value(i)).containsExactly(i);
    }
    h.clear();
    for (int i = 199; i >= 0; i--) {
      h.add(new byte[] {(byte) i}, new byte[] {(byte) (i + 1)});
    }
    h.sort();
    for (int i = 0; i < 200; i++) {
      assertThat(h.key(i)).containsExactly(i);
      assertThat(h.value(i)).containsExactly(i + 1);
    }
  }

  @Test
  void clearForgetsEverythingAndTheHolderIsReusable() {
    HeldKeys h = new HeldKeys(false);
    h.add(new byte[] {2}, null);
    h.add(new byte[] {1}, null);
    h.clear();
    assertThat(h.size()).isZero();
    h.add(new byte[] {(byte) 0xff}, null);
    h.add(new byte[] {0x01}, null);
    h.sort();
    assertThat(h.key(0)).containsExactly(1);
    assertThat(h.key(1)).containsExactly(0xff);
  }
}
