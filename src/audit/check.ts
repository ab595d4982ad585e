// The checker: from the audited log, the produce journal, the events and the
// application's report, the anomalies. Pure: evidence in, anomalies out.
// Names and meanings follow Jepsen's Kafka checker (docs/audit.md):
//   lost-write          an acknowledged record never processed, though a later offset of its partition was;
//                       or one the producer's client reported written that the log never stored
//   unseen              an acknowledged record never processed, and nothing after it in its partition was
//   duplicate           one id stored at more than one offset ('log'), or processed more than once ('processing')
//   aborted-read        a record of an aborted transaction was processed
//   poll-skip           a consumer's successive records of a partition skip offsets that hold visible records
//   non-monotonic-poll  a consumer's successive records of a partition go back (or repeat) in offset
//   non-monotonic-send  a producer's later send landed at or below an earlier one in a partition
import type { ChaosEvent } from '../chaos/api.js';
import { afterClause, concerning, recordName, recordsName, times } from './describe.js';
import { visible, type LogRecord } from './log-records.js';
import type { JournalEntry } from './produce-journal.js';
import { ANOMALY_KINDS, type AcknowledgedItem, type Anomaly, type AnomalyKind, type AuditReport, type ProcessedItem, type RecordRef, type SentItem } from './types.js';

export interface PartitionEvidence {
  topic: string;
  partition: number;
  /** Data records in offset order. */
  records: LogRecord[];
  /** The produce journal's batches of this partition, in append order (truncated ones included). */
  appends: readonly JournalEntry[];
}

export interface Evidence {
  topics: string[];
  partitions: PartitionEvidence[];
  events: readonly ChaosEvent[];
  processed: readonly ProcessedItem[];
  sent?: readonly SentItem[];
  acknowledged?: readonly AcknowledgedItem[];
}

interface Resolved {
  index: number;
  consumer?: string;
  /** The id processed (null: the record has none). */
  id: string | null;
  /** The stored record it was (a record item's own; an id's first visible copy, else its first copy). */
  rec: LogRecord;
  /** Whether the item named its offset (poll checks need it). */
  located: boolean;
}

const tpKey = (topic: string, partition: number) => `${topic}:${partition}`;
const ref = (r: LogRecord): RecordRef => ({ topic: r.topic, partition: r.partition, offset: r.offset });
const ascending = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

export function check(ev: Evidence): AuditReport {
  const anomalies: Anomaly[] = [];
  const unmatched: AuditReport['unmatched'] = [];
  const byTp = new Map<string, PartitionEvidence>();
  const byOffset = new Map<string, Map<number, LogRecord>>();
  /** Position of each offset in its partition's records, for the skip check. */
  const indexOf = new Map<string, Map<number, number>>();
  const byId = new Map<string, LogRecord[]>();
  let records = 0;
  let unacknowledged = 0;
  let aborted = 0;
  for (const p of ev.partitions) {
    const key = tpKey(p.topic, p.partition);
    byTp.set(key, p);
    byOffset.set(key, new Map(p.records.map((r) => [r.offset, r])));
    indexOf.set(key, new Map(p.records.map((r, i) => [r.offset, i])));
    for (const r of p.records) {
      if (r.txn === 'aborted') aborted++;
      if (r.id === null) continue;
      records++;
      if (r.unacknowledgedBy) unacknowledged++;
      let list = byId.get(r.id);
      if (!list) byId.set(r.id, (list = []));
      list.push(r);
    }
  }

  const add = (kind: AnomalyKind, at: LogRecord, a: Omit<Anomaly, 'kind' | 'topic' | 'partition' | 'precededBy' | 'message'>, say: string, concern: { recs: LogRecord[]; consumers?: (string | undefined)[]; processing: boolean; upToSeq?: number }) => {
    const clients = new Set<string>();
    for (const r of concern.recs) if (r.clientId) clients.add(r.clientId);
    for (const c of concern.consumers ?? []) if (c) clients.add(c);
    const precededBy = concerning(ev.events, {
      partitions: new Set(concern.recs.map((r) => tpKey(r.topic, r.partition))),
      clients,
      processing: concern.processing,
      ...(concern.upToSeq !== undefined ? { upToSeq: concern.upToSeq } : {}),
    });
    anomalies.push({ kind, topic: at.topic, partition: at.partition, ...a, precededBy, message: say + afterClause(precededBy) });
  };

  // ---- the application's report, resolved against the log
  const resolved: Resolved[] = [];
  ev.processed.forEach((item, index) => {
    if (typeof item === 'string') {
      const copies = byId.get(item);
      if (!copies) return void unmatched.push({ index, item, reason: `id '${item}' is not stored in the audited topics (${ev.topics.join(', ')})` });
      resolved.push({ index, id: item, rec: copies.find(visible) ?? copies[0]!, located: false });
      return;
    }
    const key = tpKey(item.topic, item.partition);
    const p = byTp.get(key);
    if (!p) return void unmatched.push({ index, item, reason: `${item.topic}-${item.partition} is not an audited partition (topics: ${ev.topics.join(', ')})` });
    const rec = byOffset.get(key)!.get(item.offset);
    if (!rec) return void unmatched.push({ index, item, reason: `no data record at ${item.topic}-${item.partition} offset ${item.offset}` });
    resolved.push({ index, id: item.id ?? rec.id, rec, located: true, ...(item.consumer !== undefined ? { consumer: item.consumer } : {}) });
  });

  // ---- duplicate: stored at more than one offset (copies of aborted or open transactions do not count)
  for (const [id, copies] of byId) {
    const seen = copies.filter(visible);
    if (seen.length < 2) continue;
    const last = seen[seen.length - 1]!;
    const inLast = seen.filter((r) => r.topic === last.topic && r.partition === last.partition);
    const where = seen.map((r) => `${r.topic}-${r.partition}@${r.offset}`).join(', ');
    add('duplicate', last, { offsets: ascending(inLast.map((r) => r.offset)), records: seen.map(ref), id, in: 'log' },
      `record '${id}' is stored ${times(seen.length)} (${where})`,
      { recs: seen, processing: false, ...(last.afterSeq !== undefined ? { upToSeq: last.afterSeq } : {}) });
  }

  // ---- duplicate: processed more than once
  const processings = new Map<string, Resolved[]>();
  for (const r of resolved) {
    const key = r.id ?? `@${tpKey(r.rec.topic, r.rec.partition)}:${r.rec.offset}`;
    let list = processings.get(key);
    if (!list) processings.set(key, (list = []));
    list.push(r);
  }
  for (const list of processings.values()) {
    if (list.length < 2) continue;
    const first = list[0]!;
    const recs = list.map((r) => r.rec);
    const consumers = [...new Set(list.map((r) => r.consumer).filter((c): c is string => c !== undefined))];
    const last = recs[recs.length - 1]!;
    const by = consumers.length ? ` by ${consumers.join(' and ')}` : '';
    add('duplicate', last, {
      offsets: ascending(recs.filter((r) => r.topic === last.topic && r.partition === last.partition).map((r) => r.offset)),
      records: recs.map(ref),
      ...(first.id !== null ? { id: first.id } : {}),
      ...(consumers.length === 1 ? { consumer: consumers[0] } : {}),
      in: 'processing',
    }, `${recordsName(first.id, recs)} was processed ${times(list.length)}${by} (items ${list.map((r) => r.index).join(', ')})`,
    { recs, consumers, processing: true });
  }

  // ---- aborted read: an id's every copy aborted, or the named offset of an aborted record
  for (const r of resolved) {
    if (r.rec.txn !== 'aborted') continue;
    add('aborted-read', r.rec, { offsets: [r.rec.offset], records: [ref(r.rec)], ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
      `${recordName(r.id, r.rec.topic, r.rec.partition, r.rec.offset)} of an aborted transaction was processed${r.consumer ? ` by ${r.consumer}` : ''} (item ${r.index})`,
      { recs: [r.rec], consumers: [r.consumer], processing: true });
  }

  // ---- lost write / unseen: acknowledged, visible, never processed
  const processedIds = new Set(resolved.map((r) => r.id).filter((id): id is string => id !== null));
  const readUpTo = new Map<string, number>();
  for (const r of resolved) {
    const k = tpKey(r.rec.topic, r.rec.partition);
    readUpTo.set(k, Math.max(readUpTo.get(k) ?? -1, r.rec.offset));
  }
  for (const [id, copies] of byId) {
    if (processedIds.has(id)) continue;
    const acked = copies.find((r) => visible(r) && !r.unacknowledgedBy);
    if (!acked) continue;
    const past = readUpTo.get(tpKey(acked.topic, acked.partition)) ?? -1;
    const lost = past > acked.offset;
    add(lost ? 'lost-write' : 'unseen', acked, { offsets: [acked.offset], records: [ref(acked)], id },
      lost
        ? `${recordName(id, acked.topic, acked.partition, acked.offset)} was acknowledged but never processed, though offset ${past} of that partition was`
        : `${recordName(id, acked.topic, acked.partition, acked.offset)} was acknowledged but never processed (nothing after it in that partition was)`,
      { recs: [acked], processing: true });
  }

  // ---- lost write, from the clients' reports: acknowledged to the producer, stored nowhere.
  // Only the application knows of these: the client told it a write succeeded that no broker
  // stored (it never resent a partition, or took another batch's answer for its own).
  for (const item of ev.acknowledged ?? []) {
    const a = typeof item === 'string' ? { id: item } : item;
    if (byId.get(a.id)?.some(visible)) continue;
    const placeholder = (topic: string, partition: number, offset = -1): LogRecord => ({ topic, partition, offset, id: a.id, producerId: -1, txn: 'none', clientId: a.producer ?? null });
    // Where the fault may have struck: the partition the client named, else every audited partition (of the named topic).
    const places = a.topic !== undefined && a.partition !== undefined
      ? [placeholder(a.topic, a.partition, a.offset)]
      : ev.partitions.filter((p) => a.topic === undefined || p.topic === a.topic).map((p) => placeholder(p.topic, p.partition));
    const at = places.length === 1 ? places[0]! : placeholder(a.topic ?? ev.topics[0] ?? '', -1);
    const holder = a.offset !== undefined ? byOffset.get(tpKey(at.topic, at.partition))?.get(a.offset) : undefined;
    const where = a.offset !== undefined
      ? ` at ${at.topic}-${at.partition} offset ${a.offset}${holder ? `, which holds ${holder.id === null ? 'a record without an id' : `'${holder.id}'`}` : ''},`
      : '';
    const of = a.offset === undefined && a.partition !== undefined ? ` of ${at.topic}-${at.partition}` : '';
    add('lost-write', at, { offsets: a.offset !== undefined ? [a.offset] : [], records: a.offset !== undefined ? [ref(at)] : [], id: a.id },
      `record '${a.id}'${of} was acknowledged to ${a.producer ? `producer ${a.producer}` : 'the producer'}${where} but is stored nowhere in ${ev.topics.join(', ')}`,
      { recs: places, processing: false });
  }

  // ---- poll skip / non-monotonic poll: per consumer and partition, over items that name their offset
  const position = new Map<string, LogRecord>();
  for (const r of resolved) {
    if (!r.located) continue;
    const k = `${r.consumer ?? ''}\u0000${tpKey(r.rec.topic, r.rec.partition)}`;
    const prev = position.get(k);
    position.set(k, r.rec);
    if (!prev) continue;
    const who = r.consumer ? `${r.consumer} ` : '';
    const tp = `${r.rec.topic}-${r.rec.partition}`;
    if (r.rec.offset <= prev.offset) {
      add('non-monotonic-poll', r.rec, { offsets: ascending([r.rec.offset, prev.offset]), records: [ref(prev), ref(r.rec)], ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
        `${who || 'the consumer '}went back in ${tp}: offset ${r.rec.offset} was processed after offset ${prev.offset} (item ${r.index})`,
        { recs: [prev, r.rec], consumers: [r.consumer], processing: true });
      continue;
    }
    const tpk = tpKey(r.rec.topic, r.rec.partition);
    const positions = indexOf.get(tpk)!;
    const skipped = byTp.get(tpk)!.records.slice(positions.get(prev.offset)! + 1, positions.get(r.rec.offset)!).filter(visible);
    if (skipped.length === 0) continue;
    const list = skipped.length <= 10 ? skipped.map((x) => x.offset).join(', ') : `${skipped[0]!.offset}..${skipped[skipped.length - 1]!.offset}`;
    add('poll-skip', r.rec, { offsets: skipped.map((x) => x.offset), records: skipped.map(ref), ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
      `${who || 'the consumer '}skipped ${skipped.length === 1 ? 'offset' : `${skipped.length} offsets`} ${list} of ${tp}, going from offset ${prev.offset} to ${r.rec.offset} (item ${r.index})`,
      { recs: [prev, ...skipped, r.rec], consumers: [r.consumer], processing: true });
  }

  // ---- non-monotonic send, from the journal: a client's later append at or below its earlier one (the log was cut and reused)
  for (const p of ev.partitions) {
    const last = new Map<string, JournalEntry>();
    for (const a of p.appends) {
      if (a.clientId === null) continue;
      const prev = last.get(a.clientId);
      last.set(a.clientId, a);
      if (!prev || a.baseOffset > prev.lastOffset) continue;
      const at = byOffset.get(tpKey(p.topic, p.partition))!.get(a.baseOffset);
      const rec: LogRecord = at ?? { topic: p.topic, partition: p.partition, offset: a.baseOffset, id: null, producerId: -1, txn: 'none', clientId: a.clientId };
      add('non-monotonic-send', rec, { offsets: ascending([a.baseOffset, prev.lastOffset]), records: [{ topic: p.topic, partition: p.partition, offset: a.baseOffset }], ...(rec.id !== null ? { id: rec.id } : {}) },
        `client ${a.clientId}'s send to ${p.topic}-${p.partition} landed at offset ${a.baseOffset}, at or below its earlier send at offset ${prev.lastOffset}${prev.truncated ? ', which the log lost' : ''}`,
        { recs: [rec], processing: false, upToSeq: a.afterSeq });
    }
  }

  // ---- non-monotonic send, from the application's send order: a later id stored before an earlier one
  if (ev.sent) {
    const last = new Map<string, { id: string; rec: LogRecord }>();
    for (const item of ev.sent) {
      const id = typeof item === 'string' ? item : item.id;
      const producer = typeof item === 'string' ? '' : (item.producer ?? '');
      const rec = byId.get(id)?.find(visible);
      if (!rec) continue;
      const k = `${producer}\u0000${tpKey(rec.topic, rec.partition)}`;
      const prev = last.get(k);
      if (!prev || rec.offset > prev.rec.offset) {
        last.set(k, { id, rec });
        continue;
      }
      add('non-monotonic-send', rec, { offsets: ascending([rec.offset, prev.rec.offset]), records: [ref(prev.rec), ref(rec)], id },
        `${producer ? `producer ${producer}` : 'the producer'} sent '${id}' after '${prev.id}', but ${rec.topic}-${rec.partition} stores it first (offset ${rec.offset} < ${prev.rec.offset})`,
        { recs: [prev.rec, rec], processing: false, ...(rec.afterSeq !== undefined ? { upToSeq: Math.max(rec.afterSeq, prev.rec.afterSeq ?? 0) } : {}) });
    }
  }

  const counts = Object.fromEntries(ANOMALY_KINDS.map((k) => [k, 0])) as Record<AnomalyKind, number>;
  for (const a of anomalies) counts[a.kind]++;
  return {
    ok: anomalies.length === 0 && unmatched.length === 0,
    anomalies,
    counts: { ...counts, records, unacknowledged, aborted, processed: ev.processed.length },
    topics: ev.topics,
    unmatched,
  };
}
