// A share group's dead-letter topic (KIP-1191, Kafka 4.4's
// ShareGroupDLQStateManager): a record archived by a REJECT or by reaching
// share.delivery.count.limit is written there, one record per offset, with
// headers saying where it came from and why; its key and value only when
// errors.deadletterqueue.copy.record.enable is set. The topic must not be
// internal and must say it takes dead letters
// (errors.deadletterqueue.group.enable=true); otherwise nothing is written
// and the record is archived all the same, as Kafka does.
import type { Cluster } from '../cluster.js';
import type { Partition } from '../partition.js';
import { buildRecordBatch, decodeRecords, type RecordInput } from '../../protocol/record-batch.js';
import { appendRecords } from '../append.js';
import type { ArchivedForDeadLetter } from './share-partition.js';

export interface DeadLetters {
  groupId: string;
  topic: string;
  partition: Partition;
  dlqTopic: string;
  copyRecord: boolean;
  records: readonly ArchivedForDeadLetter[];
}

/** ShareGroupDLQStateManager.ProduceRequestHandler#validateDlqTopic: why a topic cannot take them, or null. */
export function deadLetterTopicProblem(cluster: Cluster, name: string): string | null {
  if (name.startsWith('__')) return `dead-letter topic ${name} is internal`;
  const t = cluster.topic(name);
  if (!t) return `dead-letter topic ${name} does not exist`;
  if (t.configs.get('errors.deadletterqueue.group.enable') !== 'true') return `dead-letter topic ${name} does not set errors.deadletterqueue.group.enable=true`;
  return null;
}

export function writeDeadLetters(cluster: Cluster, d: DeadLetters): void {
  const problem = deadLetterTopicProblem(cluster, d.dlqTopic);
  if (problem) {
    cluster.log.warn({ group: d.groupId, topic: d.topic, partition: d.partition.index, records: d.records.length, reason: problem }, 'dead letters not written; archived');
    return;
  }
  const dlq = cluster.topic(d.dlqTopic)!;
  const target = dlq.partitions[d.partition.index % dlq.partitions.length]!;
  const originals = d.copyRecord ? recordsAt(d.partition, d.records.map((r) => r.offset)) : new Map();
  const now = cluster.clock.now();
  const records: RecordInput[] = d.records.map((r) => {
    const original = originals.get(r.offset);
    return {
      key: original?.key ?? null,
      value: original?.value ?? null,
      timestamp: now,
      headers: [
        { key: '__dlq.errors.topic', value: d.topic },
        { key: '__dlq.errors.partition', value: String(d.partition.index) },
        { key: '__dlq.errors.offset', value: String(r.offset) },
        { key: '__dlq.errors.group', value: d.groupId },
        { key: '__dlq.errors.delivery.count', value: String(r.deliveryCount) },
        { key: '__dlq.errors.message', value: r.cause },
      ],
    };
  });
  const outcome = appendRecords(cluster, dlq, target, { records: buildRecordBatch(records, { timestamp: now }), produceVersion: 11, acks: -1, clientId: null });
  if (outcome.error !== 'NONE') cluster.log.warn({ group: d.groupId, dlq: d.dlqTopic, error: outcome.error }, 'dead letters not written; archived');
  else cluster.log.info({ group: d.groupId, topic: d.topic, partition: d.partition.index, dlq: d.dlqTopic, records: records.length }, 'dead letters written');
}

function recordsAt(p: Partition, offsets: readonly number[]) {
  const want = new Set(offsets);
  const found = new Map<number, { key: Buffer | null; value: Buffer | null }>();
  if (offsets.length === 0) return found;
  for (const b of p.log.batchesFrom(Math.min(...offsets))) {
    if (b.baseOffset > Math.max(...offsets)) break;
    if (![...want].some((o) => o >= b.baseOffset && o <= b.lastOffset)) continue;
    try {
      for (const r of decodeRecords(b.bytes)) if (want.has(r.offset)) found.set(r.offset, { key: r.key, value: r.value });
    } catch {
      // A batch that does not decode: that record goes without key and value.
    }
  }
  return found;
}
