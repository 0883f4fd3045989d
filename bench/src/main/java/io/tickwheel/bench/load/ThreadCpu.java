package io.tickwheel.bench.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * CPU time of some threads of another process, from Linux's {@code /proc/PID/task/TID/comm} and {@code schedstat}
 * (nanoseconds on CPU). Read from outside, so it costs the process nothing and changes none of its code paths (an
 * HTTP scrape of its {@code /metrics} did: after a minute of WebSocket traffic only, it deoptimized shared Netty code
 * the firings' push uses, two seconds before the firings were measured). Threads that ended are not counted.
 */
final class ThreadCpu {

  /** HotSpot's JIT compiler threads ({@code C1 CompilerThre}, {@code C2 CompilerThre}, names cut at 15 chars). */
  static final Predicate<String> JIT = n -> n.startsWith("C1 Compiler") || n.startsWith("C2 Compiler");

  /** HotSpot's G1 threads: parallel GC workers, concurrent marking and refinement. */
  static final Predicate<String> GC = n -> n.startsWith("GC Thread") || n.startsWith("G1 ");

  private ThreadCpu() {
  }

  /** Sum of the on-CPU nanoseconds of {@code pid}'s threads whose name matches, or -1 when it cannot be read. */
  static long nanos(long pid, Predicate<String> name) {
    if (pid < 0) {
      return -1;
    }
    long sum = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path t : tasks) {
        try {
          if (name.test(Files.readString(t.resolve("comm")).strip())) {
            String s = Files.readString(t.resolve("schedstat"));
            sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
          }
        } catch (IOException | RuntimeException e) {
          // the thread ended between listing and reading
        }
      }
      return sum;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
