// The words of the report: which events concern an anomaly (the precededBy
// rule, docs/audit.md) and one sentence per anomaly in the user's terms.
import type { ChaosEvent } from '../chaos/api.js';

/** APIs of a consumer's group life (a fault there moves committed offsets or partitions). */
const GROUP_APIS: ReadonlySet<string> = new Set(['JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch', 'TxnOffsetCommit', 'FindCoordinator']);

/** Cluster events that move every partition's leadership. */
const NODE_EVENTS: ReadonlySet<string> = new Set(['node-stopped', 'node-started']);

export interface Concern {
  /** The partitions involved, as "topic:partition". */
  partitions: ReadonlySet<string>;
  /** Client ids involved: the producers of the records, the consumers that processed them. */
  clients: ReadonlySet<string>;
  /** Processing-side anomalies also follow group faults (rebalances, lost commits). */
  processing: boolean;
  /** Only events up to this seq (the append of the record at fault); none: every event so far. */
  upToSeq?: number;
}

const onPartition = (e: ChaosEvent, parts: ReadonlySet<string>, topics: ReadonlySet<string>) =>
  e.topic !== undefined && (e.partition !== undefined ? parts.has(`${e.topic}:${e.partition}`) : topics.has(e.topic));

/**
 * The precededBy rule: events before the anomaly that could have caused it —
 * faults on its partitions, faults naming no topic on its producers' or
 * consumers' connections, group faults for processing anomalies, leader
 * changes of its partitions and node stops and starts.
 */
export function concerning(events: readonly ChaosEvent[], c: Concern): ChaosEvent[] {
  const topics = new Set([...c.partitions].map((p) => p.slice(0, p.lastIndexOf(':'))));
  return events.filter((e) => {
    if (c.upToSeq !== undefined && e.seq > c.upToSeq) return false;
    if (NODE_EVENTS.has(e.kind)) return true;
    if (e.kind !== 'fault' || e.topic !== undefined) return onPartition(e, c.partitions, topics);
    if (e.clientId && c.clients.has(e.clientId)) return true;
    return c.processing && e.api !== undefined && GROUP_APIS.has(e.api);
  });
}

export function describeEvent(e: ChaosEvent): string {
  if (e.kind === 'fault') {
    const client = e.clientId ? ` from client ${e.clientId}` : '';
    const where = e.topic !== undefined ? ` to ${e.topic}${e.partition !== undefined ? `-${e.partition}` : ''}` : '';
    return `the ${e.action} fault fired on ${e.api}${where}${client} (rule ${e.ruleId}, event ${e.seq})`;
  }
  if (e.kind === 'node-stopped' || e.kind === 'node-started') return `node ${e.nodeId} ${e.kind === 'node-stopped' ? 'stopped' : 'started'} (event ${e.seq})`;
  if (e.kind === 'leader-changed') {
    const d = e.detail ?? {};
    return `the leader of ${e.topic}-${e.partition} moved to node ${String(d.leader)}${d.unclean ? ' (unclean election)' : ''} (event ${e.seq})`;
  }
  return `${e.kind} (event ${e.seq})`;
}

/** ", after <the latest event>[ and n earlier events]", or ", with no fault before it". */
export function afterClause(events: readonly ChaosEvent[]): string {
  if (events.length === 0) return ', with no fault before it';
  const last = events[events.length - 1]!;
  const more = events.length - 1;
  return `, after ${describeEvent(last)}${more ? ` and ${more} earlier event${more === 1 ? '' : 's'}` : ''}`;
}

export const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

export const recordName = (id: string | null | undefined, topic: string, partition: number, offset: number) =>
  id === null || id === undefined ? `the record at ${topic}-${partition} offset ${offset}` : `record '${id}' of ${topic}-${partition} (offset ${offset})`;

/** A record processed at one or more places: "record 'a' of orders-0 (offsets 0, 3)", or each place when partitions differ. */
export function recordsName(id: string | null, recs: readonly { topic: string; partition: number; offset: number }[]): string {
  const first = recs[0]!;
  const offsets = [...new Set(recs.map((r) => r.offset))].sort((a, b) => a - b);
  if (recs.some((r) => r.topic !== first.topic || r.partition !== first.partition)) {
    const places = [...new Set(recs.map((r) => `${r.topic}-${r.partition}@${r.offset}`))].join(', ');
    return `${id === null ? 'a record' : `record '${id}'`} (${places})`;
  }
  if (offsets.length === 1) return recordName(id, first.topic, first.partition, first.offset);
  return `${id === null ? 'a record' : `record '${id}'`} of ${first.topic}-${first.partition} (offsets ${offsets.join(', ')})`;
}
