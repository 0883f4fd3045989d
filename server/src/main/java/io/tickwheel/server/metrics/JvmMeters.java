package io.tickwheel.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The process's own meters, Micrometer's standard JVM binders: heap and non-heap memory ({@code jvm_memory_*}),
 * garbage collection pauses ({@code jvm_gc_pause_seconds}), threads, loaded classes, JIT compilation time
 * ({@code jvm_compilation_time_ms_total}), CPU ({@code process_cpu_usage}, {@code process_cpu_time_ns_total},
 * {@code system_cpu_usage}) and uptime. A firing that is late while the server's own timers were not is most often
 * explained here: a GC pause, or the JIT compiling a path the server had not run for a while.
 *
 * <p>Thread safe. {@link #close} removes the GC notification listeners (one set per server in a shared JVM).
 */
final class JvmMeters implements AutoCloseable {

  private final JvmGcMetrics gc = new JvmGcMetrics();

  JvmMeters(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmCompilationMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  @Override
  public void close() {
    gc.close();
  }
}
