package io.tickwheel.store.rocksdb;

import java.nio.file.Path;

/**
 * A child process for {@link RocksDbStoreOpenTest}: opens the database in {@code args[0]} (taking RocksDB's
 * LOCK), prints {@code LOCKED}, and holds it until its stdin is closed.
 */
public final class LockHolder {

  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    Db db = Db.open(new RocksDbStoreOptions().setDataDir(Path.of(args[0])).setBlockCacheBytes(1 << 20)
        .setWriteBufferBytes(1 << 20));
    System.out.println("LOCKED");
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the lock until the parent closes our stdin (or dies)
    }
    db.close();
  }
}
