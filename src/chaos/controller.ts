// The fault controller: rules as data (validated when added, counted when
// matched and fired), the run's seeded generator, and the event log. The
// proxy asks it, for each request, what to do; the control API and the
// library drive it through the ChaosController interface. In upstream mode
// (./upstream.ts) there is no cluster model: rules whose action needs one
// are refused when added, and node ids are whatever the upstream advertises.
import type { Cluster } from '../broker/cluster.js';
import { systemClock, type Clock } from '../broker/clock.js';
import type { Logger } from '../logger.js';
import { RuleValidationError, type ChaosController, type ChaosEvent, type FaultRule, type FaultRuleInput } from './api.js';
import { chaosActions, parseAction, type ParsedAction } from './actions/index.js';
import type { FrameOutcome, Outcome, StreamLimit } from './actions/action.js';
import { EventLog, DEFAULT_EVENT_CAPACITY } from './events.js';
import { recordEvents } from './events-file.js';
import { parseMatch, type Matcher } from './match.js';
import { SeededRandom } from './random.js';
import type { ProxiedRequest } from './request.js';
import { parseTrigger, shouldFire, type TriggerState } from './triggers.js';
import { LifeStages, partyOf, type PartyKind } from './parties.js';
import { describe, fail, isPlainObject, record } from './validate.js';

interface LiveRule {
  readonly rule: FaultRule;
  readonly matcher: Matcher;
  readonly action: ParsedAction;
  readonly random: SeededRandom;
  /** The trigger's counters without trigger.per. */
  readonly counter: TriggerState & { random: SeededRandom };
  /** With trigger.per: each party's counters and random stream. */
  readonly parties: Map<string, TriggerState & { random: SeededRandom }>;
  /** Frames this rule is holding back (delays); released when the rule goes. */
  readonly holds: Set<() => void>;
  /** waitForFired callers. */
  readonly waiters: Set<(removed: boolean) => void>;
  removed: boolean;
}

/** What the fired rules decided for one request, combined. */
export interface Decision {
  outcome: Required<Outcome>;
  /** Rules whose delays, paces or cut-offs the outcome carries: removing any of them releases what is held. */
  delayRuleIds: string[];
  /** Limits on the connection's byte stream (throttle per connection), each kept until its rule goes. */
  limits?: (StreamLimit & { ruleId: string })[];
}

export interface ChaosEngineOptions {
  /** kafkaesque's in-memory cluster; absent in upstream mode, where actions that need it are refused. */
  cluster?: Cluster;
  /** Time source without a cluster (upstream mode); with one, the cluster's clock. */
  clock?: Clock;
  seed: number;
  log: Logger;
  eventCapacity?: number;
  /** False when the cluster runs without its proxy: rules are refused, events are still kept. */
  proxyEnabled?: boolean;
  /** Append every event to this file as a JSON line (events-file.ts), until close(). */
  eventsFile?: string;
}

const FORWARD: FrameOutcome = Object.freeze({ kind: 'forward' });

/**
 * Combines two outcomes of one phase: the first verb other than forward
 * wins (in rule order); delays add up.
 */
function combine(a: FrameOutcome, b: FrameOutcome | undefined): FrameOutcome {
  if (!b) return a;
  let verb = a.kind !== 'forward' ? a : b;
  // Rewrites of frames that go through add up too, in rule order.
  // The first pace wins.
  if (verb.kind === 'forward') {
    const rewrite = [...(a.kind === 'forward' ? (a.rewrite ?? []) : []), ...(b.kind === 'forward' ? (b.rewrite ?? []) : [])];
    const pace = (a.kind === 'forward' ? a.pace : undefined) ?? (b.kind === 'forward' ? b.pace : undefined);
    verb = { kind: 'forward', ...(rewrite.length ? { rewrite } : {}), ...(pace ? { pace } : {}) };
  }
  const delayMs = (a.delayMs ?? 0) + (b.delayMs ?? 0);
  return delayMs > 0 ? { ...verb, delayMs } : verb;
}

const snapshot = (r: FaultRule): FaultRule => structuredClone(r);

/** The reason a rule is refused in upstream mode; the docs and tests quote it. */
export const NEEDS_CLUSTER = "needs kafkaesque's in-memory cluster; not available in upstream mode";

/**
 * What an action gets as ctx.cluster in upstream mode. Actions that use it
 * declare needsCluster and are refused before they can fire; should one not,
 * touching this throws, and the engine forwards the request and logs why.
 */
const NO_CLUSTER = new Proxy({} as Cluster, {
  get(_target, key) {
    throw new Error(`chaos action touched the cluster model (${String(key)}): it ${NEEDS_CLUSTER}`);
  },
});

export class ChaosEngine implements ChaosController {
  readonly seed: number;
  private readonly random: SeededRandom;
  private readonly live: LiveRule[] = [];
  private readonly byId = new Map<string, LiveRule>();
  private readonly eventLog: EventLog;
  private readonly cluster: Cluster | undefined;
  readonly clock: Clock;
  private readonly log: Logger;
  private nextId = 1;
  /** What each party has done, for triggers with a stage; kept while such a rule exists. */
  private stages = new LifeStages();
  private readonly proxyEnabled: boolean;
  private readonly detach: () => void;
  private readonly closeEventsFile: () => void;

  constructor(options: ChaosEngineOptions) {
    this.cluster = options.cluster;
    this.clock = options.cluster?.clock ?? options.clock ?? systemClock;
    this.seed = options.seed;
    this.random = new SeededRandom(options.seed);
    this.log = options.log.child({ component: 'chaos' });
    this.eventLog = new EventLog(options.eventCapacity ?? DEFAULT_EVENT_CAPACITY, this.log);
    this.closeEventsFile = options.eventsFile !== undefined ? recordEvents(this, options.eventsFile) : () => {};
    this.proxyEnabled = options.proxyEnabled ?? true;
    const c = this.cluster;
    if (!c) {
      this.detach = () => {};
      return;
    }
    const now = () => c.clock.now();
    const stopped = (nodeId: number) => this.eventLog.push({ time: now(), kind: 'node-stopped', nodeId });
    const started = (nodeId: number) => this.eventLog.push({ time: now(), kind: 'node-started', nodeId });
    const leader = (ch: { topic: string; partition: number; leader: number; leaderEpoch: number; unclean: boolean; truncatedFrom: number | null }) =>
      this.eventLog.push({
        time: now(),
        kind: 'leader-changed',
        nodeId: ch.leader,
        topic: ch.topic,
        partition: ch.partition,
        detail: { leader: ch.leader, leaderEpoch: ch.leaderEpoch, unclean: ch.unclean, truncatedFrom: ch.truncatedFrom },
      });
    c.on('node-stopped', stopped);
    c.on('node-started', started);
    c.on('leader-changed', leader);
    this.detach = () => {
      c.off('node-stopped', stopped);
      c.off('node-started', started);
      c.off('leader-changed', leader);
    };
  }

  get proxy(): boolean {
    return this.proxyEnabled;
  }

  /** Whether any rule exists: the proxy's fast path skips everything else when not. */
  get active(): boolean {
    return this.live.length > 0;
  }

  // ---------- ChaosController ----------

  addRule(input: FaultRuleInput): FaultRule {
    if (!this.proxyEnabled) throw new RuleValidationError('rule', 'this cluster runs without its proxy (proxy: false), so no rule can fire');
    if (!isPlainObject(input)) fail('rule', `must be an object, got ${describe(input)}`);
    const raw = record(input, 'rule', ['id', 'description', 'match', 'trigger', 'action']);
    let id: string;
    if (raw.id !== undefined) {
      if (typeof raw.id !== 'string' || raw.id === '') fail('id', `must be a non-empty string, got ${describe(raw.id)}`);
      if (this.byId.has(raw.id)) fail('id', `a rule with id ${JSON.stringify(raw.id)} exists already`);
      id = raw.id;
    } else {
      do id = `rule-${this.nextId++}`;
      while (this.byId.has(id));
    }
    if (raw.description !== undefined && typeof raw.description !== 'string') fail('description', `must be a string, got ${describe(raw.description)}`);
    // Upstream mode: the nodes are whatever the upstream advertises, known only as they show up.
    const nodeIds = this.cluster ? [...this.cluster.nodes.keys()] : null;
    const { match, matcher } = parseMatch(raw.match, nodeIds);
    const trigger = parseTrigger(raw.trigger);
    const type = isPlainObject(raw.action) ? raw.action.type : undefined;
    if (!this.cluster && typeof type === 'string' && chaosActions.get(type)?.needsCluster) fail('action.type', `'${type}' ${NEEDS_CLUSTER}`);
    const action = parseAction(raw.action, { nodeIds: nodeIds ?? [] });
    const rule: FaultRule = {
      id,
      ...(raw.description === undefined ? {} : { description: raw.description }),
      match,
      trigger,
      action: structuredClone(raw.action as FaultRule['action']),
      createdAt: this.clock.now(),
      matched: 0,
      fired: 0,
    };
    const random = this.random.fork(id);
    const live: LiveRule = { rule, matcher, action, random, counter: { matched: 0, fired: 0, createdAt: rule.createdAt, random }, parties: new Map(), holds: new Set(), waiters: new Set(), removed: false };
    this.live.push(live);
    this.byId.set(id, live);
    this.log.info({ rule }, `chaos: rule ${id} added`);
    return snapshot(rule);
  }

  removeRule(id: string): boolean {
    const live = this.byId.get(id);
    if (!live) return false;
    this.byId.delete(id);
    this.live.splice(this.live.indexOf(live), 1);
    live.removed = true;
    // Never lose what the rule holds: release it now.
    for (const release of [...live.holds]) release();
    for (const w of [...live.waiters]) w(true);
    // A new set of rules starts with no party's history (reset, a test's next case).
    if (this.live.length === 0) this.stages = new LifeStages();
    this.log.info({ ruleId: id, matched: live.rule.matched, fired: live.rule.fired }, `chaos: rule ${id} removed`);
    return true;
  }

  clearRules(): number {
    const ids = this.live.map((l) => l.rule.id);
    for (const id of ids) this.removeRule(id);
    return ids.length;
  }

  rules(): FaultRule[] {
    return this.live.map((l) => snapshot(l.rule));
  }

  rule(id: string): FaultRule | undefined {
    const l = this.byId.get(id);
    return l && snapshot(l.rule);
  }

  events(opts?: { since?: number; limit?: number }): ChaosEvent[] {
    return this.eventLog.list(opts);
  }

  onEvent(listener: (event: ChaosEvent) => void): () => void {
    return this.eventLog.on(listener);
  }

  waitForFired(id: string, count = 1, timeoutMs = 10_000): Promise<FaultRule> {
    const live = this.byId.get(id);
    if (!live) return Promise.reject(new Error(`no chaos rule ${JSON.stringify(id)}`));
    if (live.rule.fired >= count) return Promise.resolve(snapshot(live.rule));
    return new Promise((resolve, reject) => {
      const done = (removed: boolean) => {
        if (!removed && live.rule.fired < count) return;
        clearTimeout(timer);
        live.waiters.delete(done);
        if (removed) reject(new Error(`chaos rule ${id} was removed after firing ${live.rule.fired} of ${count} times`));
        else resolve(snapshot(live.rule));
      };
      const timer = setTimeout(() => {
        live.waiters.delete(done);
        reject(new Error(`chaos rule ${id} fired ${live.rule.fired} of ${count} times within ${timeoutMs} ms (matched ${live.rule.matched})`));
      }, timeoutMs);
      live.waiters.add(done);
    });
  }

  // ---------- the proxy's side ----------

  /** Runs every rule over one request; null when none fired (forward it untouched). */
  onRequest(req: ProxiedRequest): Decision | null {
    let decision: Decision | null = null;
    let staged = false;
    for (const live of this.live.length === 1 ? this.live : [...this.live]) {
      if (live.rule.trigger.stage !== undefined) staged = true;
      if (live.removed || !live.matcher.test(req)) continue;
      if (live.action.module.appliesTo && !live.action.module.appliesTo(live.action.params, req)) continue;
      const rule = live.rule;
      const now = this.clock.now();
      const counter = this.counterFor(live, req, now);
      if (!counter) continue;
      rule.matched++;
      counter.matched++;
      if (!shouldFire(rule.trigger, counter, now, counter.random)) continue;
      counter.fired++;
      rule.fired++;
      let result;
      try {
        result = live.action.module.fire(live.action.params, { request: req, cluster: this.cluster ?? NO_CLUSTER, random: counter.random });
      } catch (err) {
        this.log.error({ err, ruleId: rule.id }, 'chaos action failed; the request is forwarded');
        continue;
      }
      this.eventLog.push(this.faultEvent(now, live, req, result.detail));
      for (const w of [...live.waiters]) w(false);
      const { request, response } = result.outcome;
      // Rules whose outcome holds something (a delay, a paced write, a cut-off connection) release it when removed.
      const holds = (o?: FrameOutcome) => !!o && ((o.delayMs ?? 0) > 0 || o.kind === 'blackhole' || (o.kind === 'forward' && o.pace !== undefined));
      const delayed = holds(request) || holds(response);
      if (!decision) decision = { outcome: { request, response: response ?? FORWARD }, delayRuleIds: [] };
      else decision.outcome = { request: combine(decision.outcome.request, request), response: combine(decision.outcome.response, response) };
      if (delayed) decision.delayRuleIds.push(rule.id);
      for (const limit of result.limits ?? []) (decision.limits ??= []).push({ ...limit, ruleId: rule.id });
    }
    // Stages count from the next request on: "after its first OffsetCommit" does not include that commit.
    if (staged) this.stages.observe(req);
    return decision;
  }

  /**
   * The counters this request counts in: the rule's own, or its party's with
   * trigger.per. Null when it does not count: it names no party of that kind,
   * or its party has not reached the trigger's stage.
   */
  private counterFor(live: LiveRule, req: ProxiedRequest, now: number): (TriggerState & { random: SeededRandom }) | null {
    const { per, stage } = live.rule.trigger;
    const party = per === undefined ? null : partyOf(per, req);
    if (per !== undefined && party === null) return null;
    if (stage !== undefined) {
      // The stage of the party counted by, when it is one that stages are kept for; else the request's group, else its client.
      let kind: PartyKind = per ?? 'group';
      let who = party;
      if (kind !== 'group' && kind !== 'clientId' && kind !== 'connection') kind = 'group';
      if (who === null || kind !== per) who = partyOf(kind, req);
      if (who === null && kind === 'group') who = partyOf((kind = 'clientId'), req);
      if (who === null || !this.stages.reached(stage, kind, who)) return null;
    }
    if (party === null) return live.counter;
    let c = live.parties.get(party);
    if (!c) live.parties.set(party, (c = { matched: 0, fired: 0, createdAt: now, random: live.random.fork(`${per}:${party}`) }));
    return c;
  }

  /**
   * Registers a frame held back by the given rules' delays; removing any of
   * them calls `release`. Returns the function that unregisters it, or null
   * when one of the rules is gone already (a response delayed by a rule
   * removed while the broker worked on it): the frame is not held at all.
   */
  registerHold(ruleIds: readonly string[], release: () => void): (() => void) | null {
    const rules = ruleIds.map((id) => this.byId.get(id));
    if (rules.some((l) => l === undefined)) return null;
    for (const l of rules as LiveRule[]) l.holds.add(release);
    return () => {
      for (const l of rules as LiveRule[]) l.holds.delete(release);
    };
  }

  private faultEvent(time: number, live: LiveRule, req: ProxiedRequest, detail?: Record<string, unknown>): Omit<ChaosEvent, 'seq'> {
    const match = live.rule.match ?? {};
    // Topic and partition where known: the rule's own, else the request's only one.
    let topic = typeof match.topic === 'string' ? match.topic : undefined;
    let partition = match.partition;
    // Decoding only for the event is cheap enough: faults are rare next to traffic.
    if (topic === undefined) {
      const topics = req.scope().topics.filter((t, i, all) => all.findIndex((u) => u.topic === t.topic) === i);
      if (topics.length === 1) topic = topics[0]!.topic;
    }
    if (topic !== undefined && partition === undefined) {
      const parts = req.scope().topics.filter((t) => t.topic === topic).flatMap((t) => t.partitions ?? []);
      if (parts.length === 1) partition = parts[0];
    }
    return {
      time,
      kind: 'fault',
      ruleId: live.rule.id,
      action: live.action.module.type,
      connectionId: req.connectionId,
      nodeId: req.nodeId,
      clientId: req.clientId,
      api: req.apiName,
      apiVersion: req.apiVersion,
      correlationId: req.correlationId,
      ...(topic === undefined ? {} : { topic }),
      ...(partition === undefined ? {} : { partition }),
      ...(detail ? { detail } : {}),
    };
  }

  /** Stops listening to the cluster and releases every held frame. */
  close(): void {
    this.detach();
    this.closeEventsFile();
    for (const l of this.live) for (const release of [...l.holds]) release();
  }
}
