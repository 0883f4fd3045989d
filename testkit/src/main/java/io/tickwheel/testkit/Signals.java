package io.tickwheel.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Sends POSIX signals to child processes with {@code kill}. Stateless; blocking (test threads only). */
final class Signals {

  private Signals() {}

  /**
   * Sends {@code kill -SIG pid} and waits (at most 10 s) for {@code kill} to succeed.
   *
   * @param sig the signal's name without {@code SIG}, e.g. {@code STOP}
   * @throws IllegalStateException if {@code kill} fails or does not finish
   */
  static void send(Process process, String sig) {
    try {
      Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start();
      if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
        throw new IllegalStateException("kill -" + sig + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code kill -STOP}, then waits until the kernel reports the process stopped ({@code /proc/PID/stat} state
   * {@code T}): a signal is delivered asynchronously, and on a loaded machine the process was seen still running
   * right after {@code kill} returned.
   *
   * @throws IllegalStateException when it is not stopped 5 s after the signal
   */
  static void stop(Process process) {
    send(process, "STOP");
    awaitStopped(process, true);
  }

  /** {@code kill -CONT}, then waits until the kernel no longer reports the process stopped (as {@link #stop}). */
  static void cont(Process process) {
    send(process, "CONT");
    awaitStopped(process, false);
  }

  /** Waits until {@code /proc/PID/stat} says stopped or not, at most 5 s; returns at once without procfs. */
  private static void awaitStopped(Process process, boolean stopped) {
    Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      String line;
      try {
        line = Files.readString(stat);
      } catch (IOException e) {
        return; // no procfs, or the process is gone: nothing to wait for
      }
      char state = line.charAt(line.lastIndexOf(')') + 2);
      if ((state == 'T' || state == 't') == stopped) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("pid " + process.pid() + " is " + (stopped ? "not stopped" : "still stopped")
            + " 5 s after SIG" + (stopped ? "STOP" : "CONT") + " (state " + state + ")");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
