// Idempotent and transactional producer state of one partition, as Kafka's
// ProducerStateManager / ProducerAppendInfo keep it (kafka-semantics.md §1):
// per producer id the epoch, the metadata of its last 5 batches (for
// duplicate detection), and its open transaction in this partition. Also the
// partition's transaction bookkeeping for reads: the first offsets of open
// and not-yet-replicated transactions (the last stable offset) and the index
// of aborted transactions (read_committed fetches).
import type { ErrorName } from '../protocol/errors.js';
import { incrementSequence } from '../protocol/record-batch.js';

/** How many batches per producer are remembered for duplicate detection. */
export const NUM_BATCHES_TO_RETAIN = 5;
const INT32_MAX = 0x7fffffff;

export interface BatchMetadata {
  firstSeq: number;
  lastSeq: number;
  /** Offset of the batch's last record. */
  lastOffset: number;
  /** lastOffset - baseOffset */
  offsetDelta: number;
  maxTimestamp: number;
}

export interface ProducerEntry {
  producerId: number;
  producerEpoch: number;
  /** Newest last. */
  batches: BatchMetadata[];
  coordinatorEpoch: number;
  /** Max timestamp of the producer's last batch (what producer.id.expiration.ms measures from). */
  lastTimestamp: number;
  /** First offset of the producer's open transaction in this partition, or null. */
  currentTxnFirstOffset: number | null;
}

export interface AbortedTxn {
  producerId: number;
  firstOffset: number;
  /** Offset of the ABORT marker. */
  lastOffset: number;
}

/** What a batch from a producer id would do to this partition. */
export type AppendCheck =
  | { kind: 'append' }
  | { kind: 'duplicate'; batch: BatchMetadata }
  | { kind: 'error'; error: ErrorName; message: string };

export interface IncomingBatch {
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  lastOffsetDelta: number;
  transactional: boolean;
}

/**
 * The entries of every table no producer id has written to: most partitions
 * of a wide topic never see an idempotent producer, and an empty Map costs
 * ~180 bytes. Never written to (writable() swaps in a Map of its own).
 */
const NO_ENTRIES: ReadonlyMap<number, ProducerEntry> = new Map();

/** A transaction whose marker is written but not yet below the high watermark. */
interface UnreplicatedTxn {
  firstOffset: number;
  markerOffset: number;
}

/** The lists of every table with no transaction (frozen: written only after writable copies). */
const NO_UNREPLICATED: readonly UnreplicatedTxn[] = Object.freeze([]);
const NO_ABORTED: readonly AbortedTxn[] = Object.freeze([]);

export class ProducerStateTable {
  private entries = NO_ENTRIES as Map<number, ProducerEntry>;
  /** Transactions whose marker is written but not yet below the high watermark. */
  private unreplicated = NO_UNREPLICATED as UnreplicatedTxn[];
  private abortedTxns = NO_ABORTED as AbortedTxn[];

  /** producer.id.expiration.ms; entries idle this long (with no open transaction) are forgotten by removeExpiredProducers. */
  constructor(private readonly expirationMs: () => number = () => 86_400_000) {}

  /** The aborted-transaction index, oldest first. */
  get aborted(): readonly AbortedTxn[] {
    return this.abortedTxns;
  }

  private writable(): Map<number, ProducerEntry> {
    if (this.entries === NO_ENTRIES) this.entries = new Map();
    return this.entries;
  }

  get(producerId: number): ProducerEntry | undefined {
    return this.entries.get(producerId);
  }

  /**
   * Kafka's periodic scan (ProducerStateManager#removeExpiredProducers): forgets
   * every producer id with no open transaction whose last batch's timestamp
   * is producer.id.expiration.ms or more before now. Lookups never expire an
   * entry, so a producer whose records carry old timestamps keeps its
   * sequence state until the next scan. Returns the ids removed.
   */
  removeExpiredProducers(now: number): number[] {
    const removed: number[] = [];
    for (const [id, e] of this.entries) {
      if (e.currentTxnFirstOffset === null && now - e.lastTimestamp >= this.expirationMs()) removed.push(id);
    }
    for (const id of removed) this.entries.delete(id);
    return removed;
  }

  /** Every producer id known here (DescribeProducers: Kafka's activeProducers, until the next expiration scan). */
  producers(): ProducerEntry[] {
    return [...this.entries.values()];
  }

  /** Forgets a producer id at once, as producer.id.expiration.ms would (unless it has an open transaction). */
  expire(producerId: number): boolean {
    const e = this.entries.get(producerId);
    if (!e || e.currentTxnFirstOffset !== null) return false;
    return this.entries.delete(producerId);
  }

  hasOpenTransaction(producerId: number): boolean {
    return this.entries.get(producerId)?.currentTxnFirstOffset != null;
  }

  /** Duplicate check: same epoch, and a cached batch with exactly this sequence range. */
  findDuplicate(b: IncomingBatch): BatchMetadata | undefined {
    const e = this.entries.get(b.producerId);
    if (!e || e.producerEpoch !== b.producerEpoch) return undefined;
    const lastSeq = incrementSequence(b.baseSequence, b.lastOffsetDelta);
    return e.batches.find((m) => m.firstSeq === b.baseSequence && m.lastSeq === lastSeq);
  }

  /** ProducerAppendInfo's epoch, sequence and transaction checks for a client batch. */
  check(b: IncomingBatch): AppendCheck {
    const e = this.entries.get(b.producerId);
    if (e && b.producerEpoch < e.producerEpoch) {
      return {
        kind: 'error',
        error: 'INVALID_PRODUCER_EPOCH',
        message: `Epoch of producer ${b.producerId} at offset is ${b.producerEpoch}, which is smaller than the last seen epoch ${e.producerEpoch}`,
      };
    }
    if (e && e.producerEpoch !== -1) {
      if (b.producerEpoch > e.producerEpoch) {
        if (b.baseSequence !== 0) return outOfOrder(b, `epoch bumped to ${b.producerEpoch}: sequence must start at 0`);
      } else {
        const last = e.batches.length ? e.batches[e.batches.length - 1]!.lastSeq : -1;
        const inSequence = b.baseSequence === last + 1 || (last === INT32_MAX && b.baseSequence === 0);
        if (!inSequence) return outOfOrder(b, `expected ${last === INT32_MAX ? 0 : last + 1}`);
      }
    }
    if (!b.transactional && e?.currentTxnFirstOffset != null) {
      return { kind: 'error', error: 'INVALID_TXN_STATE', message: `Expected transactional write from producer ${b.producerId}` };
    }
    return { kind: 'append' };
  }

  /** Records an appended data batch: epoch, the batch cache, and the transaction it opens or continues. */
  recordAppend(b: IncomingBatch, baseOffset: number, maxTimestamp: number): void {
    let e = this.entries.get(b.producerId);
    if (!e) {
      e = { producerId: b.producerId, producerEpoch: b.producerEpoch, batches: [], coordinatorEpoch: -1, lastTimestamp: maxTimestamp, currentTxnFirstOffset: null };
      this.writable().set(b.producerId, e);
    }
    if (b.producerEpoch !== e.producerEpoch) {
      e.producerEpoch = b.producerEpoch;
      e.batches = [];
    }
    e.batches.push({
      firstSeq: b.baseSequence,
      lastSeq: incrementSequence(b.baseSequence, b.lastOffsetDelta),
      lastOffset: baseOffset + b.lastOffsetDelta,
      offsetDelta: b.lastOffsetDelta,
      maxTimestamp,
    });
    if (e.batches.length > NUM_BATCHES_TO_RETAIN) e.batches.shift();
    e.lastTimestamp = maxTimestamp;
    if (b.transactional && e.currentTxnFirstOffset === null) e.currentTxnFirstOffset = baseOffset;
  }

  /**
   * Checks a COMMIT/ABORT marker (appendEndTxnMarker): epoch and coordinator
   * epoch, never sequences. Under transaction version 2 the marker carries the
   * epoch the EndTxn bumped to, so it must be above the partition's
   * (ProducerAppendInfo#checkProducerEpoch: a marker at the data's epoch would
   * be a coordinator that did not bump).
   */
  checkMarker(producerId: number, producerEpoch: number, coordinatorEpoch: number, transactionVersion = 0): ErrorName {
    const e = this.entries.get(producerId);
    if (!e) return 'NONE';
    if (producerEpoch < e.producerEpoch || (transactionVersion >= 2 && producerEpoch === e.producerEpoch)) return 'INVALID_PRODUCER_EPOCH';
    if (coordinatorEpoch < e.coordinatorEpoch) return 'TRANSACTION_COORDINATOR_FENCED';
    return 'NONE';
  }

  /** Records an appended marker: completes the producer's transaction here, and indexes it when aborted. */
  recordMarker(producerId: number, producerEpoch: number, coordinatorEpoch: number, commit: boolean, markerOffset: number, timestamp: number): void {
    let e = this.entries.get(producerId);
    if (!e) {
      e = { producerId, producerEpoch, batches: [], coordinatorEpoch, lastTimestamp: timestamp, currentTxnFirstOffset: null };
      this.writable().set(producerId, e);
    }
    // A marker with a higher epoch (after a fence or timeout) raises the epoch and clears the cache.
    if (producerEpoch > e.producerEpoch) {
      e.producerEpoch = producerEpoch;
      e.batches = [];
    }
    e.coordinatorEpoch = coordinatorEpoch;
    e.lastTimestamp = timestamp;
    const first = e.currentTxnFirstOffset;
    e.currentTxnFirstOffset = null;
    if (first === null) return; // an empty transaction here: no index entry, LSO unaffected
    if (this.unreplicated === NO_UNREPLICATED) this.unreplicated = [];
    this.unreplicated.push({ firstOffset: first, markerOffset });
    if (commit) return;
    if (this.abortedTxns === NO_ABORTED) this.abortedTxns = [];
    this.abortedTxns.push({ producerId, firstOffset: first, lastOffset: markerOffset });
  }

  /**
   * First offset a read_committed reader may not pass: the oldest open
   * transaction, or a completed one whose marker is not yet replicated.
   */
  firstUnstableOffset(highWatermark: number): number | null {
    // Asked on every Fetch of every partition: no new array unless one is due to go.
    if (this.unreplicated.some((t) => t.markerOffset < highWatermark)) this.unreplicated = this.unreplicated.filter((t) => t.markerOffset >= highWatermark);
    let min: number | null = null;
    for (const e of this.entries.values()) {
      if (e.currentTxnFirstOffset !== null && (min === null || e.currentTxnFirstOffset < min)) min = e.currentTxnFirstOffset;
    }
    for (const t of this.unreplicated) if (min === null || t.firstOffset < min) min = t.firstOffset;
    return min;
  }

  /** Aborted transactions overlapping [fetchOffset, upperBound): what a read_committed fetch must list. */
  abortedBetween(fetchOffset: number, upperBound: number): readonly AbortedTxn[] {
    if (this.abortedTxns.length === 0) return NO_ABORTED;
    return this.abortedTxns.filter((a) => a.lastOffset >= fetchOffset && a.firstOffset < upperBound);
  }

  clear(): void {
    this.entries.clear();
    this.unreplicated = NO_UNREPLICATED as UnreplicatedTxn[];
    this.abortedTxns = NO_ABORTED as AbortedTxn[];
  }
}

function outOfOrder(b: IncomingBatch, why: string): AppendCheck {
  return {
    kind: 'error',
    error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    message: `Out of order sequence number for producer ${b.producerId} at offset: ${b.baseSequence} (${why})`,
  };
}
