package io.tickwheel.store.redis;

/**
 * Redis answered with an error that is not about reachability (a script error, {@code OOM}, a wrong key type,
 * data written by an incompatible version): a store fault, not a {@link io.tickwheel.core.store.StoreUnavailableException}.
 */
public class RedisStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RedisStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public RedisStoreException(String message) {
    super(message);
  }
}
