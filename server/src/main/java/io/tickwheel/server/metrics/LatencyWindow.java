package io.tickwheel.server.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Recent latency percentiles for the live views ({@code GET /v1/wheel} and its stream), on HdrHistogram's
 * interval {@link Recorder}: values recorded during the last complete window (at least {@code windowNanos}),
 * so the figures describe now, not the whole uptime.
 *
 * <p>{@link #record} is thread safe and wait-free; {@link #stats} is thread safe.
 */
public final class LatencyWindow {

  /** Figures of one window; latencies in the unit recorded, {@code perSecond} = values recorded per second. */
  public record Stats(long count, double p50, double p99, double max, double perSecond) {}

  private final Recorder recorder;
  private final long windowNanos;
  private final long highest;
  private Histogram last;
  private long lastRotation;
  private Stats lastStats = new Stats(0, 0, 0, 0, 0);

  /**
   * @param highest     the largest value tracked; larger values are recorded as this
   * @param windowNanos the shortest window the figures describe
   */
  public LatencyWindow(long highest, long windowNanos) {
    this.highest = highest;
    this.recorder = new Recorder(highest, 2);
    this.windowNanos = windowNanos;
    this.lastRotation = System.nanoTime();
  }

  /** Records one value (negative values count as 0, values above the highest as the highest). */
  public void record(long value) {
    recorder.recordValue(Math.max(0, Math.min(value, highest)));
  }

  /** The figures of the last complete window, rotating to a new window when the current one is old enough. */
  public synchronized Stats stats() {
    long now = System.nanoTime();
    long elapsed = now - lastRotation;
    if (elapsed >= windowNanos) {
      last = recorder.getIntervalHistogram(last);
      lastRotation = now;
      long n = last.getTotalCount();
      lastStats = n == 0
          ? new Stats(0, 0, 0, 0, 0)
          : new Stats(n, last.getValueAtPercentile(50), last.getValueAtPercentile(99), last.getMaxValue(),
              n * 1e9 / elapsed);
    }
    return lastStats;
  }
}
