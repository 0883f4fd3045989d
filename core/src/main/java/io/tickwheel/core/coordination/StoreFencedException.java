package io.tickwheel.core.coordination;

import io.tickwheel.core.store.StoreException;

/**
 * A write to a partition was refused atomically by the store because the writer's lease epoch is no longer the
 * partition's current one, or its lease expired: another node owns (or may own) the partition now. Nothing was
 * applied ({@link #mayHaveApplied()} is {@code false}). The node must stop serving the partition.
 */
public final class StoreFencedException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final int partition;

  public StoreFencedException(int partition, long epoch) {
    super("partition " + partition + ": lease epoch " + epoch + " is no longer current (fenced)", null, false);
    this.partition = partition;
  }

  public int partition() {
    return partition;
  }
}
