package io.tickwheel.server.push;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.store.FiringLog;
import io.vertx.core.Future;
import java.util.List;
import java.util.Objects;

/**
 * A single node's feed: the store's one firing log. Live firings are the scheduler's, published to the hub after
 * the store recorded them (its {@link FiringSink} is the hub).
 */
public final class StoreFiringFeed implements FiringFeed {

  private final FiringLog store;

  public StoreFiringFeed(FiringLog store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public int partitions() {
    return 1;
  }

  @Override
  public boolean clustered() {
    return false;
  }

  @Override
  public Future<long[]> ends() {
    return store.lastSeq().map(seq -> new long[] {seq});
  }

  @Override
  public Future<List<Firing>> read(int partition, long afterSeq, int limit) {
    return store.readFirings(afterSeq, limit);
  }
}
