// A partition's log: the record batches as the producers sent them (with the
// broker's base offset and leader epoch written in), nothing decoded.
// Offsets: logStartOffset <= every stored offset < logEndOffset.

export interface StoredBatch {
  readonly baseOffset: number;
  /** Offset of the batch's last record. */
  readonly lastOffset: number;
  readonly maxTimestamp: number;
  readonly leaderEpoch: number;
  readonly bytes: Buffer;
}

/** The batches of every log never written to (most partitions of a wide topic); writable() swaps in an array of its own. */
const NO_BATCHES: readonly StoredBatch[] = Object.freeze([]);

export class PartitionLog {
  private batches = NO_BATCHES as StoredBatch[];
  private start = 0;
  private end = 0;
  private size = 0;

  get logStartOffset(): number {
    return this.start;
  }

  get logEndOffset(): number {
    return this.end;
  }

  /** Bytes held by stored batches. */
  get sizeInBytes(): number {
    return this.size;
  }

  get batchCount(): number {
    return this.batches.length;
  }

  /** Appends a batch whose base offset was already assigned as logEndOffset. */
  append(batch: StoredBatch): void {
    if (batch.baseOffset !== this.end) throw new Error(`append at ${batch.baseOffset}, log end is ${this.end}`);
    this.writable().push(batch);
    this.end = batch.lastOffset + 1;
    this.size += batch.bytes.length;
  }

  private writable(): StoredBatch[] {
    if (this.batches === NO_BATCHES) this.batches = [];
    return this.batches;
  }

  /** Index of the first batch whose last offset is >= offset (the batch containing it, or the next one). */
  private indexOf(offset: number): number {
    let lo = 0;
    let hi = this.batches.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.batches[mid]!.lastOffset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Whole batches from the one containing `offset`, ending before `upTo`
   * (exclusive) and within `maxBytes`; the first batch is returned even when
   * larger than maxBytes if `minOneBatch` (Kafka's minOneMessage rule).
   */
  read(offset: number, upTo: number, maxBytes: number, minOneBatch: boolean): StoredBatch[] {
    const out: StoredBatch[] = [];
    let bytes = 0;
    for (let i = this.indexOf(offset); i < this.batches.length; i++) {
      const b = this.batches[i]!;
      if (b.lastOffset >= upTo) break;
      if (bytes + b.bytes.length > maxBytes && !(out.length === 0 && minOneBatch)) break;
      out.push(b);
      bytes += b.bytes.length;
    }
    return out;
  }

  /** Bytes readable from offset up to upTo, counting at most `limit` (for fetch min_bytes). */
  bytesBetween(offset: number, upTo: number, limit: number): number {
    let bytes = 0;
    for (let i = this.indexOf(offset); i < this.batches.length && bytes < limit; i++) {
      const b = this.batches[i]!;
      if (b.lastOffset >= upTo) break;
      bytes += b.bytes.length;
    }
    return bytes;
  }

  batchesFrom(offset: number): readonly StoredBatch[] {
    return this.batches.slice(this.indexOf(offset));
  }

  /** Drops every batch at or after offset (a new leader that never had them). */
  truncateTo(offset: number): void {
    if (offset >= this.end) return;
    const i = this.indexOf(offset);
    // A batch straddling the point goes whole: replicas copy whole batches.
    for (const b of this.writable().splice(i)) this.size -= b.bytes.length;
    this.end = Math.max(this.start, i > 0 ? this.batches[i - 1]!.lastOffset + 1 : this.start);
  }

  /** Moves the log start forward (DeleteRecords), dropping batches wholly before it. */
  advanceStart(offset: number): void {
    if (offset <= this.start) return;
    this.start = Math.min(offset, this.end);
    let drop = 0;
    while (drop < this.batches.length && this.batches[drop]!.lastOffset < this.start) drop++;
    for (const b of this.writable().splice(0, drop)) this.size -= b.bytes.length;
  }

  /** Empties the log, starting again at `offset`. */
  reset(offset = 0): void {
    this.batches = NO_BATCHES as StoredBatch[];
    this.start = this.end = offset;
    this.size = 0;
  }
}
