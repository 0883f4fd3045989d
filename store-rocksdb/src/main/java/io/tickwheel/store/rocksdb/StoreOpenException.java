package io.tickwheel.store.rocksdb;

/**
 * The RocksDB data directory cannot be opened: locked by another process, corrupt, or not a usable
 * directory. The message is one line naming the directory and the reason, fit to print at startup; the
 * RocksDB error (if any) is the cause. Nothing in the directory was changed.
 */
public class StoreOpenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreOpenException(String message) {
    super(message);
  }

  public StoreOpenException(String message, Throwable cause) {
    super(message, cause);
  }
}
