/** Waits between reconnect attempts: `initial`, doubled after each failure up to `max`, `initial` again after a success. */
export class ReconnectBackoff {
  private nextMs: number;

  constructor(private readonly initialMs: number, private readonly maxMs: number) {
    this.nextMs = initialMs;
  }

  /** The wait before the next attempt, ms; the one after it doubles (capped). */
  next(): number {
    const d = this.nextMs;
    this.nextMs = Math.min(this.maxMs, this.nextMs * 2);
    return d;
  }

  /** A connection succeeded: the next wait is the initial one again. */
  reset(): void {
    this.nextMs = this.initialMs;
  }
}
