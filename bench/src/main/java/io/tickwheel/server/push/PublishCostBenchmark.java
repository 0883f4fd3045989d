package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-firing work {@link FiringHub#publish(int, Firing)} does before it offers a firing to its subscribers: the
 * hub's cursor (in a cluster, over every partition) and the firing's wire text ({@link EncodedFiring}: the JSON with
 * its cursor, and its UTF-8 bytes, which a WebSocket subscriber writes). Each invocation publishes the next firing of
 * a round-robin over the partitions, so the position moves one partition at a time as a node's publishes do.
 *
 * <ul>
 *   <li>{@code cursorStream}: the cursor as it was built before (a synchronized {@code ByteArrayOutputStream} of
 *       varints, then {@link Base64}); kept here as the baseline.</li>
 *   <li>{@code cursorIncremental}: the hub's {@link CursorEncoder}, which re-encodes only what the publish moved.</li>
 *   <li>{@code firingStream} / {@code firingIncremental}: the whole per-firing encoding of a cluster publish with
 *       either cursor; {@code firingSingleNode}: a single node's (its cursor is the seq).</li>
 * </ul>
 *
 * <p>It lives in the server's package to reach those package-private classes. Run:
 * {@code java -cp bench/target/benchmarks.jar org.openjdk.jmh.Main PublishCostBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class PublishCostBenchmark {

  /** The cluster's partition count (256 is the default). */
  @Param({"256"})
  public int partitions;

  private long[] latest;
  private int next;
  private long seq;
  private final CursorEncoder encoder = new CursorEncoder();
  private String payload;

  @Setup
  public void setUp() {
    latest = new long[partitions];
    java.util.Random r = new java.util.Random(1);
    for (int p = 0; p < partitions; p++) {
      latest[p] = 1_000_000 + r.nextInt(60); // partitions fill evenly: neighbours differ by little
    }
    payload = "{\"order\":\"o-12345\",\"attempt\":1}";
  }

  /** Moves the position: the next partition's next firing. */
  private Firing advance() {
    int p = next;
    next = next + 1 == partitions ? 0 : next + 1;
    long s = ++latest[p];
    seq++;
    return new Firing(s, "t-" + (seq & 0xFFFF), "orders", 1, 1_700_000_000_000L + seq, 1_700_000_000_001L + seq,
        payload);
  }

  @Benchmark
  public String cursorStream() {
    advance();
    return streamCursor(latest);
  }

  @Benchmark
  public String cursorIncremental() {
    advance();
    return encoder.encode(latest);
  }

  @Benchmark
  public byte[] firingStream() {
    Firing f = advance();
    return EncodedFiring.of(f, next, true, streamCursor(latest), seq).utf8();
  }

  @Benchmark
  public byte[] firingIncremental() {
    Firing f = advance();
    return EncodedFiring.of(f, next, true, encoder.encode(latest), seq).utf8();
  }

  @Benchmark
  public byte[] firingSingleNode() {
    return EncodedFiring.single(advance()).utf8();
  }

  /** The cursor as it was encoded before: the same format, through a byte stream and {@link Base64}. */
  static String streamCursor(long[] seqs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(2 + seqs.length * 2);
    varint(out, seqs.length);
    long prev = 0;
    for (long s : seqs) {
      long d = s - prev;
      varint(out, (d << 1) ^ (d >> 63));
      prev = s;
    }
    return FiringCursor.CLUSTER + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
