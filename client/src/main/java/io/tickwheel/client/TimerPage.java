package io.tickwheel.client;

import java.util.List;

/**
 * One page of {@code GET /v1/timers}: timers ordered by {@code nextDueAt}, and the cursor of the next page.
 *
 * @param timers this page, in the server's order
 * @param next the cursor to pass to {@code list} for the next page, or null when this is the last one
 */
public record TimerPage(List<TimerInfo> timers, String next) {
  public TimerPage {
    timers = List.copyOf(timers);
  }
}
