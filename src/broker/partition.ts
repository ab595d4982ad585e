// One topic partition: its log, its replicas' progress, the ISR, the leader
// and its epoch, and the high watermark (the minimum log end offset over the
// ISR). Waiters (acks=all produces, long-polling fetches) subscribe to
// changes instead of polling.
//
// A cluster may hold tens of thousands of these, most never written to, so
// what only some partitions need (followers' progress, subscribers) is made
// on first use and arrays are sized to their contents: an empty Map or Set
// costs ~180 bytes, an array grown by push 17 slots, and even an empty array
// 32 bytes: lists that stay empty or as they began are shared until written.
import { PartitionLog } from './partition-log.js';
import { ProducerStateTable } from './producer-state.js';
import { isControlBatch, isTransactional, readBatchHeader, readControlType } from '../protocol/record-batch.js';

export interface EpochStart {
  epoch: number;
  startOffset: number;
}

/** Every partition's epoch history until its first leader change: epoch 0 from offset 0. */
const INITIAL_EPOCHS: readonly EpochStart[] = Object.freeze([Object.freeze({ epoch: 0, startOffset: 0 })]);
/** The adding and removing replicas of every partition not being reassigned. */
const NO_REPLICAS: readonly number[] = Object.freeze([]);

export class Partition {
  readonly log = new PartitionLog();
  /** Idempotent/transactional producer state, the last stable offset and the aborted-transaction index. */
  readonly producers: ProducerStateTable;
  /** Log end offset of each replica that has one, by node id (0 when absent); the leader's is the log's. */
  private replicaLeo: Map<number, number> | undefined;
  private listeners: Set<() => void> | undefined;
  /** Leader epoch history, for OffsetForLeaderEpoch and ListOffsets. */
  private epochHistory = INITIAL_EPOCHS as EpochStart[];
  leader: number;
  leaderEpoch = 0;
  isr: readonly number[];
  highWatermark = 0;
  replicas: readonly number[];
  /** A reassignment in progress (AlterPartitionReassignments): replicas joining, and leaving once the joiners are in the ISR. */
  addingReplicas: readonly number[] = NO_REPLICAS;
  removingReplicas: readonly number[] = NO_REPLICAS;

  constructor(
    readonly topic: string,
    readonly index: number,
    replicas: number[],
    producerIdExpirationMs: () => number = () => 86_400_000,
  ) {
    this.producers = new ProducerStateTable(producerIdExpirationMs);
    // A copy of exact size (the caller's array was grown by push), shared by
    // the ISR while they are equal: both lists are only ever replaced whole.
    this.replicas = replicas.slice();
    this.leader = replicas[0] ?? -1;
    this.isr = this.replicas;
  }

  get epochs(): readonly EpochStart[] {
    return this.epochHistory;
  }

  /** Ends a reassignment: no replicas adding or leaving. */
  clearReassignment(): void {
    this.addingReplicas = NO_REPLICAS;
    this.removingReplicas = NO_REPLICAS;
  }

  get logStartOffset(): number {
    return this.log.logStartOffset;
  }

  get logEndOffset(): number {
    return this.log.logEndOffset;
  }

  /** Where read_committed reads stop: the high watermark, or the first offset of the oldest unfinished transaction. */
  get lastStableOffset(): number {
    const unstable = this.producers.firstUnstableOffset(this.highWatermark);
    return unstable === null ? this.highWatermark : Math.min(unstable, this.highWatermark);
  }

  replicaLogEndOffset(nodeId: number): number {
    return nodeId === this.leader ? this.log.logEndOffset : (this.replicaLeo?.get(nodeId) ?? 0);
  }

  private setReplicaLeo(nodeId: number, offset: number): void {
    (this.replicaLeo ??= new Map()).set(nodeId, offset);
  }

  /** Subscribes to any change of high watermark, leadership or log; returns the unsubscribe function. */
  onChange(fn: () => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(fn);
    return () => listeners.delete(fn);
  }

  notify(): void {
    if (!this.listeners?.size) return;
    for (const fn of [...this.listeners]) fn();
  }

  /** Records a follower's progress and moves the high watermark if the ISR allows it. */
  setReplicaLogEndOffset(nodeId: number, offset: number): void {
    this.setReplicaLeo(nodeId, Math.min(offset, this.log.logEndOffset));
    this.updateHighWatermark();
  }

  /** HW = min LEO over the ISR; it never moves back except by truncation. */
  updateHighWatermark(): void {
    if (this.leader < 0) return;
    let hw = this.log.logEndOffset;
    for (const r of this.isr) hw = Math.min(hw, this.replicaLogEndOffset(r));
    if (hw > this.highWatermark) {
      this.highWatermark = hw;
      this.notify();
    }
  }

  /** A new replica list (a reassignment's step): a replica new to it starts with nothing and catches up; one that left is forgotten. */
  setReplicas(replicas: readonly number[], isr: readonly number[]): void {
    const leo = (this.replicaLeo ??= new Map());
    for (const r of leo.keys()) if (!replicas.includes(r)) leo.delete(r);
    for (const r of replicas) if (!leo.has(r) && r !== this.leader) leo.set(r, 0);
    this.replicas = replicas;
    this.setIsr(isr);
  }

  setIsr(isr: readonly number[]): void {
    this.isr = isr;
    this.updateHighWatermark();
    this.notify();
  }

  /**
   * Makes nodeId the leader with a new epoch. Its log is what the partition
   * keeps: anything the old leader had beyond it is truncated away, as a
   * follower truncates to the new leader's log.
   */
  becomeLeader(nodeId: number): { truncatedFrom: number | null } {
    const newLeo = nodeId === this.leader ? this.log.logEndOffset : this.replicaLogEndOffset(nodeId);
    const oldLeo = this.log.logEndOffset;
    // Replicas keep their own progress; the outgoing leader's is the log end.
    if (this.leader >= 0) this.setReplicaLeo(this.leader, oldLeo);
    let truncatedFrom: number | null = null;
    if (newLeo < oldLeo) {
      this.log.truncateTo(newLeo);
      this.rebuildProducerState();
      truncatedFrom = this.log.logEndOffset;
      for (const [id, leo] of this.replicaLeo ?? []) this.setReplicaLeo(id, Math.min(leo, this.log.logEndOffset));
      this.highWatermark = Math.min(this.highWatermark, this.log.logEndOffset);
      while (this.epochs.length > 1 && this.epochs[this.epochs.length - 1]!.startOffset > this.log.logEndOffset) this.writableEpochs().pop();
    }
    this.leader = nodeId;
    this.leaderEpoch += 1;
    this.writableEpochs().push({ epoch: this.leaderEpoch, startOffset: this.log.logEndOffset });
    this.updateHighWatermark();
    this.notify();
    return { truncatedFrom };
  }

  private writableEpochs(): EpochStart[] {
    if (this.epochHistory === INITIAL_EPOCHS) this.epochHistory = INITIAL_EPOCHS.map((e) => ({ ...e }));
    return this.epochHistory;
  }

  /**
   * Producer state after truncation, rebuilt from the batch headers that
   * remain (as Kafka's truncateAndReload does from the log).
   */
  private rebuildProducerState(): void {
    this.producers.clear();
    for (const b of this.log.batchesFrom(this.logStartOffset)) {
      const h = readBatchHeader(b.bytes);
      if (h.producerId < 0) continue;
      if (isControlBatch(h.attributes)) {
        const type = readControlType(b.bytes);
        if (type === 'COMMIT' || type === 'ABORT') {
          this.producers.recordMarker(h.producerId, h.producerEpoch, -1, type === 'COMMIT', b.baseOffset, h.maxTimestamp);
        }
        continue;
      }
      this.producers.recordAppend(
        { producerId: h.producerId, producerEpoch: h.producerEpoch, baseSequence: h.baseSequence, lastOffsetDelta: h.lastOffsetDelta, transactional: isTransactional(h.attributes) },
        b.baseOffset,
        h.maxTimestamp,
      );
    }
  }

  /** No live replica can lead: the partition is offline until one returns. */
  goOffline(): void {
    if (this.leader >= 0) this.setReplicaLeo(this.leader, this.log.logEndOffset);
    this.leader = -1;
    this.notify();
  }

  /**
   * OffsetForLeaderEpoch: the end offset of the requested epoch (the start of
   * the next larger one, or the log end for the current epoch).
   */
  endOffsetForEpoch(epoch: number): { leaderEpoch: number; endOffset: number } {
    let found = -1;
    for (let i = this.epochs.length - 1; i >= 0; i--) {
      if (this.epochs[i]!.epoch <= epoch) {
        found = i;
        break;
      }
    }
    if (found < 0) return { leaderEpoch: -1, endOffset: -1 };
    const next = this.epochs[found + 1];
    return { leaderEpoch: this.epochs[found]!.epoch, endOffset: next ? next.startOffset : this.log.logEndOffset };
  }

  /** The leader epoch in force at an offset (for ListOffsets answers). */
  epochAt(offset: number): number {
    let e = -1;
    for (const s of this.epochs) if (s.startOffset <= offset) e = s.epoch;
    return e;
  }
}
