package io.tickwheel.server.wire;

/**
 * The largest request body and WebSocket message the server reads, and how messages say the body's. A bigger body gets 413
 * {@code payload_too_large} without being read. Stateless, thread safe.
 */
public final class BodyLimit {

  /** Largest request body, bytes (1 MiB). */
  public static final long MAX_BODY_BYTES = 1024 * 1024;
  /**
   * Largest WebSocket message the server reads, bytes (64 KiB): the HTTP server's limit, and so the largest message
   * one node sends another over an internal socket.
   */
  public static final int MAX_WEBSOCKET_MESSAGE_BYTES = 64 * 1024;

  private BodyLimit() {}

  /** {@link #MAX_BODY_BYTES} for people: {@code "1 MiB"}. */
  public static String text() {
    return size(MAX_BODY_BYTES);
  }

  /** A byte count in the largest binary unit that divides it: {@code 1048576} is {@code "1 MiB"}. */
  static String size(long bytes) {
    if (bytes > 0 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + " MiB";
    }
    if (bytes > 0 && bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " bytes";
  }
}
