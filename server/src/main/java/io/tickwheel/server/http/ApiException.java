package io.tickwheel.server.http;

/**
 * A request that cannot be served, with the HTTP status and the contract's error code it is answered with:
 * {@code {"error":{"code","message","field"?}}}. Carries no stack trace (it is an answer, not a fault).
 */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;
  private final String field;
  private final int retryAfterSeconds;

  public ApiException(int status, String code, String message, String field) {
    this(status, code, message, field, 0);
  }

  private ApiException(int status, String code, String message, String field, int retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** This error answered with {@code Retry-After: seconds} (0: none). */
  public ApiException withRetryAfter(int seconds) {
    return seconds == retryAfterSeconds ? this : new ApiException(status, code, getMessage(), field, seconds);
  }

  /** The {@code Retry-After} it is answered with, seconds; 0 for none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The contract's error code, e.g. {@code invalid_argument}. */
  public String code() {
    return code;
  }

  /** The offending field, or {@code null}. */
  public String field() {
    return field;
  }

  public static ApiException invalid(String field, String message) {
    return new ApiException(400, "invalid_argument", message, field);
  }

  public static ApiException tooLarge(String field, String message) {
    return new ApiException(413, "payload_too_large", message, field);
  }

  public static ApiException notFound(String message) {
    return new ApiException(404, "not_found", message, null);
  }

  public static ApiException alreadyExists(String id) {
    return new ApiException(409, "already_exists", "a timer with id \"" + id + "\" already exists", "id");
  }

  public static ApiException exhausted(long max) {
    return new ApiException(429, "resource_exhausted",
        "the server holds its maximum of " + max + " pending timers (--max-pending); retry later", null);
  }

  public static ApiException unavailable(String message) {
    return new ApiException(503, "unavailable", message, null);
  }

  public static ApiException unauthenticated(String message) {
    return new ApiException(401, "unauthenticated", message, null);
  }

  public static ApiException internal(String message) {
    return new ApiException(500, "internal", message, null);
  }
}
