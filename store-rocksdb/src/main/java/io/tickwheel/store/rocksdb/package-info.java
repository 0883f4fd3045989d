/**
 * The embedded RocksDB store, tickwheel's default ({@code --store rocksdb --data-dir DIR}).
 *
 * <p>Public API: {@link io.tickwheel.store.rocksdb.RocksDbTimerStore#open} with
 * {@link io.tickwheel.store.rocksdb.RocksDbStoreOptions}; a directory that cannot be used fails the open with
 * {@link io.tickwheel.store.rocksdb.StoreOpenException}. Everything else in the package is package-private:
 * the key layout ({@code Keys}), the record encoding ({@code Codec}), the native handles ({@code Db}), the
 * group-commit writer thread ({@code GroupCommitWriter}, {@code WriteGroup}, {@code WriteOp}) and the blocking
 * read paths ({@code Reads}).
 * The thread model, ordering and durability contracts are on {@link io.tickwheel.store.rocksdb.RocksDbTimerStore}.
 */
package io.tickwheel.store.rocksdb;
