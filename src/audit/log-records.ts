// The audited log: every data record of a partition, decoded (for inspection
// only, never on the produce/fetch path), with its id, its transaction's
// outcome (from the COMMIT/ABORT markers that follow it) and whether the
// producer was told it was written (from the produce journal).
import type { Partition } from '../broker/partition.js';
import type { ChaosEvent } from '../chaos/api.js';
import { decodeRecords, isControlBatch, isTransactional, readBatchHeader, readControlType, type KafkaRecord } from '../protocol/record-batch.js';
import type { ProduceJournal } from './produce-journal.js';
import type { AuditedRecordView, IdFrom } from './types.js';

export type TxnOutcome = 'none' | 'committed' | 'aborted' | 'ongoing';

export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  id: string | null;
  producerId: number;
  txn: TxnOutcome;
  /** The client id of the Produce that stored it, when the journal saw it. */
  clientId: string | null;
  /** Seq of the last event before its append; undefined when the journal did not see it. */
  afterSeq?: number;
  /** The fault that kept the Produce answer from the producer. */
  unacknowledgedBy?: ChaosEvent;
}

/** True for what a read_committed consumer can see: no transaction, or a committed one. */
export const visible = (r: LogRecord) => r.txn === 'none' || r.txn === 'committed';

const utf8 = (b: Buffer | null) => (b === null ? null : b.toString('utf8'));

function view(topic: string, partition: number, r: KafkaRecord): AuditedRecordView {
  const headers: Record<string, string | null> = {};
  for (const h of r.headers) if (!(h.key in headers)) headers[h.key] = utf8(h.value);
  return { topic, partition, offset: r.offset, timestamp: r.timestamp, key: utf8(r.key), value: utf8(r.value), headers };
}

export function recordId(idFrom: IdFrom, topic: string, partition: number, r: KafkaRecord): string | null {
  if (idFrom === 'key') return utf8(r.key);
  if (typeof idFrom === 'function') {
    const id = idFrom(view(topic, partition, r));
    return id === undefined || id === null ? null : String(id);
  }
  const h = r.headers.find((x) => x.key === idFrom.header);
  return h ? utf8(h.value) : null;
}

/** Every data record of the partition from its log start, in offset order. */
export function readLog(p: Partition, topicId: string, idFrom: IdFrom, journal: ProduceJournal | undefined): LogRecord[] {
  const out: LogRecord[] = [];
  const open = new Map<number, LogRecord[]>();
  const live = journal?.liveBatches(topicId, p.index) ?? [];
  let j = 0;
  for (const stored of p.log.batchesFrom(p.logStartOffset)) {
    const h = readBatchHeader(stored.bytes);
    if (isControlBatch(h.attributes)) {
      const type = readControlType(stored.bytes);
      const txn = open.get(h.producerId);
      if (txn && (type === 'COMMIT' || type === 'ABORT')) for (const r of txn) r.txn = type === 'COMMIT' ? 'committed' : 'aborted';
      open.delete(h.producerId);
      continue;
    }
    let records: KafkaRecord[];
    try {
      records = decodeRecords(stored.bytes);
    } catch {
      continue; // checked on produce; views.ts reports such batches
    }
    // Both in offset order: walk the journal alongside the log.
    while (j < live.length && live[j]!.lastOffset < stored.baseOffset) j++;
    const entry = j < live.length && live[j]!.baseOffset <= stored.baseOffset ? live[j] : undefined;
    const transactional = isTransactional(h.attributes);
    for (const r of records) {
      if (r.offset < p.logStartOffset) continue;
      const rec: LogRecord = {
        topic: p.topic,
        partition: p.index,
        offset: r.offset,
        id: recordId(idFrom, p.topic, p.index, r),
        producerId: h.producerId,
        txn: transactional ? 'ongoing' : 'none',
        clientId: entry?.clientId ?? null,
        ...(entry ? { afterSeq: entry.afterSeq } : {}),
        ...(entry?.unacknowledgedBy ? { unacknowledgedBy: entry.unacknowledgedBy } : {}),
      };
      if (transactional) {
        let txn = open.get(h.producerId);
        if (!txn) open.set(h.producerId, (txn = []));
        txn.push(rec);
      }
      out.push(rec);
    }
  }
  return out;
}
