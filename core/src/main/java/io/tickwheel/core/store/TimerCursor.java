package io.tickwheel.core.store;

import io.tickwheel.core.model.Timer;

/**
 * A position in the listing order of timers: by {@code nextDueAt}, then by {@code id}. The listing continues
 * with the timers strictly after it. Its text form ({@link #encode()}) is what the API hands out as
 * {@code next} and takes back as {@code cursor}.
 *
 * @param dueAt the last listed timer's {@code nextDueAt}
 * @param id    the last listed timer's id
 */
public record TimerCursor(long dueAt, String id) {

  /** The cursor just after {@code t}. */
  public static TimerCursor after(Timer t) {
    return new TimerCursor(t.nextDueAt(), t.id());
  }

  /** Whether {@code t} comes after this cursor in listing order. */
  public boolean precedes(Timer t) {
    return t.nextDueAt() > dueAt || (t.nextDueAt() == dueAt && t.id().compareTo(id) > 0);
  }

  /** The text form: {@code DUEAT~ID}. */
  public String encode() {
    return dueAt + "~" + id;
  }

  /**
   * Parses the text form.
   *
   * @throws IllegalArgumentException with a message naming the cursor when it is malformed
   */
  public static TimerCursor decode(String s) {
    int i = s == null ? -1 : s.indexOf('~');
    if (i <= 0 || i == s.length() - 1) {
      throw new IllegalArgumentException("cursor is malformed: \"" + s + "\"");
    }
    try {
      return new TimerCursor(Long.parseLong(s.substring(0, i)), s.substring(i + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("cursor is malformed: \"" + s + "\"");
    }
  }
}
