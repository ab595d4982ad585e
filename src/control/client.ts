// The typed client of the control API: one method per route, built on one
// `request(route, input)` whose route keys, parameters, bodies and answers
// are the Routes of types.ts, the same types the server's table implements.
// Uses the global fetch (Node 20), so it loads nothing of the broker and works
// from a jest worker talking to a cluster that globalSetup started.
import type {
  AuditReport,
  AuditRequest,
  AppliedPreset,
  ApplyPresetRequest,
  ClusterView,
  CreateTopicRequest,
  ErrorBody,
  EventsPage,
  EventsQuery,
  FaultRule,
  FaultRuleInput,
  ChaosEvent,
  GroupSummaryView,
  GroupView,
  LeaderChangeView,
  MoveLeaderRequest,
  NodeView,
  NodeOverview,
  PartitionsPage,
  PartitionsQuery,
  AuditRecordView,
  ParamNames,
  PathOf,
  Preset,
  PresetSummary,
  ProducerView,
  RecordsPage,
  RecordsQuery,
  ResetResult,
  RouteKey,
  Routes,
  TopicSummary,
  TopicView,
  TransactionView,
  VersionInfo,
  WaitForFaultRequest,
  WaitForCommittedRequest,
  WaitForGroupRequest,
  WaitForRecordsRequest,
  CommittedProgress,
  GroupProgress,
  RecordsProgress,
} from './types.js';

/** A non-2xx answer (status > 0), or no answer at all (status 0, error 'unreachable' or 'timeout'). */
export class ControlError extends Error {
  override name = 'ControlError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly field?: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** A preset as the API takes it: the local file path stays local. */
function withoutFile(p: Preset): Preset {
  return { name: p.name, description: p.description, ...(p.params ? { params: p.params } : {}), rules: p.rules, expect: p.expect };
}

export interface ControlClientOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Per request, on top of any long-poll wait; default 30000 ms. */
  timeoutMs?: number;
}

/** What `request` takes for a route: params when the path has any, a body when the route takes one, its query. */
export type RequestInput<K extends RouteKey> = ([ParamNames<PathOf<K>>] extends [never]
  ? { params?: undefined }
  : { params: { [N in ParamNames<PathOf<K>>]: string | number } }) &
  (undefined extends Routes[K]['body'] ? { body?: Routes[K]['body'] } : { body: Routes[K]['body'] }) & { query?: Partial<Routes[K]['query']> };

type InputArgs<K extends RouteKey> = object extends RequestInput<K> ? [input?: RequestInput<K>] : [input: RequestInput<K>];

/**
 * The base URL of a control API as given: `http://127.0.0.1:35029`, or
 * `127.0.0.1:35029` / `localhost:35029` without a scheme (taken as http://,
 * the scheme kafkaesque serves). Anything that is not an http(s) URL then is
 * refused with what to give instead.
 */
export function controlBaseUrl(input: string): string {
  const text = String(input).trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TypeError(`control URL ${JSON.stringify(input)} is not a URL: give http://host:port, as kafkaesque start prints it (controlUrl)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`control URL ${JSON.stringify(input)}: the control API speaks http, not ${url.protocol.slice(0, -1)}: give http://host:port`);
  if (url.search || url.hash) throw new TypeError(`control URL ${JSON.stringify(input)}: give the base URL only, http://host:port, without ?query or #fragment`);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export class ControlClient {
  readonly baseUrl: string;
  private readonly token?: string;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, options: ControlClientOptions = {}) {
    this.baseUrl = controlBaseUrl(baseUrl);
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** A client for KAFKAESQUE_URL (and KAFKAESQUE_TOKEN when set), as the jest fixture exports them. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): ControlClient {
    const url = env.KAFKAESQUE_URL;
    if (!url) throw new Error('KAFKAESQUE_URL is not set: start kafkaesque (or its jest globalSetup) first');
    try {
      return new ControlClient(url, { token: env.KAFKAESQUE_TOKEN || undefined });
    } catch (err) {
      throw new TypeError(`KAFKAESQUE_URL: ${(err as Error).message}`);
    }
  }

  /** Any route, typed by its key: `request('GET /v1/topics/:name', { params: { name: 'orders' } })`. */
  async request<K extends RouteKey>(route: K, ...[input]: InputArgs<K>): Promise<Routes[K]['response']> {
    const space = route.indexOf(' ');
    const method = route.slice(0, space);
    const { params, body, query } = (input ?? {}) as { params?: Record<string, string | number>; body?: unknown; query?: Record<string, unknown> };
    const path = route.slice(space + 1).replace(/:(\w+)/g, (_, name: string) => {
      const v = params?.[name];
      if (v === undefined || v === '') throw new TypeError(`${route}: parameter '${name}' is missing`);
      return encodeURIComponent(String(v));
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
    const url = `${this.baseUrl}${path}${search.size ? `?${search}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    // Long polls get their own wait on top of the usual budget.
    const wait = Number(query?.wait ?? 0) + Number((body as { timeoutMs?: number } | undefined)?.timeoutMs ?? 0);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs + wait) });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError') throw new ControlError(0, 'timeout', `${method} ${url}: no answer within ${this.timeoutMs + wait} ms`);
      throw new ControlError(0, 'unreachable', `${method} ${url}: ${(e.cause as Error | undefined)?.message ?? e.message}`);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const b = json as Partial<ErrorBody> | undefined;
      if (b && typeof b.error === 'string') throw new ControlError(res.status, b.error, `${method} ${path}: ${b.message ?? b.error}`, b.field, b.reason);
      throw new ControlError(res.status, 'http_error', `${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
    }
    if (json === undefined) throw new ControlError(res.status, 'bad_response', `${method} ${path}: the answer is not JSON: ${text.slice(0, 200)}`);
    return json as Routes[K]['response'];
  }

  // ---------------------------------------------------------------- cluster and nodes

  version(): Promise<VersionInfo> {
    return this.request('GET /v1/version');
  }

  cluster(): Promise<ClusterView> {
    return this.request('GET /v1/cluster');
  }

  /** Stops a broker: its connections reset, its leaderships move. */
  /** Every node with the number of partitions it leads. */
  async nodes(): Promise<NodeOverview[]> {
    return (await this.request('GET /v1/nodes')).nodes;
  }

  stopNode(nodeId: number): Promise<NodeView> {
    return this.request('POST /v1/nodes/:id/stop', { params: { id: nodeId } });
  }

  startNode(nodeId: number): Promise<NodeView> {
    return this.request('POST /v1/nodes/:id/start', { params: { id: nodeId } });
  }

  // ---------------------------------------------------------------- topics

  async topics(): Promise<TopicSummary[]> {
    return (await this.request('GET /v1/topics')).topics;
  }

  createTopic(spec: CreateTopicRequest): Promise<TopicView> {
    return this.request('POST /v1/topics', { body: spec });
  }

  topic(name: string): Promise<TopicView> {
    return this.request('GET /v1/topics/:name', { params: { name } });
  }

  async deleteTopic(name: string): Promise<void> {
    await this.request('DELETE /v1/topics/:name', { params: { name } });
  }

  /** Decoded records of a partition, a page at a time (`page.nextOffset` is the next `from`). */
  /** A page of a topic's partitions (from, limit), for topics too large to read whole. */
  partitions(topic: string, query: PartitionsQuery = {}): Promise<PartitionsPage> {
    return this.request('GET /v1/topics/:name/partitions', { params: { name: topic }, query });
  }

  records(topic: string, partition: number, query: RecordsQuery = {}): Promise<RecordsPage> {
    return this.request('GET /v1/topics/:name/partitions/:partition/records', { params: { name: topic, partition }, query });
  }

  async producers(topic: string, partition: number): Promise<ProducerView[]> {
    return (await this.request('GET /v1/topics/:name/partitions/:partition/producers', { params: { name: topic, partition } })).producers;
  }

  /** Resolves once the topic (or `partition`) holds at least `count` data records below the high watermark; ControlError 'timeout' (408) otherwise, naming the count seen. */
  waitForRecords(topic: string, count: number, options: Omit<WaitForRecordsRequest, 'count'> = {}): Promise<RecordsProgress> {
    return this.request('POST /v1/topics/:name/wait', { params: { name: topic }, body: { count, ...options } });
  }

  /** Elects a new leader (the next in-sync replica, or `to`); the leader epoch goes up. */
  moveLeader(topic: string, partition: number, options: MoveLeaderRequest = {}): Promise<LeaderChangeView> {
    return this.request('POST /v1/topics/:name/partitions/:partition/leader', { params: { name: topic, partition }, body: options });
  }

  // ---------------------------------------------------------------- groups and transactions

  async groups(): Promise<GroupSummaryView[]> {
    return (await this.request('GET /v1/groups')).groups;
  }

  group(groupId: string): Promise<GroupView> {
    return this.request('GET /v1/groups/:id', { params: { id: groupId } });
  }

  /**
   * Resolves once the group is Stable (or `state`) and, with `lag`, its total
   * lag is at most that: `{ lag: 0 }` = committed up to the high watermark of
   * every partition it consumes. ControlError 'timeout' (408) names what was
   * last seen.
   */
  waitForGroup(groupId: string, options: WaitForGroupRequest = {}): Promise<GroupProgress> {
    return this.request('POST /v1/groups/:id/wait', { params: { id: groupId }, body: options });
  }

  /** Resolves once the group's committed offset of topic-partition is at least `offset`; ControlError 'timeout' (408) otherwise ("group g committed orders-0 at 3, waiting for 5"). */
  waitForCommitted(groupId: string, topic: string, partition: number, offset: number, options: Pick<WaitForCommittedRequest, 'timeoutMs'> = {}): Promise<CommittedProgress> {
    return this.request('POST /v1/groups/:id/committed/wait', { params: { id: groupId }, body: { topic, partition, offset, ...options } });
  }

  async transactions(): Promise<TransactionView[]> {
    return (await this.request('GET /v1/transactions')).transactions;
  }

  transaction(transactionalId: string): Promise<TransactionView> {
    return this.request('GET /v1/transactions/:id', { params: { id: transactionalId } });
  }

  // ---------------------------------------------------------------- faults and events

  async faults(): Promise<FaultRule[]> {
    return (await this.request('GET /v1/faults')).faults;
  }

  /** Adds a rule; a bad one throws ControlError 'invalid_rule' with the field and the reason. */
  addFault(rule: FaultRuleInput): Promise<FaultRule> {
    return this.request('POST /v1/faults', { body: rule });
  }

  fault(id: string): Promise<FaultRule> {
    return this.request('GET /v1/faults/:id', { params: { id } });
  }

  async removeFault(id: string): Promise<void> {
    await this.request('DELETE /v1/faults/:id', { params: { id } });
  }

  /** Removes every rule; resolves to how many there were. */
  async clearFaults(): Promise<number> {
    return (await this.request('DELETE /v1/faults')).removed;
  }

  /** Resolves once the rule has fired `count` times (default 1); ControlError 'timeout' (408) otherwise. */
  waitForFault(id: string, options: WaitForFaultRequest = {}): Promise<FaultRule> {
    return this.request('POST /v1/faults/:id/wait', { params: { id }, body: options });
  }

  /** Events after `since`; with `wait`, a long poll that answers as soon as one arrives. */
  events(query: EventsQuery = {}): Promise<EventsPage> {
    return this.request('GET /v1/events', { query });
  }

  /** Every event from `since` on, as it happens, until the signal aborts (long polls of `waitMs`). */
  async *followEvents(options: { since?: number; waitMs?: number; signal?: AbortSignal } = {}): AsyncGenerator<ChaosEvent> {
    let since = options.since ?? 0;
    // An abort ends the wait at once, not when the current long poll answers.
    const aborted = new Promise<undefined>((resolve) => options.signal?.addEventListener('abort', () => resolve(undefined), { once: true }));
    while (!options.signal?.aborted) {
      const page = await Promise.race([this.events({ since, wait: options.waitMs ?? 10_000 }), aborted]);
      if (page === undefined) return;
      for (const e of page.events) yield e;
      since = page.next;
    }
  }

  // ---------------------------------------------------------------- presets

  /** The built-in presets (presets/ in the package). */
  async presets(): Promise<PresetSummary[]> {
    return (await this.request('GET /v1/presets')).presets;
  }

  preset(name: string): Promise<Preset> {
    return this.request('GET /v1/presets/:name', { params: { name } });
  }

  /**
   * Adds every rule of a built-in preset, or of `preset` (a file of your own,
   * loaded with loadPresetFile), all or none, aimed by `params` (default: the
   * preset's `args`, as resolvePreset('name?topic=orders') sets them); resolves to the rules added.
   */
  applyPreset(name: string, preset?: Preset, params: ApplyPresetRequest['params'] = preset?.args): Promise<AppliedPreset> {
    const body: ApplyPresetRequest = { ...(preset === undefined ? {} : { preset: withoutFile(preset) }), ...(params === undefined ? {} : { params }) };
    return this.request('POST /v1/presets/:name/apply', { params: { name }, body: Object.keys(body).length ? body : undefined });
  }

  /** Clears faults, starts stopped nodes, deletes every topic, group and transaction, and creates the start topics again. */
  reset(): Promise<ResetResult> {
    return this.request('POST /v1/reset');
  }

  /** The delivery audit (docs/audit.md): what was lost, duplicated or reordered, each with the events before it. */
  audit(input: AuditRequest): Promise<AuditReport> {
    return this.request('POST /v1/audit', { body: input });
  }

  /** The last audits of this cluster that found an anomaly (in process or over HTTP), oldest first. */
  async audits(): Promise<AuditRecordView[]> {
    return (await this.request('GET /v1/audits')).audits;
  }
}
