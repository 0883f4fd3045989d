package io.tickwheel.core.store;

import io.tickwheel.core.delivery.Delivery;
import java.util.List;

/**
 * A page of deliveries in seq order.
 *
 * @param items     the deliveries
 * @param nextAfter the seq to pass as {@code afterSeq} for the next page, or -1 when this is the last
 */
public record DeliveryPage(List<Delivery> items, long nextAfter) {

  public DeliveryPage {
    items = List.copyOf(items);
  }
}
