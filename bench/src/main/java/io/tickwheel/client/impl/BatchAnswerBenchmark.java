package io.tickwheel.client.impl;

import io.tickwheel.client.TimerInfo;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
 * What the Java client does with the server's answer to a batch of {@code timers} creates
 * ({@code POST /v1/timers/batch}): decode the body, then turn each result into its {@link TimerInfo} as
 * {@code ScheduleBatcher} does ({@link Answers#timer}). The timers look like the load tool's: ids of 20 characters, a
 * topic, a small JSON payload, the server's fields.
 *
 * <p>It lives in the client's package to reach the package-private answer code. Run:
 * {@code java -cp bench/target/benchmarks.jar org.openjdk.jmh.Main BatchAnswerBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class BatchAnswerBenchmark {

  @Param({"1000"})
  public int timers;

  private Buffer body;

  @Setup
  public void setUp() {
    JsonArray results = new JsonArray();
    long t = 1_796_000_000_000L;
    for (int i = 0; i < timers; i++) {
      results.add(new JsonObject().put("status", 201).put("timer", new JsonObject()
          .put("id", String.format("lat-%016d", i)).put("topic", "stream").put("kind", "once").put("delayMs", 60_000)
          .put("payload", new JsonObject().put("n", i).put("note", "a small payload"))
          .put("nextDueAt", t + 60_000 + i).put("firings", 0).put("createdAt", t + i)));
    }
    body = new JsonObject().put("results", results).toBuffer();
  }

  @Benchmark
  public List<TimerInfo> decode() {
    JsonArray results = ((JsonObject) Json.decodeValue(body)).getJsonArray("results");
    List<TimerInfo> out = new ArrayList<>(results.size());
    for (int i = 0; i < results.size(); i++) {
      out.add(Answers.timer(results.getJsonObject(i)));
    }
    return out;
  }
}
