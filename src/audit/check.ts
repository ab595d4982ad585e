// The checker: from the audited log, the produce journal, the events and the
// application's report, the anomalies. Pure: evidence in, anomalies out.
// Names and meanings follow Jepsen's Kafka checker (docs/audit.md):
//   lost-write          an acknowledged record never processed, though a later offset of its partition was
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
import { ANOMALY_KINDS, type AcknowledgedItem, type Anomaly, type AnomalyKind, type AuditReport, type ItemList, type ProcessedItem, type RecordRef, type SentItem } from './types.js';

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
  /** In processing order; an array, or the control API's compact list. */
  processed: ItemList<ProcessedItem>;
  sent?: ItemList<SentItem>;
  /** What the clients reported written (send() results, delivery reports). */
  acknowledged?: ItemList<AcknowledgedItem>;
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

/** The report lists the first unmatched items (counts.unmatched says how many there were): a report of ids never stored must not grow as large as the input. */
export const UNMATCHED_LISTED = 100;
/** Item indices named in one processing duplicate's message. */
const ITEMS_LISTED = 20;

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

  const add = (list: Anomaly[], kind: AnomalyKind, at: LogRecord, a: Omit<Anomaly, 'kind' | 'topic' | 'partition' | 'precededBy' | 'message'>, say: string, concern: { recs: LogRecord[]; consumers?: (string | undefined)[]; processing: boolean; upToSeq?: number }) => {
    const clients = new Set<string>();
    for (const r of concern.recs) if (r.clientId) clients.add(r.clientId);
    for (const c of concern.consumers ?? []) if (c) clients.add(c);
    const precededBy = concerning(ev.events, {
      partitions: new Set(concern.recs.map((r) => tpKey(r.topic, r.partition))),
      clients,
      processing: concern.processing,
      ...(concern.upToSeq !== undefined ? { upToSeq: concern.upToSeq } : {}),
    });
    list.push({ kind, topic: at.topic, partition: at.partition, ...a, precededBy, message: say + afterClause(precededBy) });
  };

  // ---- duplicate: stored at more than one offset (copies of aborted or open transactions do not count)
  const logDuplicates: Anomaly[] = [];
  for (const [id, copies] of byId) {
    const seen = copies.filter(visible);
    if (seen.length < 2) continue;
    const last = seen[seen.length - 1]!;
    const inLast = seen.filter((r) => r.topic === last.topic && r.partition === last.partition);
    const where = seen.map((r) => `${r.topic}-${r.partition}@${r.offset}`).join(', ');
    add(logDuplicates, 'duplicate', last, { offsets: ascending(inLast.map((r) => r.offset)), records: seen.map(ref), id, in: 'log' },
      `record '${id}' is stored ${times(seen.length)} (${where})`,
      { recs: seen, processing: false, ...(last.afterSeq !== undefined ? { upToSeq: last.afterSeq } : {}) });
  }

  // ---- the application's report, resolved against the log, in one pass.
  // Nothing is kept per item (a 50 MB report holds millions): a count per
  // processed id, the furthest offset read per partition, the last record per
  // consumer and partition, and the anomalies found. Anomalies go into lists
  // per check, joined in the report's order at the end.
  /** The stored record an item names, or null. */
  const resolve = (item: ProcessedItem, index: number): Resolved | null => {
    if (typeof item === 'string') {
      const copies = byId.get(item);
      return copies ? { index, id: item, rec: copies.find(visible) ?? copies[0]!, located: false } : null;
    }
    const rec = byOffset.get(tpKey(item.topic, item.partition))?.get(item.offset);
    return rec ? { index, id: item.id ?? rec.id, rec, located: true, ...(item.consumer !== undefined ? { consumer: item.consumer } : {}) } : null;
  };
  /** Why an item resolves to nothing (said only for the items listed). */
  const unmatchedReason = (item: ProcessedItem): string => {
    if (typeof item === 'string') return `id '${item}' is not stored in the audited topics (${ev.topics.join(', ')})`;
    if (!byTp.has(tpKey(item.topic, item.partition))) return `${item.topic}-${item.partition} is not an audited partition (topics: ${ev.topics.join(', ')})`;
    return `no data record at ${item.topic}-${item.partition} offset ${item.offset}`;
  };
  const processingKey = (r: Resolved) => r.id ?? `@${tpKey(r.rec.topic, r.rec.partition)}:${r.rec.offset}`;
  const abortedReads: Anomaly[] = [];
  const polls: Anomaly[] = [];
  /** How often each id (or id-less record) was processed. */
  const processedCount = new Map<string, number>();
  let unmatchedCount = 0;
  const readUpTo = new Map<string, number>();
  const position = new Map<string, LogRecord>();
  const walk = (item: ProcessedItem, index: number) => {
    const r = resolve(item, index);
    if (r === null) {
      if (unmatchedCount++ < UNMATCHED_LISTED) unmatched.push({ index, item, reason: unmatchedReason(item) });
      return;
    }
    const key = processingKey(r);
    processedCount.set(key, (processedCount.get(key) ?? 0) + 1);
    const tpk = tpKey(r.rec.topic, r.rec.partition);
    readUpTo.set(tpk, Math.max(readUpTo.get(tpk) ?? -1, r.rec.offset));

    // ---- aborted read: an id's every copy aborted, or the named offset of an aborted record
    if (r.rec.txn === 'aborted') {
      add(abortedReads, 'aborted-read', r.rec, { offsets: [r.rec.offset], records: [ref(r.rec)], ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
        `${recordName(r.id, r.rec.topic, r.rec.partition, r.rec.offset)} of an aborted transaction was processed${r.consumer ? ` by ${r.consumer}` : ''} (item ${r.index})`,
        { recs: [r.rec], consumers: [r.consumer], processing: true });
    }

    // ---- poll skip / non-monotonic poll: per consumer and partition, over items that name their offset
    if (!r.located) return;
    const k = `${r.consumer ?? ''}\u0000${tpk}`;
    const prev = position.get(k);
    position.set(k, r.rec);
    if (!prev) return;
    const who = r.consumer ? `${r.consumer} ` : '';
    const tp = `${r.rec.topic}-${r.rec.partition}`;
    if (r.rec.offset <= prev.offset) {
      add(polls, 'non-monotonic-poll', r.rec, { offsets: ascending([r.rec.offset, prev.offset]), records: [ref(prev), ref(r.rec)], ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
        `${who || 'the consumer '}went back in ${tp}: offset ${r.rec.offset} was processed after offset ${prev.offset} (item ${r.index})`,
        { recs: [prev, r.rec], consumers: [r.consumer], processing: true });
      return;
    }
    const positions = indexOf.get(tpk)!;
    const skipped = byTp.get(tpk)!.records.slice(positions.get(prev.offset)! + 1, positions.get(r.rec.offset)!).filter(visible);
    if (skipped.length === 0) return;
    const list = skipped.length <= 10 ? skipped.map((x) => x.offset).join(', ') : `${skipped[0]!.offset}..${skipped[skipped.length - 1]!.offset}`;
    add(polls, 'poll-skip', r.rec, { offsets: skipped.map((x) => x.offset), records: skipped.map(ref), ...(r.id !== null ? { id: r.id } : {}), ...(r.consumer !== undefined ? { consumer: r.consumer } : {}) },
      `${who || 'the consumer '}skipped ${skipped.length === 1 ? 'offset' : `${skipped.length} offsets`} ${list} of ${tp}, going from offset ${prev.offset} to ${r.rec.offset} (item ${r.index})`,
      { recs: [prev, ...skipped, r.rec], consumers: [r.consumer], processing: true });
  };
  for (let index = 0; index < ev.processed.length; index++) walk(ev.processed.at(index)!, index);

  // ---- duplicate: processed more than once (a second pass collects the items of those only)
  const processingDuplicates: Anomaly[] = [];
  const repeated = new Map<string, Resolved[]>();
  for (const [key, n] of processedCount) if (n > 1) repeated.set(key, []);
  if (repeated.size) {
    for (let index = 0; index < ev.processed.length; index++) {
      const r = resolve(ev.processed.at(index)!, index);
      if (r !== null) repeated.get(processingKey(r))?.push(r);
    }
  }
  for (const list of repeated.values()) {
    const first = list[0]!;
    const recs = list.map((r) => r.rec);
    const consumers = [...new Set(list.map((r) => r.consumer).filter((c): c is string => c !== undefined))];
    const last = recs[recs.length - 1]!;
    const places = [...new Set(recs)];
    const by = consumers.length ? ` by ${consumers.join(' and ')}` : '';
    const items = list.length <= ITEMS_LISTED ? list.map((r) => r.index).join(', ') : `${list.slice(0, ITEMS_LISTED).map((r) => r.index).join(', ')}, … ${list.length - ITEMS_LISTED} more`;
    add(processingDuplicates, 'duplicate', last, {
      offsets: ascending(places.filter((r) => r.topic === last.topic && r.partition === last.partition).map((r) => r.offset)),
      records: places.map(ref),
      ...(first.id !== null ? { id: first.id } : {}),
      ...(consumers.length === 1 ? { consumer: consumers[0] } : {}),
      in: 'processing',
    }, `${recordsName(first.id, places)} was processed ${times(list.length)}${by} (items ${items})`,
    { recs: places, consumers, processing: true });
  }

  // ---- lost write / unseen: acknowledged, visible, never processed
  const losses: Anomaly[] = [];
  for (const [id, copies] of byId) {
    if (processedCount.has(id)) continue;
    const acked = copies.find((r) => visible(r) && !r.unacknowledgedBy);
    if (!acked) continue;
    const past = readUpTo.get(tpKey(acked.topic, acked.partition)) ?? -1;
    const lost = past > acked.offset;
    add(losses, lost ? 'lost-write' : 'unseen', acked, { offsets: [acked.offset], records: [ref(acked)], id },
      lost
        ? `${recordName(id, acked.topic, acked.partition, acked.offset)} was acknowledged but never processed, though offset ${past} of that partition was`
        : `${recordName(id, acked.topic, acked.partition, acked.offset)} was acknowledged but never processed (nothing after it in that partition was)`,
      { recs: [acked], processing: true });
  }

  // ---- lost write, from the clients' reports: acknowledged to the producer, stored nowhere.
  // Only the application knows of these: the client told it a write succeeded that no broker
  // stored (it never resent a partition, or took another batch's answer for its own).
  const acknowledged = ev.acknowledged;
  for (let i = 0; acknowledged && i < acknowledged.length; i++) {
    const item = acknowledged.at(i)!;
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
    add(losses, 'lost-write', at, { offsets: a.offset !== undefined ? [a.offset] : [], records: a.offset !== undefined ? [ref(at)] : [], id: a.id },
      `record '${a.id}'${of} was acknowledged to ${a.producer ? `producer ${a.producer}` : 'the producer'}${where} but is stored nowhere in ${ev.topics.join(', ')}`,
      { recs: places, processing: false });
  }

  const sends: Anomaly[] = [];
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
      add(sends, 'non-monotonic-send', rec, { offsets: ascending([a.baseOffset, prev.lastOffset]), records: [{ topic: p.topic, partition: p.partition, offset: a.baseOffset }], ...(rec.id !== null ? { id: rec.id } : {}) },
        `client ${a.clientId}'s send to ${p.topic}-${p.partition} landed at offset ${a.baseOffset}, at or below its earlier send at offset ${prev.lastOffset}${prev.truncated ? ', which the log lost' : ''}`,
        { recs: [rec], processing: false, upToSeq: a.afterSeq });
    }
  }

  // ---- non-monotonic send, from the application's send order: a later id stored before an earlier one
  if (ev.sent) {
    const last = new Map<string, { id: string; rec: LogRecord }>();
    for (let i = 0; i < ev.sent.length; i++) {
      const item = ev.sent.at(i)!;
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
      add(sends, 'non-monotonic-send', rec, { offsets: ascending([rec.offset, prev.rec.offset]), records: [ref(prev.rec), ref(rec)], id },
        `${producer ? `producer ${producer}` : 'the producer'} sent '${id}' after '${prev.id}', but ${rec.topic}-${rec.partition} stores it first (offset ${rec.offset} < ${prev.rec.offset})`,
        { recs: [prev.rec, rec], processing: false, ...(rec.afterSeq !== undefined ? { upToSeq: Math.max(rec.afterSeq, prev.rec.afterSeq ?? 0) } : {}) });
    }
  }

  anomalies.push(...logDuplicates, ...processingDuplicates, ...abortedReads, ...losses, ...polls, ...sends);
  const counts = Object.fromEntries(ANOMALY_KINDS.map((k) => [k, 0])) as Record<AnomalyKind, number>;
  for (const a of anomalies) counts[a.kind]++;
  return {
    ok: anomalies.length === 0 && unmatchedCount === 0,
    anomalies,
    counts: { ...counts, records, unacknowledged, aborted, processed: ev.processed.length, unmatched: unmatchedCount },
    topics: ev.topics,
    unmatched,
  };
}
