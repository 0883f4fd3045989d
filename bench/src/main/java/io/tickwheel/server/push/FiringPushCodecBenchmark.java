package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
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
 * A cluster push's wire text, per push of {@code firings} firings spread over {@code parts} partitions (a 3-node
 * stream of 10,000 firings/s pushes ~4 firings at a time): {@code encode}, what the owner does (each firing's
 * {@link FiringPush#firingText}, then the push's text and bytes), and {@code decode}, what the receiving node does
 * ({@link FiringPush#decode}). The firings look like the load tool's: ids of 20 characters, a topic, a small JSON
 * payload.
 *
 * <p>It lives in the server's package to reach the package-private encoder. Run:
 * {@code java -cp bench/target/benchmarks.jar org.openjdk.jmh.Main FiringPushCodecBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class FiringPushCodecBenchmark {

  @Param({"4", "64"})
  public int firings;

  @Param({"4"})
  public int parts;

  private List<List<Firing>> byPart;
  private Buffer body;

  @Setup
  public void setUp() {
    byPart = new ArrayList<>();
    long t = 1_796_000_000_000L;
    for (int p = 0; p < parts; p++) {
      byPart.add(new ArrayList<>());
    }
    for (int i = 0; i < firings; i++) {
      List<Firing> part = byPart.get(i % parts);
      long seq = 1_000_000 + part.size() + 1;
      part.add(new Firing(seq, String.format("lat-%016d", i), "stream", 0, t + i, t + i + 1,
          "{\"n\":" + i + ",\"note\":\"a small payload\"}", t + i));
    }
    body = encode();
  }

  @Benchmark
  public Buffer encode() {
    StringBuilder out = FiringPush.start("n1", 7);
    for (int p = 0; p < parts; p++) {
      List<Firing> fs = byPart.get(p);
      List<String> texts = new ArrayList<>(fs.size());
      for (Firing f : fs) {
        texts.add(FiringPush.firingText(f));
      }
      long after = fs.isEmpty() ? 0 : fs.get(0).seq() - 1;
      FiringPush.part(out, p == 0, p, after, fs.isEmpty() ? 1 : fs.get(fs.size() - 1).seq(), texts);
    }
    return FiringPush.end(out);
  }

  @Benchmark
  public FiringPush decode() {
    return FiringPush.decode(body, 256);
  }
}
