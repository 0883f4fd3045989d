package io.tickwheel.store.rocksdb;

import io.tickwheel.core.store.StoreFaultException;

/**
 * The RocksDB data directory cannot be opened: locked by another process, corrupt, or not a usable
 * directory. The message is one line naming the directory and the reason, fit to print at startup; the
 * RocksDB error (if any) is the cause. Nothing in the directory was changed ({@link #mayHaveApplied()} is
 * {@code false}).
 */
public class StoreOpenException extends StoreFaultException {
  private static final long serialVersionUID = 1L;

  public StoreOpenException(String message) {
    super(message, null, false);
  }

  public StoreOpenException(String message, Throwable cause) {
    super(message, cause, false);
  }
}
