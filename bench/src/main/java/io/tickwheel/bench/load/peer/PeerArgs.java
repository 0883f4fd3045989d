package io.tickwheel.bench.load.peer;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Argument checks shared by the peers. A peer reports a bad argument as a failed stage (never a throw from a
 * {@code CompletionStage}-returning method), with a message naming the argument and the value.
 */
final class PeerArgs {

  /** Longest id every peer stores: Quartz's {@code JOB_NAME}/{@code TRIGGER_NAME} are {@code VARCHAR(200)}. */
  static final int MAX_ID_LENGTH = 200;

  private PeerArgs() {}

  /** @return {@code null} when {@code id} is usable, else the reason */
  static String idProblem(String id) {
    if (id == null || id.isEmpty()) {
      return "id must be non-empty, got " + (id == null ? "null" : "''");
    }
    if (id.length() > MAX_ID_LENGTH) {
      return "id must be at most " + MAX_ID_LENGTH + " characters, got " + id.length();
    }
    if (id.indexOf('|') >= 0) {
      return "id must not contain '|' (the Redisson peer's element separator), got '" + id + "'";
    }
    return null;
  }

  /** @return {@code null} when the batch is usable, else the reason */
  static String batchProblem(List<String> ids, long[] dueAtMs) {
    if (ids == null || dueAtMs == null) {
      return "ids and dueAtMs must be non-null";
    }
    if (ids.size() != dueAtMs.length) {
      return "ids and dueAtMs must have the same length, got " + ids.size() + " and " + dueAtMs.length;
    }
    for (String id : ids) {
      String p = idProblem(id);
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  static <T> CompletionStage<T> failed(String target, String problem) {
    return CompletableFuture.failedFuture(new IllegalArgumentException(target + ": " + problem));
  }

  static <T> CompletionStage<T> notStarted(String target) {
    return CompletableFuture.failedFuture(new IllegalStateException(target + ": not started (call start first)"));
  }
}
