package io.tickwheel.server;

/** A bad command-line flag or environment variable; the message names it and its value. Main exits with status 2. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
