package io.tickwheel.store.rocksdb;

import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Maps what a RocksDB call or a record decoder throws to the store SPI's exceptions: a RocksDB status that means
 * "the disk or the database cannot do it now" (I/O error such as a full disk, busy, timed out, shutting down) is a
 * {@link StoreUnavailableException}; anything else (corruption, an undecodable record, an unexpected exception) is
 * a {@link StoreFaultException}. Stateless, thread safe.
 */
final class Failures {

  /** RocksDB status codes that say "not now" rather than "something is wrong with the data". */
  private static final Set<Status.Code> UNAVAILABLE = EnumSet.of(Status.Code.IOError, Status.Code.Incomplete,
      Status.Code.ShutdownInProgress, Status.Code.TimedOut, Status.Code.Aborted, Status.Code.Busy,
      Status.Code.Expired, Status.Code.TryAgain);

  private Failures() {}

  /**
   * The store exception for {@code e}, thrown while doing {@code what} in {@code dir}; a {@link StoreException} is
   * returned as it is.
   *
   * @param mayHaveApplied whether the call may have taken effect (see {@link StoreException#mayHaveApplied()})
   */
  static StoreException of(Path dir, String what, Throwable e, boolean mayHaveApplied) {
    if (e instanceof StoreException s) {
      return s;
    }
    String message = "rocksdb " + what + " failed in " + dir + ": " + describe(e);
    if (e instanceof RocksDBException r && r.getStatus() != null && UNAVAILABLE.contains(r.getStatus().getCode())) {
      return new StoreUnavailableException(message, e, mayHaveApplied);
    }
    return new StoreFaultException(message, e, mayHaveApplied);
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.replace('\n', ' ');
  }
}
