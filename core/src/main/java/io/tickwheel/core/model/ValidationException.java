package io.tickwheel.core.model;

/**
 * A client's timer definition broke a rule. The message names the field and the bad value.
 * {@link #tooLarge()} tells a size limit (the server answers 413) from any other rule (400).
 */
public final class ValidationException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** Most characters of a bad value a message shows. */
  private static final int SHOWN = 60;

  private final String field;
  private final boolean tooLarge;

  public ValidationException(String field, String message) {
    this(field, message, false);
  }

  public ValidationException(String field, String message, boolean tooLarge) {
    super(message, null, false, false);
    this.field = field;
    this.tooLarge = tooLarge;
  }

  /** The offending field (dotted path for nested ones), or {@code null} when the whole body is wrong. */
  public String field() {
    return field;
  }

  /** Whether a size limit was exceeded. */
  public boolean tooLarge() {
    return tooLarge;
  }

  /** {@code s} as a message shows a bad value: its first 60 characters, then "…" if it is longer. */
  public static String shown(String s) {
    return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "…";
  }
}
