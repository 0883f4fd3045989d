package io.tickwheel.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
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
}
