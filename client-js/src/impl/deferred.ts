/** A promise with its settle functions and whether it has settled; settling twice does nothing. */
export class Deferred<T> {
  readonly promise: Promise<T>;
  private res!: (v: T) => void;
  private rej!: (e: unknown) => void;
  private settled = false;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.res = resolve;
      this.rej = reject;
    });
  }

  get done(): boolean {
    return this.settled;
  }

  resolve(v: T): boolean {
    if (this.settled) {
      return false;
    }
    this.settled = true;
    this.res(v);
    return true;
  }

  reject(e: unknown): boolean {
    if (this.settled) {
      return false;
    }
    this.settled = true;
    this.rej(e);
    return true;
  }

  /** Settles this one as `other` settles. */
  follow(other: Promise<T>): void {
    other.then((v) => this.resolve(v), (e) => this.reject(e));
  }
}

/** Runs `f` in a later event-loop turn (after the I/O callbacks of this one, where `setImmediate` exists). */
export const nextTurn: (f: () => void) => void = typeof setImmediate === 'function'
  ? (f) => { setImmediate(f); }
  : (f) => { setTimeout(f, 0); };

/** A monotonic clock, ms. */
export const now: () => number = () => performance.now();
