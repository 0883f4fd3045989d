package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The cluster cursor's encoders against the wire format they must keep (a reference encoder: a byte stream of
 * LEB128 varints, then {@link Base64}'s url encoder without padding) and against {@link FiringCursor#parse}: the
 * one-off {@link FiringCursor#encode} for any seqs, and one {@link CursorEncoder} after any sequence of
 * moves (one partition at a time as a publish does, several at once, jumps that change varint lengths either way, a
 * change of partition count).
 */
class CursorEncoderProperties {

  /** One change of the position: partition {@code p} (mod the count) set to {@code seq}, or also its neighbours. */
  record Move(int p, long seq, int span) {}

  @Property
  void encodeIsTheReferenceFormatAndParsesBack(@ForAll("positions") long[] seqs) {
    String c = FiringCursor.encode(seqs);
    assertThat(c).isEqualTo(reference(seqs));
    assertThat(c.length()).isLessThanOrEqualTo(FiringCursor.maxLength(seqs.length));
    assertThat(FiringCursor.parse("from", c, seqs.length, false)).containsExactly(seqs);
  }

  @Property
  void incrementalEncoderMatchesTheReferenceAfterEveryMove(@ForAll @IntRange(min = 1, max = 300) int partitions,
      @ForAll @Size(max = 60) List<@net.jqwik.api.From("moves") Move> moves) {
    CursorEncoder encoder = new CursorEncoder();
    long[] seqs = new long[partitions];
    assertThat(encoder.encode(seqs)).isEqualTo(reference(seqs));
    for (Move m : moves) {
      for (int i = 0; i < m.span(); i++) {
        seqs[(m.p() + i) % partitions] = Math.max(0, m.seq() - i);
      }
      String c = encoder.encode(seqs);
      assertThat(c).isEqualTo(reference(seqs));
      assertThat(FiringCursor.parse("from", c, partitions, false)).containsExactly(seqs);
    }
    long[] other = java.util.Arrays.copyOf(seqs, partitions + 1);
    assertThat(encoder.encode(other)).isEqualTo(reference(other));
  }

  @Provide
  Arbitrary<long[]> positions() {
    return seq().array(long[].class).ofMinSize(1).ofMaxSize(300);
  }

  @Provide
  Arbitrary<Move> moves() {
    return Combinators.combine(Arbitraries.integers().between(0, 299), seq(), Arbitraries.integers().between(1, 3))
        .as(Move::new);
  }

  /** Seqs of every varint length: small, around the 7-bit boundaries, the largest. */
  private static Arbitrary<Long> seq() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 200),
        Arbitraries.longs().between(1_000_000, 1_000_100),
        Arbitraries.integers().between(1, 8).flatMap(k -> Arbitraries.longs().between((1L << (7 * k)) - 3,
            (1L << (7 * k)) + 3)),
        Arbitraries.longs().between(0, Long.MAX_VALUE),
        Arbitraries.longs().between(Long.MAX_VALUE - 5, Long.MAX_VALUE));
  }

  /** The cursor as the format defines it, written the plain way. */
  static String reference(long[] seqs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, seqs.length);
    long prev = 0;
    for (long s : seqs) {
      long d = s - prev;
      varint(out, (d << 1) ^ (d >> 63));
      prev = s;
    }
    return "c" + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
