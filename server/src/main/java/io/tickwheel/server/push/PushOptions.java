package io.tickwheel.server.push;

/**
 * Bounds of the firing push ({@link FiringHub}).
 *
 * @param maxQueuedPerSubscriber how many outgoing messages (firings and replies) may wait for one subscriber
 *                               once its socket's own write queue is full; one more and the subscriber is
 *                               closed as too slow. It also bounds the live firings buffered for a subscriber
 *                               while it replays the log. {@code >= 1}
 * @param replayBatch            how many firings a resuming subscriber reads from the store at a time
 *                               ({@code TimerStore.readFirings(afterSeq, replayBatch)}); one batch per
 *                               event-loop turn. {@code 1..maxQueuedPerSubscriber}
 * @param maxWsFrameBytes        the largest WebSocket message a client may send, bytes (all its frames
 *                               together); a larger one closes the socket with 1009. {@code >= 1024}
 * @param maxCommandsInFlight    how many write commands one WebSocket may have in flight (sent, not yet answered);
 *                               at the cap the server stops reading the socket until results drain. {@code >= 1}
 */
public record PushOptions(int maxQueuedPerSubscriber, int replayBatch, int maxWsFrameBytes, int maxCommandsInFlight) {

  /** Default {@link #maxCommandsInFlight}. */
  public static final int DEFAULT_MAX_COMMANDS_IN_FLIGHT = 1000;

  /** With the default {@link #maxCommandsInFlight}. */
  public PushOptions(int maxQueuedPerSubscriber, int replayBatch, int maxWsFrameBytes) {
    this(maxQueuedPerSubscriber, replayBatch, maxWsFrameBytes, DEFAULT_MAX_COMMANDS_IN_FLIGHT);
  }

  public PushOptions {
    if (maxQueuedPerSubscriber < 1) {
      throw new IllegalArgumentException("maxQueuedPerSubscriber must be >= 1, was " + maxQueuedPerSubscriber);
    }
    if (replayBatch < 1 || replayBatch > maxQueuedPerSubscriber) {
      throw new IllegalArgumentException("replayBatch must be between 1 and maxQueuedPerSubscriber ("
          + maxQueuedPerSubscriber + "), was " + replayBatch);
    }
    if (maxWsFrameBytes < 1024) {
      throw new IllegalArgumentException("maxWsFrameBytes must be >= 1024, was " + maxWsFrameBytes);
    }
    if (maxCommandsInFlight < 1) {
      throw new IllegalArgumentException("maxCommandsInFlight must be >= 1, was " + maxCommandsInFlight);
    }
  }

  /**
   * Default {@link #maxQueuedPerSubscriber}: above the scheduler's default turn limit (10,000 firings handed out and
   * published in one event-loop turn), so one turn's burst fits behind a full socket of a subscriber that reads as fast
   * as it can; memory stays bounded by {@link FiringHub#MAX_QUEUED_BYTES_PER_SUBSCRIBER} (8 MiB). With 1,024 a
   * 100,000-timer burst could cut off a fast local subscriber (seen in FiringSemanticsTest).
   */
  public static final int DEFAULT_MAX_QUEUED_PER_SUBSCRIBER = 16_384;

  /**
   * 16,384 queued messages (at most 8 MiB) per subscriber, replay batches of 256, client messages up to 64 KiB,
   * 1,000 commands in flight per socket.
   */
  public static PushOptions defaults() {
    return new PushOptions(DEFAULT_MAX_QUEUED_PER_SUBSCRIBER, 256, 64 * 1024);
  }
}
