// The documented normalisation (docs/conformance.md prints these rules):
// what may legitimately differ between two correct brokers is rewritten to
// the same placeholder on both sides before the field-by-field comparison.
// Everything else is compared as decoded.
import { decodeRecords, isControlBatch, isTransactional, readBatchHeader, readControlType, splitBatches } from '../../src/protocol/record-batch.js';

export const NORMALISATION_RULES: readonly string[] = [
  '`throttleTimeMs` -> 0: no quota is set on either side; a broker may still report a few ms (request-rate metrics).',
  '`nodeId`, `leaderId`, `brokerId`, `controllerId`, `replicaNodes`, `isrNodes` (ids >= 0) -> `node`: the real node is 1 (KRaft needs a node.id), kafkaesque\'s first broker is 0.',
  '`host`, `port` -> placeholders: each side listens where it was started.',
  '`clusterId` (not null) -> `cluster`: random per run on both sides.',
  '`producerId` (>= 0), `memberId`/`leader` (non-empty), `topicId` (non-zero), `sessionId` (Fetch, non-zero) -> `pid#n`, `member#n`, `topic-id#n`, `session#n` in order of first appearance within the sequence: ids are allocated differently, the comparison keeps which answers name the same id.',
  '`logAppendTimeMs`, `transactionStartTimeMs` (>= 0) -> `time`: the broker\'s clock at the append, or when the transaction began (whether there is one, -1 or not, is compared).',
  '`errorMessage` and `batchIndexErrorMessage` (empty or not) -> `null` or `message`: the text is free-form (clients show it, none parses it; a record error names the broker\'s clock); whether there is one is compared. `KAFKAESQUE_CONFORMANCE_MESSAGES=1` compares the text too.',
  '`configs` (CreateTopics, DescribeConfigs) -> keyed by config name, and JoinGroup `members` sorted by (aliased) member id, ApiVersions `apiKeys` keyed by api key: Kafka answers them in HashMap order.',
  'Topic arrays sorted by name, partition arrays by index, group arrays by group id (Metadata, Produce, Fetch, ListOffsets, ListGroups, ...): Kafka builds several answers from hash maps, so their order is not part of the contract.',
  'DescribeConfigs `resourceName` of the broker\'s own node -> `node`, as node ids above.',
  '`records` (Fetch) -> per batch: base offset, last offset delta, producer id (aliased as above), epoch, base sequence, transactional and control flags, the control type, and each record\'s offset, key and value. Timestamps, CRC and the partition leader epoch stamped at append are not compared.',
];

const NODE_KEYS = new Set(['nodeId', 'leaderId', 'brokerId', 'controllerId']);
const NODE_LIST_KEYS = new Set(['replicaNodes', 'isrNodes']);
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export class Normaliser {
  /** The side's own node id (a broker resource is named by it). */
  constructor(private readonly nodeId = -1) {}

  private readonly aliases = new Map<string, Map<unknown, string>>();

  private alias(kind: string, value: unknown): string {
    let m = this.aliases.get(kind);
    if (!m) this.aliases.set(kind, (m = new Map()));
    let a = m.get(value);
    if (!a) m.set(value, (a = `${kind}#${m.size + 1}`));
    return a;
  }

  private records(buf: Buffer): unknown {
    const { batches, error } = splitBatches(buf);
    return {
      error: error ?? null,
      batches: batches.map((b) => {
        const h = readBatchHeader(b);
        const control = isControlBatch(h.attributes);
        return {
          baseOffset: h.baseOffset,
          lastOffsetDelta: h.lastOffsetDelta,
          producerId: h.producerId >= 0 ? this.alias('pid', h.producerId) : h.producerId,
          producerEpoch: h.producerEpoch,
          baseSequence: h.baseSequence,
          transactional: isTransactional(h.attributes),
          control: control ? readControlType(b) : null,
          records: control ? [] : decodeRecords(b).map((r) => ({ offset: r.offset, key: r.key?.toString('utf8') ?? null, value: r.value?.toString('utf8') ?? null })),
        };
      }),
    };
  }

  value(key: string, v: unknown): unknown {
    if (key === 'throttleTimeMs') return 0;
    if (NODE_KEYS.has(key) && typeof v === 'number' && v >= 0) return 'node';
    if (NODE_LIST_KEYS.has(key) && Array.isArray(v)) return v.map((n) => (typeof n === 'number' && n >= 0 ? 'node' : n));
    if (key === 'host' && typeof v === 'string') return 'host';
    if (key === 'port' && typeof v === 'number') return 'port';
    if (key === 'clusterId' && typeof v === 'string') return 'cluster';
    if (key === 'producerId' && typeof v === 'number' && v >= 0) return this.alias('pid', v);
    if ((key === 'memberId' || key === 'leader') && typeof v === 'string' && v !== '') return this.alias('member', v);
    if (key === 'topicId' && typeof v === 'string' && v !== ZERO_UUID) return this.alias('topic-id', v);
    if (key === 'sessionId' && typeof v === 'number' && v !== 0) return this.alias('session', v);
    if ((key === 'logAppendTimeMs' || key === 'transactionStartTimeMs') && typeof v === 'number' && v >= 0) return 'time';
    // KAFKAESQUE_CONFORMANCE_MESSAGES=1 keeps the text, to read what a broker says.
    if ((key === 'errorMessage' || key === 'batchIndexErrorMessage') && !process.env.KAFKAESQUE_CONFORMANCE_MESSAGES) return v === null || v === '' ? null : 'message';
    if (key === 'records' && Buffer.isBuffer(v)) return this.records(v);
    if (key === 'resourceName' && v === String(this.nodeId)) return 'node';
    if (key === 'configs' && Array.isArray(v)) return Object.fromEntries(v.map((c) => [c.name, this.walk(c)]));
    if (key === 'apiKeys' && Array.isArray(v)) return Object.fromEntries(v.map((a) => [String(a.apiKey), this.walk(a)]));
    if (Array.isArray(v) && v.length > 1 && v.every((x) => x && typeof x === 'object')) {
      const sortKey = ['name', 'topic', 'groupId', 'index', 'partitionIndex', 'partition'].find((k) => v.every((x) => typeof x[k] === 'string' || typeof x[k] === 'number'));
      if (sortKey && ['topics', 'responses', 'partitions', 'partitionResponses', 'groups'].includes(key)) {
        const out = v.map((x) => this.walk(x) as Record<string, string | number>);
        return out.sort((x, y) => (x[sortKey]! < y[sortKey]! ? -1 : x[sortKey]! > y[sortKey]! ? 1 : 0));
      }
    }
    if (key === 'members' && Array.isArray(v) && v.every((m) => typeof m?.memberId === 'string')) {
      const out = v.map((m) => this.walk(m) as { memberId: string });
      return out.sort((x, y) => (x.memberId < y.memberId ? -1 : x.memberId > y.memberId ? 1 : 0));
    }
    return this.walk(v);
  }

  walk(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.walk(x));
    if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(k, x)]));
    return v;
  }
}

export interface Difference {
  /** Where in the step's answer, as `field[0].field`. */
  path: string;
  kafka: unknown;
  kafkaesque: unknown;
}

/** Field-by-field differences of two normalised answers. */
export function differences(a: unknown, b: unknown, path = ''): Difference[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [{ path: `${path}.length`, kafka: a.length, kafkaesque: b.length }];
    return a.flatMap((x, i) => differences(x, b[i], `${path}[${i}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ path, kafka: a, kafkaesque: b }];
}
