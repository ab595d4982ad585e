// Which requests a rule looks at. Header fields (node, api, version, client
// id) are checked first and cost nothing; topic, partition, group id and
// transactional id need the body, which is decoded only when a rule that
// names one of them gets that far.
import { ApiKey } from '../protocol/messages/api-key.js';
import type { RuleMatch } from './api.js';
import type { ProxiedRequest } from './request.js';
import { describe, fail, integer, isPlainObject, optionalBoolean, record, string } from './validate.js';

export interface Matcher {
  readonly needsBody: boolean;
  test(req: ProxiedRequest): boolean;
}

const MATCH_FIELDS = ['nodeId', 'api', 'versions', 'clientId', 'topic', 'partition', 'groupId', 'transactionalId', 'acknowledges'] as const;
const apiKeysByName = new Map(Object.entries(ApiKey).map(([name, key]) => [name.toLowerCase(), key]));

const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

function apiKeyOf(v: unknown, field: string): number {
  if (typeof v === 'number') return integer(v, field, { min: 0, max: 32767 });
  if (typeof v === 'string') {
    const key = apiKeysByName.get(v.toLowerCase());
    if (key === undefined) fail(field, `unknown API ${JSON.stringify(v)}; use Kafka's name (Produce, Fetch, OffsetCommit, …) or an api key`);
    return key;
  }
  return fail(field, `must be an API name or key, got ${describe(v)}`);
}

/** A name or a pattern: an exact string, or { regex } (JavaScript syntax). */
export type NameFilter = string | { regex: string };

/** Checks a name filter and returns its test; a bad pattern is refused naming `field.regex`. */
export function nameFilter(v: unknown, field: string): { value: NameFilter; test: (name: string) => boolean } {
  if (typeof v === 'string') {
    string(v, field);
    return { value: v, test: (name) => name === v };
  }
  if (!isPlainObject(v)) fail(field, `must be a string or { regex }, got ${describe(v)}`);
  const pattern = string(record(v, field, ['regex']).regex, `${field}.regex`);
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (err) {
    return fail(`${field}.regex`, `is not a valid regular expression: ${(err as Error).message}`);
  }
  return { value: { regex: pattern }, test: (name) => re.test(name) };
}

/**
 * Checks a match (refusing unknown fields and nodes) and returns it in normal
 * form with its matcher. `nodeIds` null: nodes are not known in advance
 * (upstream mode discovers them), so any node id is accepted.
 */
export function parseMatch(raw: unknown, nodeIds: readonly number[] | null): { match: RuleMatch; matcher: Matcher } {
  if (raw === undefined) return { match: {}, matcher: { needsBody: false, test: () => true } };
  const m = record(raw, 'match', MATCH_FIELDS);
  const out: RuleMatch = {};
  const checks: ((req: ProxiedRequest) => boolean)[] = [];
  const bodyChecks: ((req: ProxiedRequest) => boolean)[] = [];

  if (m.nodeId !== undefined) {
    const ids = list(m.nodeId as number | number[]).map((id, i) => {
      const field = Array.isArray(m.nodeId) ? `match.nodeId[${i}]` : 'match.nodeId';
      integer(id, field, { min: 0 });
      if (nodeIds && !nodeIds.includes(id)) fail(field, `no node ${id} in this cluster (nodes: ${nodeIds.join(', ')})`);
      return id;
    });
    if (ids.length === 0) fail('match.nodeId', 'must name at least one node');
    out.nodeId = m.nodeId as number | number[];
    const set = new Set(ids);
    checks.push((r) => set.has(r.nodeId));
  }
  if (m.api !== undefined) {
    const keys = list(m.api as string | number).map((a, i) => apiKeyOf(a, Array.isArray(m.api) ? `match.api[${i}]` : 'match.api'));
    if (keys.length === 0) fail('match.api', 'must name at least one API');
    out.api = m.api as RuleMatch['api'];
    const set = new Set(keys);
    checks.push((r) => set.has(r.apiKey));
  }
  if (m.versions !== undefined) {
    const v = record(m.versions, 'match.versions', ['min', 'max']);
    const min = v.min === undefined ? 0 : integer(v.min, 'match.versions.min', { min: 0 });
    const max = v.max === undefined ? 32767 : integer(v.max, 'match.versions.max', { min: 0 });
    if (max < min) fail('match.versions.max', `must be at least match.versions.min (${min}), got ${max}`);
    out.versions = { ...(v.min === undefined ? {} : { min }), ...(v.max === undefined ? {} : { max }) };
    checks.push((r) => r.apiVersion >= min && r.apiVersion <= max);
  }
  if (m.clientId !== undefined) {
    const { value, test } = nameFilter(m.clientId, 'match.clientId');
    out.clientId = value;
    checks.push((r) => r.clientId !== null && test(r.clientId));
  }
  if (m.partition !== undefined && m.topic === undefined) fail('match.partition', 'needs match.topic');
  if (m.topic !== undefined) {
    const { value, test } = nameFilter(m.topic, 'match.topic');
    out.topic = value;
    if (m.partition !== undefined) {
      const partition = integer(m.partition, 'match.partition', { min: 0 });
      out.partition = partition;
      bodyChecks.push((r) => r.scope().topics.some((t) => test(t.topic) && t.partitions !== null && t.partitions.includes(partition)));
    } else {
      bodyChecks.push((r) => r.scope().topics.some((t) => test(t.topic)));
    }
  }
  if (m.groupId !== undefined) {
    const { value, test } = nameFilter(m.groupId, 'match.groupId');
    out.groupId = value;
    bodyChecks.push((r) => r.scope().groupIds.some(test));
  }
  if (m.transactionalId !== undefined) {
    const { value, test } = nameFilter(m.transactionalId, 'match.transactionalId');
    out.transactionalId = value;
    bodyChecks.push((r) => r.scope().transactionalIds.some(test));
  }
  if (m.acknowledges !== undefined) {
    const wanted = optionalBoolean(m.acknowledges, 'match.acknowledges')!;
    out.acknowledges = wanted;
    bodyChecks.push((r) => r.scope().acknowledgements === wanted);
  }
  const all = [...checks, ...bodyChecks];
  return { match: out, matcher: { needsBody: bodyChecks.length > 0, test: (r) => all.every((c) => c(r)) } };
}
