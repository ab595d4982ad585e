// One share group's view of one partition (Kafka 4.4's SharePartition): the
// records in flight between the share-partition start offset (every record
// before it is acknowledged or archived) and the last offset ever handed out,
// each AVAILABLE, ACQUIRED by a member under an acquisition lock,
// ACKNOWLEDGED, or ARCHIVED, with its delivery count.
// - acquire: AVAILABLE records in the window first, then new records from
//   the log, up to MaxRecords (whole batches, so it may go over, except in
//   ShareFetch v2's record_limit mode) and up to
//   share.partition.max.record.locks in flight; each acquisition bumps the
//   delivery count and arms a lock of share.record.lock.duration.ms;
// - a lock that expires, a RELEASE, or the member's session ending makes a
//   record AVAILABLE again, or ARCHIVED once its delivery count reached
//   share.delivery.count.limit (then written to the group's dead-letter
//   topic, if it has one);
// - ACCEPT acknowledges, REJECT archives, GAP archives an offset with no
//   record (a transaction marker), RENEW restarts the lock.
// A record that has been delivered often comes alone (Kafka's delivery
// throttling, SharePartition#shouldThrottleRecordsDelivery), so that a
// poison record is isolated from the records behind it.
//
// Differences from Kafka: the state is kept per offset (Kafka keeps whole
// batches until an acknowledgement splits one; what a client sees is the
// same, but AcquiredRecords ranges may be cut elsewhere); a throttled
// record always comes alone (Kafka halves the batch each delivery).
import type { Timer } from '../clock.js';
import type { Partition } from '../partition.js';
import type { StoredBatch } from '../partition-log.js';
import { isControlBatch, isTransactional, readBatchHeader } from '../../protocol/record-batch.js';
import type { ShareGroupConfigValues } from '../groups/group-configs.js';
import { offsetForTimestamp } from '../offset-for-timestamp.js';

export type RecordState = 'AVAILABLE' | 'ACQUIRED' | 'ACKNOWLEDGED' | 'ARCHIVED';

/** AcknowledgeType ids (ShareFetchRequest/ShareAcknowledgeRequest). */
export const AcknowledgeType = { GAP: 0, ACCEPT: 1, RELEASE: 2, REJECT: 3, RENEW: 4 } as const;

interface AcquisitionLock {
  timer: Timer | null;
  /** Records still ACQUIRED under this lock. */
  held: number;
}

interface InFlightRecord {
  state: RecordState;
  deliveryCount: number;
  /** The member that holds it; "" when not acquired. */
  memberId: string;
  lock: AcquisitionLock | null;
}

export interface AcquiredRecords {
  firstOffset: number;
  lastOffset: number;
  deliveryCount: number;
}

export interface AcknowledgementBatch {
  firstOffset: number;
  lastOffset: number;
  /** One type for the whole range, or one per offset. */
  acknowledgeTypes: number[];
}

/** An acknowledgement refused: the partition's error, nothing of the request applied to it. */
export class AcknowledgeError extends Error {
  constructor(
    readonly error: 'INVALID_RECORD_STATE' | 'INVALID_REQUEST',
    message: string,
  ) {
    super(message);
  }
}

/** Records that reached their end without being acknowledged: what a dead-letter topic receives. */
export interface ArchivedForDeadLetter {
  offset: number;
  deliveryCount: number;
  cause: 'Offset rejected by client.' | 'Offset delivery count exceeded the threshold.';
}

export interface SharePartitionHooks {
  setTimer(ms: number, fn: () => void): Timer;
  now(): number;
  /** Records became AVAILABLE (a waiting ShareFetch may now get them). */
  onAvailable(): void;
  /** Records archived as a dead-letter topic takes them (REJECT, or the delivery count limit). */
  onDeadLetter(records: ArchivedForDeadLetter[]): void;
}

export class SharePartition {
  /** The share-partition start offset: everything before it is acknowledged or archived. */
  startOffset: number;
  /** The first offset never put in flight. */
  private next: number;
  private readonly inFlight = new Map<number, InFlightRecord>();
  /**
   * The share state as last written (Kafka's share coordinator holds it, and
   * DescribeShareGroupOffsets reads it there): each acknowledgement, release
   * or lock expiry writes the start offset as it was before that change moved
   * it, with how many records from it on are done; acquisition writes nothing.
   * Null until the first write.
   */
  written: { startOffset: number; leaderEpoch: number; deliveryComplete: number } | null = null;

  constructor(
    readonly groupId: string,
    readonly partition: Partition,
    private readonly config: () => ShareGroupConfigValues,
    private readonly hooks: SharePartitionHooks,
  ) {
    this.startOffset = this.next = this.initialOffset();
  }

  /** SharePartition#startOffsetDuringInitialization: share.auto.offset.reset, read when the group first reads this partition. */
  private initialOffset(): number {
    const p = this.partition;
    const reset = this.config().autoOffsetReset;
    if (reset.kind === 'earliest') return p.logStartOffset;
    if (reset.kind === 'latest') return p.highWatermark;
    return offsetForTimestamp(p, this.hooks.now() - reset.durationMs, p.highWatermark)?.offset ?? p.highWatermark;
  }

  /** The last offset put in flight, or startOffset - 1 when nothing is. */
  get endOffset(): number {
    return this.next - 1;
  }

  get inFlightCount(): number {
    return this.next - this.startOffset;
  }

  /** State of one offset (for inspection): terminal below the start offset, undefined past the window. */
  recordState(offset: number): { state: RecordState; deliveryCount: number; memberId: string } | undefined {
    const r = this.inFlight.get(offset);
    return r && { state: r.state, deliveryCount: r.deliveryCount, memberId: r.memberId };
  }

  /** SharePartition#nextFetchOffset: the first AVAILABLE record in the window, else the first offset never fetched. */
  nextFetchOffset(): number {
    for (let o = this.startOffset; o < this.next; o++) if (this.inFlight.get(o)?.state === 'AVAILABLE') return o;
    return this.next;
  }

  /** Before a fetch reads the log: where it reads from (the log's start may have moved past ours). */
  prepareFetch(): number {
    this.followLogStart();
    return this.nextFetchOffset();
  }

  /** SharePartition#canAcquireRecords: something AVAILABLE in the window, or room for more in flight. */
  canAcquireRecords(): boolean {
    return this.nextFetchOffset() < this.next || this.inFlightCount < this.config().partitionMaxRecordLocks;
  }

  /** The log moved its start past ours (DeleteRecords, retention): what is gone is archived. */
  private followLogStart(): void {
    const logStart = this.partition.logStartOffset;
    if (logStart <= this.startOffset) return;
    for (let o = this.startOffset; o < Math.min(logStart, this.next); o++) this.terminate(o, 'ARCHIVED');
    if (this.next < logStart) this.next = logStart;
    this.startOffset = logStart;
    this.advanceStartOffset();
  }

  /**
   * Acquires records for a member from the log batches read at
   * nextFetchOffset(): AVAILABLE records in the window, then new ones, at
   * most maxRecords, checked before each batch so that a batch once started
   * comes whole (unless recordLimit: v2's ShareAcquireMode record_limit,
   * exactly maxRecords). The batches to send are those that hold what was
   * acquired.
   */
  acquire(memberId: string, batches: readonly StoredBatch[], maxRecords: number, readCommittedAborted?: (batches: readonly StoredBatch[]) => Set<StoredBatch>, recordLimit = false): { acquired: AcquiredRecords[]; batches: StoredBatch[] } {
    this.followLogStart();
    const none = { acquired: [], batches: [] };
    if (maxRecords <= 0 || batches.length === 0) return none;
    const cfg = this.config();
    const throttleLimit = Math.max(2, Math.ceil(cfg.deliveryCountLimit / 2));
    const lock: AcquisitionLock = { timer: null, held: 0 };
    const offsets: number[] = [];
    const aborted = readCommittedAborted?.(batches) ?? new Set<StoredBatch>();
    let budget = maxRecords;
    let stop = false;
    for (const b of batches) {
      if (stop) break;
      const newInBatch: number[] = [];
      let takenInBatch = 0;
      for (let o = Math.max(b.baseOffset, this.startOffset); o <= b.lastOffset; o++) {
        if (o < this.next) {
          const r = this.inFlight.get(o)!;
          if (r.state !== 'AVAILABLE') continue;
          // batch_optimized: the budget is checked per batch, so a batch once started comes whole (SharePartition#acquire checks acquiredCount before each in-flight batch).
          if (budget <= 0 && (recordLimit || takenInBatch === 0)) {
            stop = true;
            break;
          }
          // Delivery throttling: a record delivered often comes alone.
          if (r.deliveryCount >= throttleLimit && offsets.length > 0) {
            stop = true;
            break;
          }
          this.take(r, memberId, lock);
          offsets.push(o);
          budget--;
          takenInBatch++;
          if (r.deliveryCount > throttleLimit) {
            stop = true;
            break;
          }
        } else {
          // New records: as many as the budget and the lock limit allow, rounded up to the end of their batch.
          if (budget <= 0 || this.inFlightCount >= cfg.partitionMaxRecordLocks) {
            if (recordLimit && budget <= 0 && newInBatch.length > 0) {
              // record_limit: never more than MaxRecords; the rest of the batch waits in flight, AVAILABLE, never delivered (SharePartition#createBatches).
              for (; o <= b.lastOffset; o++) this.inFlight.set(o, { state: 'AVAILABLE', deliveryCount: 0, memberId: '', lock: null });
              this.next = b.lastOffset + 1;
            }
            if (newInBatch.length === 0 || recordLimit) {
              stop = true;
              break;
            }
          }
          newInBatch.push(o);
          this.next = o + 1;
          const r: InFlightRecord = { state: 'AVAILABLE', deliveryCount: 0, memberId: '', lock: null };
          this.inFlight.set(o, r);
          if (aborted.has(b)) {
            // read_committed: aborted transactional records are archived, never delivered.
            this.terminate(o, 'ARCHIVED');
            continue;
          }
          this.take(r, memberId, lock);
          offsets.push(o);
          budget--;
        }
      }
    }
    this.advanceStartOffset();
    if (offsets.length === 0) return none;
    lock.timer = this.hooks.setTimer(cfg.recordLockDurationMs, () => this.onLockExpired(lock));
    const first = offsets[0]!;
    const last = offsets[offsets.length - 1]!;
    return { acquired: this.ranges(offsets), batches: batches.filter((b) => b.lastOffset >= first && b.baseOffset <= last) };
  }

  private take(r: InFlightRecord, memberId: string, lock: AcquisitionLock): void {
    r.state = 'ACQUIRED';
    r.deliveryCount++;
    r.memberId = memberId;
    r.lock = lock;
    lock.held++;
  }

  /** ShareFetchUtils#accumulateAcquiredRecords: adjacent offsets of one delivery count make one range. */
  private ranges(offsets: number[]): AcquiredRecords[] {
    const out: AcquiredRecords[] = [];
    for (const o of offsets) {
      const dc = this.inFlight.get(o)!.deliveryCount;
      const last = out[out.length - 1];
      if (last && last.lastOffset === o - 1 && last.deliveryCount === dc) last.lastOffset = o;
      else out.push({ firstOffset: o, lastOffset: o, deliveryCount: dc });
    }
    return out;
  }

  /** The lock ran out: what is still ACQUIRED under it goes back (or is archived at the delivery limit). */
  private onLockExpired(lock: AcquisitionLock): void {
    lock.timer = null;
    if (lock.held === 0) return;
    const dead: ArchivedForDeadLetter[] = [];
    let released = false;
    for (let o = this.startOffset; o < this.next && lock.held > 0; o++) {
      const r = this.inFlight.get(o)!;
      if (r.lock === lock && r.state === 'ACQUIRED') released = this.release(o, r, dead) || released;
    }
    this.finishTransitions(dead, released);
  }

  /** Expires every acquisition lock of the partition now (a fault: the lock ran out early). Returns how many records were released. */
  expireLocks(memberId?: string): number {
    const dead: ArchivedForDeadLetter[] = [];
    let n = 0;
    for (let o = this.startOffset; o < this.next; o++) {
      const r = this.inFlight.get(o)!;
      if (r.state !== 'ACQUIRED' || (memberId !== undefined && r.memberId !== memberId)) continue;
      this.release(o, r, dead);
      n++;
    }
    if (n > 0) this.finishTransitions(dead, true);
    return n;
  }

  /** SharePartition#releaseAcquiredRecords: the member's session ended; what it holds goes back. */
  releaseAcquiredRecords(memberId: string): number {
    return this.expireLocks(memberId);
  }

  /** Back to AVAILABLE, or ARCHIVED at the delivery count limit. True when it became AVAILABLE. */
  private release(offset: number, r: InFlightRecord, dead: ArchivedForDeadLetter[]): boolean {
    this.unlock(r);
    if (r.deliveryCount >= this.config().deliveryCountLimit) {
      r.state = 'ARCHIVED';
      r.memberId = '';
      dead.push({ offset, deliveryCount: r.deliveryCount, cause: 'Offset delivery count exceeded the threshold.' });
      return false;
    }
    r.state = 'AVAILABLE';
    r.memberId = '';
    return true;
  }

  private unlock(r: InFlightRecord): void {
    const lock = r.lock;
    r.lock = null;
    if (!lock) return;
    lock.held--;
    if (lock.held === 0 && lock.timer) {
      lock.timer.cancel();
      lock.timer = null;
    }
  }

  private terminate(offset: number, state: 'ACKNOWLEDGED' | 'ARCHIVED'): void {
    const r = this.inFlight.get(offset);
    if (!r) return;
    this.unlock(r);
    r.state = state;
    r.memberId = '';
  }

  private finishTransitions(dead: ArchivedForDeadLetter[], released: boolean): void {
    this.write();
    this.advanceStartOffset();
    if (dead.length > 0) this.hooks.onDeadLetter(dead);
    if (released) this.hooks.onAvailable();
  }

  /** SharePartition#writeShareGroupState: the state goes out before the start offset moves (that happens once the write is done). */
  private write(): void {
    let deliveryComplete = 0;
    for (let o = this.startOffset; o < this.next; o++) {
      const state = this.inFlight.get(o)!.state;
      if (state === 'ACKNOWLEDGED' || state === 'ARCHIVED') deliveryComplete++;
    }
    this.written = { startOffset: this.startOffset, leaderEpoch: this.partition.leaderEpoch, deliveryComplete };
  }

  /** SharePartition#maybeUpdateCachedStateAndOffsets: the start offset moves past the leading acknowledged and archived records. */
  private advanceStartOffset(): void {
    while (this.startOffset < this.next) {
      const r = this.inFlight.get(this.startOffset)!;
      if (r.state !== 'ACKNOWLEDGED' && r.state !== 'ARCHIVED') break;
      this.inFlight.delete(this.startOffset);
      this.startOffset++;
    }
  }

  /**
   * SharePartition#acknowledge: every batch of one request, in order, all or
   * nothing. Offsets below the start offset are skipped (already done).
   */
  acknowledge(memberId: string, batches: readonly AcknowledgementBatch[]): void {
    const cfg = this.config();
    const planned: { offset: number; record: InFlightRecord; type: number }[] = [];
    for (const b of batches) {
      if (b.lastOffset < this.startOffset) continue;
      if (this.inFlight.size === 0 || (b.firstOffset < this.startOffset && this.startOffset > b.lastOffset)) {
        throw new AcknowledgeError('INVALID_RECORD_STATE', 'Batch record not found. The request batch offsets are not found in the cache.');
      }
      // SharePartition#fetchSubMapForAcknowledgementBatch's messages, word for word.
      if (b.firstOffset > this.endOffset) throw new AcknowledgeError('INVALID_REQUEST', 'Batch record not found. The first offset in request is past acquired records.');
      if (b.lastOffset > this.endOffset) throw new AcknowledgeError('INVALID_REQUEST', 'Batch record not found. The last offset in request is past acquired records.');
      for (let o = Math.max(b.firstOffset, this.startOffset); o <= b.lastOffset; o++) {
        const record = this.inFlight.get(o)!;
        const type = b.acknowledgeTypes.length === 1 ? b.acknowledgeTypes[0]! : b.acknowledgeTypes[o - b.firstOffset]!;
        if (record.state !== 'ACQUIRED') throw new AcknowledgeError('INVALID_RECORD_STATE', 'The offset cannot be acknowledged. The offset is not acquired.');
        if (record.memberId !== memberId) throw new AcknowledgeError('INVALID_RECORD_STATE', 'Member is not the owner of offset');
        if (type === AcknowledgeType.RENEW && !cfg.renewAcknowledgeEnable) throw new AcknowledgeError('INVALID_RECORD_STATE', 'Renewing acquisition locks is not enabled for the group.');
        planned.push({ offset: o, record, type });
      }
    }
    // Nothing to change (every batch below the start offset): nothing is written either.
    if (planned.length === 0) return;
    const dead: ArchivedForDeadLetter[] = [];
    let released = false;
    let renewed: AcquisitionLock | null = null;
    for (const { offset, record, type } of planned) {
      switch (type) {
        case AcknowledgeType.ACCEPT:
          this.terminate(offset, 'ACKNOWLEDGED');
          break;
        case AcknowledgeType.RELEASE:
          released = this.release(offset, record, dead) || released;
          break;
        case AcknowledgeType.REJECT:
          this.terminate(offset, 'ARCHIVED');
          dead.push({ offset, deliveryCount: record.deliveryCount, cause: 'Offset rejected by client.' });
          break;
        case AcknowledgeType.GAP:
          this.terminate(offset, 'ARCHIVED');
          break;
        case AcknowledgeType.RENEW: {
          // The lock starts again, whole: the renewed records move to a lock of their own.
          this.unlock(record);
          renewed ??= { timer: this.hooks.setTimer(cfg.recordLockDurationMs, () => this.onLockExpired(renewed!)), held: 0 };
          record.lock = renewed;
          renewed.held++;
          break;
        }
      }
    }
    this.finishTransitions(dead, released);
  }

  /** The partition's records as one summary (the web view, tests): counts by state. */
  summary(): { startOffset: number; endOffset: number; available: number; acquired: number; acknowledged: number; archived: number } {
    const counts = { available: 0, acquired: 0, acknowledged: 0, archived: 0 };
    for (const r of this.inFlight.values()) counts[r.state.toLowerCase() as keyof typeof counts]++;
    return { startOffset: this.startOffset, endOffset: this.endOffset, ...counts };
  }

  /** Moves the start offset (AlterShareGroupOffsets): the window starts again there, empty. */
  resetTo(offset: number): void {
    this.cancelLocks();
    this.inFlight.clear();
    this.startOffset = this.next = offset;
    this.written = { startOffset: offset, leaderEpoch: 0, deliveryComplete: 0 };
  }

  /** Cancels every lock (the group or partition is going away). */
  cancelLocks(): void {
    for (const r of this.inFlight.values()) {
      r.lock?.timer?.cancel();
      if (r.lock) r.lock.timer = null;
    }
  }
}

/**
 * The batches a read_committed share fetch must not deliver: data of
 * transactions that were aborted (the aborted-transaction list of the range,
 * up to each producer's ABORT marker), as
 * SharePartition#fetchAbortedTransactionRecordBatches finds them.
 */
export function abortedBatches(p: Partition, batches: readonly StoredBatch[]): Set<StoredBatch> {
  const out = new Set<StoredBatch>();
  if (batches.length === 0) return out;
  const aborted = [...p.producers.abortedBetween(batches[0]!.baseOffset, batches[batches.length - 1]!.lastOffset + 1)].sort((a, b) => a.firstOffset - b.firstOffset);
  const open = new Set<number>();
  let next = 0;
  for (const b of batches) {
    while (next < aborted.length && aborted[next]!.firstOffset <= b.lastOffset) open.add(aborted[next++]!.producerId);
    const h = readBatchHeader(b.bytes);
    if (!isTransactional(h.attributes) || !open.has(h.producerId)) continue;
    if (isControlBatch(h.attributes)) open.delete(h.producerId);
    else out.add(b);
  }
  return out;
}
