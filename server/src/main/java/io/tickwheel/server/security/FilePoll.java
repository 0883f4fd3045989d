package io.tickwheel.server.security;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Re-reads a few small files every {@code periodMs} on a worker thread (never on the event loop) and hands their
 * contents to a callback, on the context that started the poll, whenever they differ from the last contents seen
 * (read or given at start). A file that cannot be read counts as content {@code null}; a change to or from
 * unreadable is a change. Polling by content rather than by a file-system watch: it sees a file replaced by a
 * rename (how certificate tools and secret managers renew files), a bind-mounted file rewritten in place, and
 * works on every file system. One read is in flight at most.
 *
 * <p>Owner context only (the one it was started on): the callback runs there; {@link #stop} must be called there.
 */
public final class FilePoll {

  /** How often the TLS and tokens files are re-read, ms: well within the 10 s the contract allows. */
  public static final long DEFAULT_PERIOD_MS = 1000;

  private final Vertx vertx;
  private final List<Path> files;
  private final Consumer<List<byte[]>> onChange;
  private final long timer;
  private List<byte[]> last;
  private boolean reading;
  private boolean stopped;

  private FilePoll(Vertx vertx, long periodMs, List<Path> files, List<byte[]> initial,
      Consumer<List<byte[]>> onChange) {
    this.vertx = vertx;
    this.files = List.copyOf(files);
    this.last = new ArrayList<>(initial);
    this.onChange = onChange;
    this.timer = vertx.setPeriodic(periodMs, id -> poll());
  }

  /**
   * Starts polling on the current context.
   *
   * @param initial the contents already known (one per file, {@code null} for unreadable)
   * @param onChange called with the new contents (one per file, in order) after each change
   */
  public static FilePoll start(Vertx vertx, long periodMs, List<Path> files, List<byte[]> initial,
      Consumer<List<byte[]>> onChange) {
    if (files.size() != initial.size()) {
      throw new IllegalArgumentException("one initial content per file: " + files.size() + " files, "
          + initial.size() + " contents");
    }
    return new FilePoll(vertx, periodMs, files, initial, onChange);
  }

  private void poll() {
    if (reading || stopped) {
      return;
    }
    reading = true;
    vertx.executeBlocking(() -> read(files), false).onComplete(ar -> {
      reading = false;
      if (stopped || ar.failed()) {
        return;
      }
      List<byte[]> now = ar.result();
      if (!same(now, last)) {
        last = now;
        onChange.accept(now);
      }
    });
  }

  /** Each file's bytes, {@code null} for one that cannot be read. Blocking. */
  public static List<byte[]> read(List<Path> files) {
    List<byte[]> out = new ArrayList<>(files.size());
    for (Path f : files) {
      try {
        out.add(Files.readAllBytes(f));
      } catch (IOException | SecurityException e) {
        out.add(null);
      }
    }
    return out;
  }

  private static boolean same(List<byte[]> a, List<byte[]> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Stops polling; a read in flight is ignored. */
  public void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
  }
}
