// The model as plain JSON: one function per thing the control API shows.
// Nothing here changes state; records are decoded from the stored batches
// only here, never on the produce/fetch path.
import type { Cluster, BrokerNode, Topic } from '../broker/cluster.js';
import type { Partition } from '../broker/partition.js';
import type { GroupDescription } from '../broker/groups/group-coordinator.js';
import type { TransactionMetadata } from '../broker/transactions/transaction-metadata.js';
import type { ProducerEntry } from '../broker/producer-state.js';
import { Compression, compressionOf, decodeRecords, isControlBatch, isTransactional, readBatchHeader, readControlType } from '../protocol/record-batch.js';
import type {
  CommittedOffsetView,
  GroupSummaryView,
  GroupView,
  NodeView,
  PartitionView,
  ProducerView,
  RecordView,
  RecordsPage,
  TopicSummary,
  TopicView,
  TransactionView,
} from './types.js';

export function nodeView(n: BrokerNode): NodeView {
  return { nodeId: n.nodeId, host: n.host, port: n.port, rack: n.rack, alive: n.alive };
}

export function topicSummary(t: Topic): TopicSummary {
  return { name: t.name, topicId: t.topicId, internal: t.internal, partitions: t.partitions.length, replicationFactor: t.partitions[0]?.replicas.length ?? 0 };
}

export function partitionView(p: Partition): PartitionView {
  return {
    partition: p.index,
    leader: p.leader,
    leaderEpoch: p.leaderEpoch,
    replicas: [...p.replicas],
    isr: [...p.isr],
    logStartOffset: p.logStartOffset,
    logEndOffset: p.logEndOffset,
    highWatermark: p.highWatermark,
    lastStableOffset: p.lastStableOffset,
  };
}

export function topicView(t: Topic): TopicView {
  return { name: t.name, topicId: t.topicId, internal: t.internal, configs: Object.fromEntries(t.configs), partitions: t.partitions.map(partitionView) };
}

const COMPRESSION_NAMES: Record<Compression, RecordView['batch']['compression']> = {
  [Compression.None]: 'none',
  [Compression.Gzip]: 'gzip',
  [Compression.Snappy]: 'snappy',
  [Compression.Lz4]: 'lz4',
  [Compression.Zstd]: 'zstd',
};

const utf8 = (b: Buffer | null) => (b === null ? null : b.toString('utf8'));
const base64 = (b: Buffer | null) => (b === null ? null : b.toString('base64'));

/** Up to `limit` records from offset `from` (clamped to the log start), the whole log up to its end. */
export function readRecords(p: Partition, from: number, limit: number): RecordsPage {
  const start = Math.max(from, p.logStartOffset);
  const records: RecordView[] = [];
  const errors: RecordsPage['errors'] = [];
  let nextOffset = Math.min(start, p.logEndOffset);
  for (const stored of p.log.batchesFrom(start)) {
    if (records.length >= limit) break;
    const h = readBatchHeader(stored.bytes);
    const batch: RecordView['batch'] = {
      baseOffset: stored.baseOffset,
      leaderEpoch: h.partitionLeaderEpoch,
      producerId: h.producerId,
      producerEpoch: h.producerEpoch,
      baseSequence: h.baseSequence,
      transactional: isTransactional(h.attributes),
      aborted: isTransactional(h.attributes) && !isControlBatch(h.attributes) && p.producers.abortedBetween(stored.baseOffset, stored.lastOffset + 1).some((a) => a.producerId === h.producerId),
      compression: COMPRESSION_NAMES[compressionOf(h.attributes)] ?? 'none',
    };
    const control = isControlBatch(h.attributes) ? readControlType(stored.bytes) : null;
    let decoded;
    try {
      decoded = decodeRecords(stored.bytes);
    } catch (err) {
      errors.push({ baseOffset: stored.baseOffset, message: (err as Error).message });
      nextOffset = stored.lastOffset + 1;
      continue;
    }
    for (const r of decoded) {
      if (r.offset < start) continue;
      if (records.length >= limit) break;
      records.push({
        offset: r.offset,
        timestamp: r.timestamp,
        key: control === null ? utf8(r.key) : null,
        keyBase64: base64(r.key),
        value: control === null ? utf8(r.value) : null,
        valueBase64: base64(r.value),
        headers: r.headers.map((x) => ({ key: x.key, value: utf8(x.value), valueBase64: base64(x.value) })),
        control: isControlBatch(h.attributes) ? (control ?? -1) : null,
        batch,
      });
      nextOffset = r.offset + 1;
    }
    // A batch read to its end: the next page starts after it (compaction-style gaps included).
    if (records.length < limit) nextOffset = Math.max(nextOffset, stored.lastOffset + 1);
  }
  return {
    topic: p.topic,
    partition: p.index,
    logStartOffset: p.logStartOffset,
    logEndOffset: p.logEndOffset,
    highWatermark: p.highWatermark,
    lastStableOffset: p.lastStableOffset,
    nextOffset,
    records,
    errors,
  };
}

export function producerView(e: ProducerEntry): ProducerView {
  return {
    producerId: e.producerId,
    producerEpoch: e.producerEpoch,
    lastSequence: e.batches.length ? e.batches[e.batches.length - 1]!.lastSeq : -1,
    lastTimestamp: e.lastTimestamp,
    coordinatorEpoch: e.coordinatorEpoch,
    currentTxnStartOffset: e.currentTxnFirstOffset,
  };
}

export function groupSummary(d: GroupDescription): GroupSummaryView {
  return { groupId: d.groupId, state: d.state, protocolType: d.protocolType, protocolName: d.protocolName, members: d.members.length, coordinator: d.coordinator };
}

export function groupView(cluster: Cluster, d: GroupDescription): GroupView {
  const offsets: CommittedOffsetView[] = d.offsets.map((o) => {
    const p = cluster.partition(o.topic, o.partition);
    return {
      topic: o.topic,
      partition: o.partition,
      offset: o.offset,
      leaderEpoch: o.leaderEpoch,
      metadata: o.metadata,
      commitTimestamp: o.commitTimestamp,
      lag: p ? Math.max(0, p.highWatermark - o.offset) : null,
    };
  });
  return {
    groupId: d.groupId,
    groupType: d.groupType,
    state: d.state,
    generationId: d.generationId,
    protocolType: d.protocolType,
    protocolName: d.protocolName,
    leaderId: d.leaderId,
    coordinator: d.coordinator,
    members: d.members.map((m) => ({ ...m })),
    offsets,
  };
}

export function transactionView(t: TransactionMetadata): TransactionView {
  return {
    transactionalId: t.transactionalId,
    producerId: t.producerId,
    producerEpoch: t.producerEpoch,
    state: t.state,
    pendingState: t.pendingState,
    timeoutMs: t.txnTimeoutMs,
    partitions: [...t.partitions.values()].map((tp) => ({ topic: tp.topic, partition: tp.partition })),
    startTimestamp: t.txnStartTimestamp,
    lastUpdateTimestamp: t.txnLastUpdateTimestamp,
  };
}
