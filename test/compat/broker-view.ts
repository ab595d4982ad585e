// The broker's side of each scenario, read from the cluster model: what the
// partitions' logs hold (records, producer ids, sequences, transaction
// markers) and what the group coordinator saw while a group scenario ran.
// The suite checks the clients' reports against this, so a client cannot pass
// by agreeing with itself.
import type { Cluster } from '../../src/broker/cluster.js';
import { decodeRecords, isControlBatch, isTransactional, readBatchHeader, readControlType } from '../../src/protocol/record-batch.js';

export interface LoggedRecord {
  partition: number;
  offset: number;
  value: string;
  producerId: number;
  producerEpoch: number;
  transactional: boolean;
  /** How the record's transaction ended: 'COMMIT', 'ABORT', 'open'; null outside transactions. */
  outcome: 'COMMIT' | 'ABORT' | 'open' | null;
}

export interface LoggedBatch {
  partition: number;
  baseOffset: number;
  count: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  transactional: boolean;
  control: 'COMMIT' | 'ABORT' | number | null;
}

export interface TopicLog {
  records: LoggedRecord[];
  batches: LoggedBatch[];
  /** Per partition: log end offset, high watermark, last stable offset. */
  partitions: { partition: number; logEndOffset: number; highWatermark: number; lastStableOffset: number }[];
}

export function topicLog(cluster: Cluster, topic: string): TopicLog {
  const t = cluster.topic(topic);
  if (!t) throw new Error(`the broker has no topic ${topic}`);
  const out: TopicLog = { records: [], batches: [], partitions: [] };
  for (const p of t.partitions) {
    out.partitions.push({ partition: p.index, logEndOffset: p.logEndOffset, highWatermark: p.highWatermark, lastStableOffset: p.lastStableOffset });
    // Data records of a transaction wait here, by producer id, for their marker.
    const open = new Map<number, LoggedRecord[]>();
    for (const b of p.log.batchesFrom(p.logStartOffset)) {
      const h = readBatchHeader(b.bytes);
      const control = isControlBatch(h.attributes) ? readControlType(b.bytes) : null;
      const transactional = isTransactional(h.attributes);
      out.batches.push({ partition: p.index, baseOffset: h.baseOffset, count: h.recordsCount, producerId: h.producerId, producerEpoch: h.producerEpoch, baseSequence: h.baseSequence, transactional, control });
      if (isControlBatch(h.attributes)) {
        if (control === 'COMMIT' || control === 'ABORT') for (const r of open.get(h.producerId) ?? []) r.outcome = control;
        open.delete(h.producerId);
        continue;
      }
      for (const rec of decodeRecords(b.bytes)) {
        const r: LoggedRecord = { partition: p.index, offset: rec.offset, value: rec.value?.toString() ?? '', producerId: h.producerId, producerEpoch: h.producerEpoch, transactional, outcome: transactional ? 'open' : null };
        out.records.push(r);
        if (transactional) open.set(h.producerId, [...(open.get(h.producerId) ?? []), r]);
      }
    }
  }
  return out;
}

/** What the group coordinator showed while a group scenario ran (sampled). */
export interface GroupTrace {
  maxMembers: number;
  /** A Stable generation in which two members split every partition of the topic between them. */
  stableSplit: { generationId: number; assignments: number[][] } | null;
}

/** Samples the group every 25 ms until the returned stop() is called. */
export function traceGroup(cluster: Cluster, groupId: string, topic: string, partitions: number): { stop(): GroupTrace } {
  const trace: GroupTrace = { maxMembers: 0, stableSplit: null };
  const sample = () => {
    const d = cluster.groups.describe(groupId);
    if (!d) return;
    trace.maxMembers = Math.max(trace.maxMembers, d.members.length);
    if (trace.stableSplit || d.state !== 'Stable' || d.members.length !== 2) return;
    const assignments = d.members.map((m) => (m.assignment ?? []).filter((a) => a.topic === topic).flatMap((a) => a.partitions).sort((x, y) => x - y));
    const all = assignments.flat();
    if (assignments.every((a) => a.length > 0) && all.length === partitions && new Set(all).size === partitions) trace.stableSplit = { generationId: d.generationId, assignments };
  };
  const timer = setInterval(sample, 25);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return trace;
    },
  };
}
