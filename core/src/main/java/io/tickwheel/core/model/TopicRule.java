package io.tickwheel.core.model;

import java.util.regex.Pattern;

/**
 * The contract's rule for a topic name, {@code [A-Za-z0-9._-]{1,100}}, and the one way a bad one is reported: a
 * {@link ValidationException} naming the field and quoting the value. Used by the timer parser ({@code topic}),
 * the listing's {@code ?topic=} and the subscriptions ({@code topics[i]}, {@code topic}), which also accept
 * {@link #ALL}.
 *
 * <p>Stateless, thread safe.
 */
public final class TopicRule {

  /** The rule as the contract and the error messages write it. */
  public static final String RULE = "[A-Za-z0-9._-]{1,100}";
  /** The rule as a pattern; {@link #isTopic} checks the same without a regex. */
  public static final Pattern PATTERN = Pattern.compile(RULE);
  /** Longest topic, in characters. */
  public static final int MAX_LENGTH = 100;
  /** A subscription's wildcard: every topic. Never a timer's topic. */
  public static final String ALL = "*";

  /** How much of a bad value a message for a subscription's topic quotes, in characters. */
  private static final int QUOTE_MAX = 120;

  private TopicRule() {}

  /**
   * Whether {@code s} is a valid topic: it matches {@link #PATTERN}. A character loop, not a regex: this runs for
   * every timer of a batch.
   */
  public static boolean isTopic(String s) {
    if (s == null) {
      return false;
    }
    int n = s.length();
    if (n == 0 || n > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Checks a timer's topic or a listing's topic filter.
   *
   * @param field the field named in the error, e.g. {@code topic}
   * @return {@code value}
   * @throws ValidationException {@code <field> must match [A-Za-z0-9._-]{1,100}, was "<value>"}
   */
  public static String check(String field, String value) {
    if (!isTopic(value)) {
      throw new ValidationException(field, field + " must match " + RULE + ", was \"" + ValidationException.shown(String.valueOf(value))
          + "\"");
    }
    return value;
  }

  /**
   * Checks one topic of a subscription: a topic or {@link #ALL}.
   *
   * @param field where the value came from, e.g. {@code topics[2]}, named in the error
   * @param value the client's value, of any JSON type
   * @return the topic
   * @throws ValidationException naming the field and the bad value
   */
  public static String checkSubscription(String field, Object value) {
    if (!(value instanceof String s)) {
      throw new ValidationException(field, field + " must be a topic name (a string), was " + quote(value));
    }
    if (!ALL.equals(s) && !isTopic(s)) {
      throw new ValidationException(field, field + " " + quote(s) + " is not a valid topic: expected " + RULE
          + " or \"" + ALL + "\" for all topics");
    }
    return s;
  }

  /** A client value for an error message: JSON-ish, cut to a readable length with its full length said. */
  public static String quote(Object value) {
    String s = value instanceof String str ? "\"" + str + "\"" : String.valueOf(value);
    return s.length() <= QUOTE_MAX ? s : s.substring(0, QUOTE_MAX) + "…(" + s.length() + " chars)";
  }
}
