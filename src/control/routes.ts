// The control API's one route table: for every "METHOD /path" of Routes
// (types.ts) the query parameters it accepts, its success status, and its
// handler. Handlers check their input (400 naming the field), call the
// cluster model or the fault controller, and return a view (views.ts); they
// throw HttpError for everything else. server.ts owns the HTTP plumbing.
import type { Cluster } from '../broker/cluster.js';
import type { ChaosController, FaultRuleInput } from '../chaos/api.js';
import { auditChecked } from '../audit/audit.js';
import { auditsOf } from '../audit/audit-history.js';
import { parseAuditBody } from '../audit/compact-body.js';
import { AuditInputError, validateAuditInput } from '../audit/validate.js';
import { applyPreset } from '../presets/apply.js';
import { findPreset, listPresets } from '../presets/load.js';
import { validatePreset, type Preset } from '../presets/validate.js';
import { version } from '../version.js';
import { HttpError, badParameter, kafkaError, notFound } from './errors.js';
import type { ControlTarget } from './target.js';
import { WaitTimeoutError, waitForCommitted, waitForGroup, waitForRecords, WAIT_DEFAULT_TIMEOUT_MS } from '../broker/waits.js';
import type { GroupStateName as GroupState } from './types.js';
import type { RouteKey, RouteParams, Routes } from './types.js';
import { groupSummary, groupView, nodeView, partitionView, producerView, readRecords, topicSummary, topicView, transactionView } from './views.js';

export interface RequestContext<K extends RouteKey> {
  target: ControlTarget;
  /** Path parameters, URL-decoded. */
  params: RouteParams<K>;
  /** Only the names the route lists in `query` reach here (others are a 400). */
  query: URLSearchParams;
  /** Parsed JSON, or undefined for an empty body; the bytes (a Buffer) for a route with rawBody. */
  body: unknown;
  /** Aborted when the client goes away or the server closes (long polls stop waiting). */
  signal: AbortSignal;
}

export interface RouteEntry<K extends RouteKey> {
  /** Query parameters the route accepts. */
  query?: readonly string[];
  /** Success status; default 200. */
  status?: number;
  /** This route's body cap, instead of the server's (64 KiB): the audit's processed list, a user's preset. */
  maxBodyBytes?: number;
  /** The handler gets the body's bytes (a Buffer) and parses them itself. */
  rawBody?: boolean;
  handle(ctx: RequestContext<K>): Routes[K]['response'] | Promise<Routes[K]['response']>;
}

export type RouteTable = { readonly [K in RouteKey]: RouteEntry<K> };

export const RECORDS_DEFAULT_LIMIT = 100;
export const RECORDS_MAX_LIMIT = 10_000;
export const PARTITIONS_DEFAULT_LIMIT = 1000;
export const PARTITIONS_MAX_LIMIT = 10_000;
export const EVENTS_DEFAULT_LIMIT = 1000;
export const EVENTS_MAX_LIMIT = 10_000;
export const EVENTS_MAX_WAIT_MS = 30_000;
export const FAULT_WAIT_DEFAULT_MS = 10_000;
export const FAULT_WAIT_MAX_MS = 60_000;
/** The longest wait of the topic and group wait routes. */
export const WAIT_MAX_MS = 60_000;
/** The audit's body carries every processed item: room for about a million ids. */
export const AUDIT_MAX_BODY_BYTES = 64 * 1024 * 1024;
export const PRESET_MAX_BODY_BYTES = 1024 * 1024;

// ---------------------------------------------------------------- input checks

const WHOLE = /^\d{1,15}$/;

/** A path or query value that must be a whole number >= min. */
function wholeNumber(field: string, raw: string, min = 0): number {
  if (!WHOLE.test(raw) || Number(raw) < min) throw badParameter(field, `expected a whole number >= ${min}, got "${raw}"`);
  return Number(raw);
}

/** An optional query parameter: a whole number in [min, max] (larger values are capped at max). */
function queryNumber(q: URLSearchParams, name: string, def: number, max = Number.MAX_SAFE_INTEGER, min = 0): number {
  const raw = q.get(name);
  if (raw === null) return def;
  return Math.min(max, wholeNumber(name, raw, min));
}

/** The body must be a JSON object with only the listed fields (a typo is an error, not a silent default). */
function bodyObject(body: unknown, allowed: readonly string[], optional = false): Record<string, unknown> {
  if (body === undefined && optional) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'bad_body', 'the body must be a JSON object');
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw badParameter(k, `unknown field (expected ${allowed.join(', ')})`);
  return body as Record<string, unknown>;
}

function optionalInt(o: Record<string, unknown>, field: string, min: number): number | undefined {
  const v = o[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw badParameter(field, `expected a whole number >= ${min}`);
  return v;
}

function optionalBool(o: Record<string, unknown>, field: string): boolean | undefined {
  const v = o[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw badParameter(field, 'expected true or false');
  return v;
}

function stringMap(o: Record<string, unknown>, field: string): Record<string, string> | undefined {
  const v = o[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badParameter(field, 'expected an object of strings');
  for (const [k, x] of Object.entries(v)) if (typeof x !== 'string') throw badParameter(`${field}.${k}`, 'expected a string');
  return v as Record<string, string>;
}

/** A wait's timeoutMs field: default 10 s, capped at 60 s (a long poll must not hold a connection for ever). */
const waitTimeout = (o: Record<string, unknown>) => Math.min(WAIT_MAX_MS, optionalInt(o, 'timeoutMs', 0) ?? WAIT_DEFAULT_TIMEOUT_MS);

// Classic states, then KIP-848's (ConsumerGroup.ConsumerGroupState).
const GROUP_STATES: readonly GroupState[] = ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Assigning', 'Reconciling'];

/** A long-poll wait of the cluster model: 408 with what was last seen when it runs out, 503 when the server closes under it. */
async function waited<T>(signal: AbortSignal, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (err) {
    if (err instanceof WaitTimeoutError) throw new HttpError(408, 'timeout', err.message);
    if (signal.aborted) throw new HttpError(503, 'closing', 'the wait ended: the client went away or the control API is closing');
    throw err;
  }
}

// ---------------------------------------------------------------- lookups

/** The controller for the event routes. */
function chaosOf(target: ControlTarget): ChaosController {
  if (!target.chaos) throw new HttpError(503, 'proxy_disabled', 'this cluster has no fault controller: events and faults need the chaos proxy');
  return target.chaos;
}

/** Whether clients go through the proxy, so that rules can fire. */
const proxyOn = (target: ControlTarget) => target.chaos !== undefined && target.proxy !== false && target.chaos.proxy !== false;

/** The controller for the fault routes: rules need the proxy to fire. */
function faultsOf(target: ControlTarget): ChaosController {
  if (!proxyOn(target)) throw new HttpError(503, 'proxy_disabled', 'the chaos proxy is off (proxy: false, --no-proxy): faults need it');
  return target.chaos!;
}

/** The cluster model, for the routes that read or change it; upstream mode has none. */
function modelOf(target: ControlTarget): Cluster {
  if (!target.cluster) throw new HttpError(409, 'upstream_mode', `not available in upstream mode: the proxy fronts ${target.upstream?.bootstrap ?? 'another cluster'}, which kafkaesque does not model; use that cluster's own tools`);
  return target.cluster;
}

function nodeOf(target: ControlTarget, raw: string) {
  const id = wholeNumber('id', raw);
  const node = modelOf(target).nodes.get(id);
  if (!node) throw notFound(`node ${id}`);
  return node;
}

function topicOf(target: ControlTarget, name: string) {
  const t = modelOf(target).topic(name);
  if (!t) throw notFound(`topic '${name}'`);
  return t;
}

function partitionOf(target: ControlTarget, name: string, raw: string) {
  const t = topicOf(target, name);
  const index = wholeNumber('partition', raw);
  const p = t.partitions[index];
  if (!p) throw notFound(`partition ${name}-${index}`);
  return p;
}

function ruleOf(chaos: ChaosController, id: string) {
  const rule = chaos.rule(id);
  if (!rule) throw notFound(`fault rule '${id}'`);
  return rule;
}

const byName = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** A built-in preset (presets/<name>.json), without its local path. The server reads no file a request names: a user's preset comes in the apply body. */
function presetOf(name: string) {
  const p = findPreset(name);
  if (!p) throw notFound(`preset '${name}'`);
  const { file: _file, ...view } = p;
  return view;
}

// ---------------------------------------------------------------- the table

export const routes: RouteTable = {
  'GET /v1/version': { handle: () => ({ name: 'kafkaesque', version, api: 'v1' }) },

  'GET /v1/cluster': {
    handle: ({ target }) => {
      const common = { bootstrap: target.bootstrap, proxy: proxyOn(target), seed: target.chaos?.seed ?? null };
      const { upstream } = target;
      if (upstream) return { clusterId: upstream.clusterId, controllerId: upstream.controllerId, ...common, nodes: upstream.nodes(), upstream: upstream.bootstrap };
      const cluster = modelOf(target);
      return { clusterId: cluster.clusterId, controllerId: cluster.controllerId, ...common, kafkaVersion: cluster.profile.name, nodes: [...cluster.nodes.values()].sort((a, b) => a.nodeId - b.nodeId).map(nodeView) };
    },
  },

  'GET /v1/nodes': {
    handle: ({ target }) => {
      const cluster = modelOf(target);
      const led = new Map<number, number>();
      for (const t of cluster.topics.values()) for (const p of t.partitions) led.set(p.leader, (led.get(p.leader) ?? 0) + 1);
      return { nodes: [...cluster.nodes.values()].sort((a, b) => a.nodeId - b.nodeId).map((n) => ({ ...nodeView(n), leaderships: led.get(n.nodeId) ?? 0 })) };
    },
  },

  'POST /v1/nodes/:id/stop': {
    handle: async ({ target, params }) => {
      const node = nodeOf(target, params.id);
      await target.stopNode(node.nodeId);
      return nodeView(node);
    },
  },

  'POST /v1/nodes/:id/start': {
    handle: async ({ target, params }) => {
      const node = nodeOf(target, params.id);
      await target.startNode(node.nodeId);
      return nodeView(node);
    },
  },

  'GET /v1/topics': { handle: ({ target }) => ({ topics: [...modelOf(target).topics.values()].map(topicSummary).sort(byName((t) => t.name)) }) },

  'POST /v1/topics': {
    status: 201,
    handle: ({ target, body }) => {
      const o = bodyObject(body, ['name', 'partitions', 'replicationFactor', 'configs']);
      if (typeof o.name !== 'string' || o.name === '') throw badParameter('name', 'expected the topic name');
      const r = modelOf(target).createTopic(o.name, {
        numPartitions: optionalInt(o, 'partitions', 1),
        replicationFactor: optionalInt(o, 'replicationFactor', 1),
        configs: stringMap(o, 'configs'),
      });
      if (!r.ok) throw kafkaError(r.error, r.message);
      return topicView(r.value);
    },
  },

  'GET /v1/topics/:name': { handle: ({ target, params }) => topicView(topicOf(target, params.name)) },

  'DELETE /v1/topics/:name': {
    handle: ({ target, params }) => {
      const r = modelOf(target).deleteTopic(topicOf(target, params.name).name);
      if (!r.ok) throw kafkaError(r.error, r.message);
      return { deleted: r.value.name };
    },
  },

  'GET /v1/topics/:name/partitions': {
    query: ['from', 'limit'],
    handle: ({ target, params, query }) => {
      const t = topicOf(target, params.name);
      const from = queryNumber(query, 'from', 0);
      const limit = queryNumber(query, 'limit', PARTITIONS_DEFAULT_LIMIT, PARTITIONS_MAX_LIMIT, 1);
      return { topic: t.name, total: t.partitions.length, from, partitions: t.partitions.slice(from, from + limit).map(partitionView) };
    },
  },

  'GET /v1/topics/:name/partitions/:partition/records': {
    query: ['from', 'limit'],
    handle: ({ target, params, query }) => {
      const p = partitionOf(target, params.name, params.partition);
      return readRecords(p, queryNumber(query, 'from', p.logStartOffset), queryNumber(query, 'limit', RECORDS_DEFAULT_LIMIT, RECORDS_MAX_LIMIT, 1));
    },
  },

  'GET /v1/topics/:name/partitions/:partition/producers': {
    handle: ({ target, params }) => {
      const p = partitionOf(target, params.name, params.partition);
      return { producers: p.producers.producers().map(producerView).sort((a, b) => a.producerId - b.producerId) };
    },
  },

  'POST /v1/topics/:name/partitions/:partition/leader': {
    handle: ({ target, params, body }) => {
      const p = partitionOf(target, params.name, params.partition);
      const o = bodyObject(body, ['to', 'unclean'], true);
      const r = modelOf(target).electLeader(p.topic, p.index, { nodeId: optionalInt(o, 'to', 0), unclean: optionalBool(o, 'unclean') });
      if (!r.ok) throw kafkaError(r.error, r.message);
      return { ...r.value };
    },
  },

  'POST /v1/topics/:name/wait': {
    handle: ({ target, params, body, signal }) => {
      const cluster = modelOf(target);
      const o = bodyObject(body, ['count', 'partition', 'timeoutMs']);
      const count = optionalInt(o, 'count', 1);
      if (count === undefined) throw badParameter('count', 'expected the number of records to wait for (>= 1)');
      const partition = optionalInt(o, 'partition', 0);
      return waited(signal, () => waitForRecords(cluster, params.name, count, { timeoutMs: waitTimeout(o), signal, ...(partition !== undefined ? { partition } : {}) }));
    },
  },

  'GET /v1/groups': {
    handle: ({ target }) => {
      const { groups } = modelOf(target);
      const described = groups.groupIds().sort().map((id) => groups.describe(id));
      return { groups: described.filter((d) => d !== undefined).map(groupSummary) };
    },
  },

  'GET /v1/groups/:id': {
    handle: ({ target, params }) => {
      const d = modelOf(target).groups.describe(params.id);
      if (!d) throw notFound(`group '${params.id}'`);
      return groupView(modelOf(target), d);
    },
  },

  'POST /v1/groups/:id/wait': {
    handle: ({ target, params, body, signal }) => {
      const cluster = modelOf(target);
      const o = bodyObject(body, ['state', 'lag', 'timeoutMs'], true);
      if (o.state !== undefined && !GROUP_STATES.includes(o.state as GroupState)) throw badParameter('state', `expected one of ${GROUP_STATES.join(', ')}, got ${JSON.stringify(o.state)}`);
      const lag = optionalInt(o, 'lag', 0);
      return waited(signal, () => waitForGroup(cluster, params.id, { timeoutMs: waitTimeout(o), signal, ...(o.state !== undefined ? { state: o.state as GroupState } : {}), ...(lag !== undefined ? { lag } : {}) }));
    },
  },

  'POST /v1/groups/:id/committed/wait': {
    handle: ({ target, params, body, signal }) => {
      const cluster = modelOf(target);
      const o = bodyObject(body, ['topic', 'partition', 'offset', 'timeoutMs']);
      if (typeof o.topic !== 'string' || o.topic === '') throw badParameter('topic', 'expected the topic name');
      const partition = optionalInt(o, 'partition', 0);
      if (partition === undefined) throw badParameter('partition', 'expected a whole number >= 0');
      const offset = optionalInt(o, 'offset', 0);
      if (offset === undefined) throw badParameter('offset', 'expected the offset to wait for (a whole number >= 0)');
      const topic = o.topic;
      return waited(signal, () => waitForCommitted(cluster, params.id, topic, partition, offset, { timeoutMs: waitTimeout(o), signal }));
    },
  },

  'GET /v1/transactions': {
    handle: ({ target }) => ({ transactions: modelOf(target).transactions.all().map(transactionView).sort(byName((t) => t.transactionalId)) }),
  },

  'GET /v1/transactions/:id': {
    handle: ({ target, params }) => {
      const t = modelOf(target).transactions.get(params.id);
      if (!t) throw notFound(`transactional id '${params.id}'`);
      return transactionView(t);
    },
  },

  'GET /v1/faults': { handle: ({ target }) => ({ faults: faultsOf(target).rules() }) },

  'POST /v1/faults': {
    status: 201,
    handle: ({ target, body }) => {
      const chaos = faultsOf(target);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'bad_body', 'the body must be a JSON object: a fault rule');
      // The controller validates the rule; a RuleValidationError becomes 400 invalid_rule.
      return chaos.addRule(body as FaultRuleInput);
    },
  },

  'DELETE /v1/faults': { handle: ({ target }) => ({ removed: faultsOf(target).clearRules() }) },

  'GET /v1/faults/:id': { handle: ({ target, params }) => ruleOf(faultsOf(target), params.id) },

  'DELETE /v1/faults/:id': {
    handle: ({ target, params }) => {
      if (!faultsOf(target).removeRule(params.id)) throw notFound(`fault rule '${params.id}'`);
      return { removed: params.id };
    },
  },

  'POST /v1/faults/:id/wait': {
    handle: async ({ target, params, body }) => {
      const chaos = faultsOf(target);
      ruleOf(chaos, params.id);
      const o = bodyObject(body, ['count', 'timeoutMs'], true);
      const count = optionalInt(o, 'count', 1) ?? 1;
      const timeoutMs = Math.min(FAULT_WAIT_MAX_MS, optionalInt(o, 'timeoutMs', 0) ?? FAULT_WAIT_DEFAULT_MS);
      try {
        return await chaos.waitForFired(params.id, count, timeoutMs);
      } catch (err) {
        ruleOf(chaos, params.id); // removed while waiting: 404
        throw new HttpError(408, 'timeout', (err as Error).message);
      }
    },
  },

  'GET /v1/events': {
    query: ['since', 'limit', 'wait'],
    handle: async ({ target, query, signal }) => {
      const chaos = chaosOf(target);
      const since = queryNumber(query, 'since', 0);
      const limit = queryNumber(query, 'limit', EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT, 1);
      const wait = queryNumber(query, 'wait', 0, EVENTS_MAX_WAIT_MS);
      let events = chaos.events({ since, limit });
      if (events.length === 0 && wait > 0 && !signal.aborted) {
        // Long poll: subscribe, then look again, so an event between the two reads is not missed.
        await new Promise<void>((resolve) => {
          const done = () => {
            off();
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          };
          const off = chaos.onEvent((e) => e.seq > since && done());
          const timer = setTimeout(done, wait);
          signal.addEventListener('abort', done);
          if (chaos.events({ since, limit: 1 }).length > 0) done();
        });
        events = chaos.events({ since, limit });
      }
      return { events, next: events.length ? events[events.length - 1]!.seq : since };
    },
  },

  'POST /v1/reset': { handle: ({ target }) => target.reset() },

  'POST /v1/audit': {
    maxBodyBytes: AUDIT_MAX_BODY_BYTES,
    // Millions of ids stay in the body's bytes, not one heap string each (compact-body.ts).
    rawBody: true,
    handle: ({ target, body }) => {
      let parsed: unknown;
      try {
        parsed = parseAuditBody(body as Buffer);
      } catch (err) {
        if (err instanceof SyntaxError) throw new HttpError(400, 'bad_json', `the body is not JSON: ${err.message}`);
        throw err;
      }
      try {
        // No functions over HTTP: idFrom is 'key' or { header }.
        return auditChecked({ cluster: modelOf(target), chaos: target.chaos }, validateAuditInput(parsed, false));
      } catch (err) {
        if (err instanceof AuditInputError) throw badParameter(err.field, err.reason);
        throw err;
      }
    },
  },

  'GET /v1/audits': { handle: ({ target }) => ({ audits: auditsOf(modelOf(target)).map((a) => ({ ...a })) }) },

  'GET /v1/presets': { handle: () => ({ presets: listPresets().map((p) => ({ name: p.name, description: p.description, rules: p.rules.length })) }) },

  'GET /v1/presets/:name': { handle: ({ params }) => presetOf(params.name) },

  'POST /v1/presets/:name/apply': {
    status: 201,
    // A preset file of the user's own, with its rules.
    maxBodyBytes: PRESET_MAX_BODY_BYTES,
    handle: ({ target, params, body }) => {
      const chaos = faultsOf(target);
      const o = bodyObject(body, ['preset', 'params'], true);
      // A user's preset comes in the body (the CLI sends the file it read); a RuleValidationError is 400 invalid_rule.
      const preset: Preset = o.preset === undefined ? presetOf(params.name) : validatePreset(o.preset);
      if (preset.name !== params.name) throw badParameter('preset.name', `'${preset.name}' differs from the name in the path ('${params.name}')`);
      return { preset: preset.name, rules: applyPreset(chaos, preset, o.params) };
    },
  },
};

/** A route key split into its method and path segments, for matching. */
export interface CompiledRoute {
  key: RouteKey;
  method: string;
  segments: string[];
}

export const compiledRoutes: readonly CompiledRoute[] = (Object.keys(routes) as RouteKey[]).map((key) => {
  const [method, path] = key.split(' ') as [string, string];
  return { key, method, segments: path.split('/').slice(1) };
});

/** The route for a path (any method), its path parameters, and the methods the path allows. */
export function matchRoute(method: string, pathname: string): { route?: CompiledRoute; params: Record<string, string>; allowed: string[] } {
  const parts = pathname.split('/').slice(1);
  const allowed: string[] = [];
  let found: { route: CompiledRoute; params: Record<string, string> } | undefined;
  for (const route of compiledRoutes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((s, i) => {
      const part = parts[i]!;
      if (!s.startsWith(':')) return s === part;
      if (part === '') return false;
      try {
        params[s.slice(1)] = decodeURIComponent(part);
      } catch {
        throw badParameter(s.slice(1), 'malformed URL encoding');
      }
      return true;
    });
    if (!ok) continue;
    allowed.push(route.method);
    if (route.method === method && !found) found = { route, params };
  }
  return { route: found?.route, params: found?.params ?? {}, allowed };
}
