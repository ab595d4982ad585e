// A group's committed offsets, and the transactional ones still pending
// (TxnOffsetCommit before its transaction ends), as GroupMetadata keeps them.
// Pending offsets are invisible to OffsetFetch; a commit marker makes them
// committed, unless a later plain commit for the same partition is newer.

export interface OffsetAndMetadata {
  offset: number;
  /** -1 when the committer sent none. */
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** Set only by OffsetCommit v2-4 with a retention time; kafkaesque never expires offsets. */
  expireTimestamp: number | null;
  /**
   * Position of the commit record in __consumer_offsets: when a transaction
   * completes, its offset replaces the committed one only if it was written
   * later (CommitRecordMetadataAndOffset#olderThan).
   */
  recordSeq: number;
}

export interface TopicPartitionOffset extends OffsetAndMetadata {
  topic: string;
  partition: number;
}

type ByPartition = Map<string, Map<number, OffsetAndMetadata>>;

function put(map: ByPartition, topic: string, partition: number, value: OffsetAndMetadata): void {
  let t = map.get(topic);
  if (!t) map.set(topic, (t = new Map()));
  t.set(partition, value);
}

function drop(map: ByPartition, topic: string, partition: number): boolean {
  const t = map.get(topic);
  if (!t?.delete(partition)) return false;
  if (t.size === 0) map.delete(topic);
  return true;
}

export class OffsetStore {
  private readonly committed: ByPartition = new Map();
  private readonly pendingTxn = new Map<number, ByPartition>();

  get(topic: string, partition: number): OffsetAndMetadata | undefined {
    return this.committed.get(topic)?.get(partition);
  }

  /** Every committed offset, grouped by topic in commit order. */
  all(): TopicPartitionOffset[] {
    const out: TopicPartitionOffset[] = [];
    for (const [topic, parts] of this.committed) for (const [partition, o] of parts) out.push({ topic, partition, ...o });
    return out;
  }

  get size(): number {
    let n = 0;
    for (const parts of this.committed.values()) n += parts.size;
    return n;
  }

  commit(topic: string, partition: number, value: OffsetAndMetadata): void {
    put(this.committed, topic, partition, value);
  }

  /** GroupMetadata#removeOffsets: the committed offset and any pending one go; true if one was committed. */
  remove(topic: string, partition: number): boolean {
    for (const pending of this.pendingTxn.values()) drop(pending, topic, partition);
    return drop(this.committed, topic, partition);
  }

  removeTopic(topic: string): void {
    this.committed.delete(topic);
    for (const pending of this.pendingTxn.values()) pending.delete(topic);
  }

  addPending(producerId: number, topic: string, partition: number, value: OffsetAndMetadata): void {
    let pending = this.pendingTxn.get(producerId);
    if (!pending) this.pendingTxn.set(producerId, (pending = new Map()));
    put(pending, topic, partition, value);
  }

  hasPendingFrom(producerId: number): boolean {
    return this.pendingTxn.has(producerId);
  }

  hasPending(topic: string, partition: number): boolean {
    for (const pending of this.pendingTxn.values()) if (pending.get(topic)?.has(partition)) return true;
    return false;
  }

  /** GroupMetadata#completePendingTxnOffsetCommit: commit keeps each offset unless a newer record is committed. */
  completePending(producerId: number, commit: boolean): TopicPartitionOffset[] {
    const pending = this.pendingTxn.get(producerId);
    this.pendingTxn.delete(producerId);
    const materialised: TopicPartitionOffset[] = [];
    if (!pending || !commit) return materialised;
    for (const [topic, parts] of pending) {
      for (const [partition, o] of parts) {
        const current = this.get(topic, partition);
        if (current && current.recordSeq > o.recordSeq) continue;
        this.commit(topic, partition, o);
        materialised.push({ topic, partition, ...o });
      }
    }
    return materialised;
  }

  /** GroupMetadata#hasOffsets: committed or pending offsets keep an Empty group alive. */
  get hasOffsets(): boolean {
    return this.committed.size > 0 || this.pendingTxn.size > 0;
  }
}
