/** A first-in first-out queue with O(1) amortized `push` and `shift` (an array and a head index). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The first item, or undefined when empty. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Removes and returns the first item, or undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) {
      return undefined;
    }
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as T; // let it be collected
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Puts `first` ahead of everything, in their order. */
  unshiftAll(first: readonly T[]): void {
    this.items = first.concat(this.items.slice(this.head));
    this.head = 0;
  }

  /** Keeps the items `keep` returns true for, in order. */
  retain(keep: (item: T) => boolean): void {
    this.items = this.items.slice(this.head).filter(keep);
    this.head = 0;
  }

  /** Removes and returns every item, in order. */
  drain(): T[] {
    const all = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return all;
  }
}
