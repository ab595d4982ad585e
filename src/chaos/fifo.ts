// A first-in first-out queue whose shift() is O(1). Array.prototype.shift
// moves every element once an array is large (V8 cannot trim the front of a
// large array in place), which made a proxy connection with 100,000
// pipelined requests take ~13 s of CPU just to dequeue their answers
// (bench/hostile.mjs). The items live in an array read from `head`; the
// consumed front is dropped in one splice once it is most of the array.
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  /** The oldest item, or undefined when empty. */
  get first(): T | undefined {
    return this.items[this.head];
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as T; // let it be collected
    if (this.head === this.items.length) this.clear();
    else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }

  /** The oldest item that matches, scanning from the front. */
  find(match: (item: T) => boolean): T | undefined {
    for (let i = this.head; i < this.items.length; i++) if (match(this.items[i]!)) return this.items[i];
    return undefined;
  }

  /** Removes every item that matches, keeping the order of the rest. */
  removeWhere(match: (item: T) => boolean): void {
    this.items = this.items.slice(this.head).filter((item) => !match(item));
    this.head = 0;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
