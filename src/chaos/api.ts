// The shape of faults as data, shared by the proxy (src/chaos/), the control
// API and its typed client (src/control/), presets and the CLI. A rule is
// match + trigger + action; everything here is plain JSON so that any
// language can send it over HTTP.

/** Which requests a rule looks at; an absent field matches anything. */
export interface RuleMatch {
  /** Broker node(s) the request was sent to. */
  nodeId?: number | number[];
  /** API name(s) as Kafka spells them ('Produce', 'Fetch', 'OffsetCommit'), or api key(s). */
  api?: string | number | (string | number)[];
  /** Inclusive request version range. */
  versions?: { min?: number; max?: number };
  /** Exact client id, or { regex } (JavaScript syntax). */
  clientId?: string | { regex: string };
  /** Requests that name this topic (Produce, Fetch, ListOffsets, OffsetCommit, …): exact, or { regex }. */
  topic?: string | { regex: string };
  /** With topic: requests that name this partition. */
  partition?: number;
  /** Requests that name this group: exact, or { regex }. */
  groupId?: string | { regex: string };
  /** Requests that name this transactional id: exact, or { regex }. */
  transactionalId?: string | { regex: string };
  /** true: share-group requests that carry acknowledgements (ShareAcknowledge, ShareFetch with some); false: requests that carry none. */
  acknowledges?: boolean;
}

/**
 * Who a trigger counts for (src/chaos/parties.ts): with `per`, every counter
 * of the trigger (n, times, the window's start, the probability's draws) is
 * kept for each party apart, so `{ type: 'nth', n: 1, per: 'group' }` fires
 * on the first matching request of every group. A request that names no
 * party of that kind is not counted.
 */
export type TriggerParty = 'group' | 'clientId' | 'producerId' | 'transactionalId' | 'connection' | 'topic';

/**
 * A life stage: requests count only once their party has got there. 'stable':
 * it has sent a SyncGroup (its group completed a generation); 'committed': it
 * has sent an OffsetCommit or TxnOffsetCommit; { fetched: n }: its Fetch
 * offsets have moved n records past the first it asked for.
 */
export type TriggerStage = 'stable' | 'committed' | { fetched: number };

/** Fields every trigger takes. */
export interface TriggerCommon {
  /** Caps the firings (per party with `per`). */
  times?: number;
  per?: TriggerParty;
  stage?: TriggerStage;
}

/** When a matching request makes the rule fire. `times` caps the firings of any trigger. */
export type RuleTrigger = TriggerCommon &
  (
    | { type: 'always' }
    /** Only the n-th matching request (1-based). */
    | { type: 'nth'; n: number }
    /** The first n matching requests. */
    | { type: 'first'; n: number }
    /** Every matching request after the first n. */
    | { type: 'after'; n: number }
    /** Each matching request with probability p, from the run's seeded generator. */
    | { type: 'probability'; p: number }
    /** Matching requests between fromMs and toMs after the rule was added (with `per`: after the party's first counted request), cluster clock. */
    | { type: 'window'; fromMs: number; toMs: number }
  );

/** What happens when the rule fires: `type` names the action module, the rest are its parameters. */
export interface RuleAction {
  type: string;
  [param: string]: unknown;
}

export interface FaultRuleInput {
  /** Chosen by the caller, or generated ("rule-1", …). */
  id?: string;
  description?: string;
  match?: RuleMatch;
  /** Default: { type: 'always' }. */
  trigger?: RuleTrigger;
  action: RuleAction;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  trigger: RuleTrigger;
  /** Cluster-clock time the rule was added. */
  createdAt: number;
  /** Requests the match selected. */
  matched: number;
  /** Times the action ran. */
  fired: number;
}

/** A refused rule or preset: which field, and why. */
export class RuleValidationError extends Error {
  override name = 'RuleValidationError';
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly file?: string,
  ) {
    super(`${file ? `${file}: ` : ''}${field}: ${reason}`);
  }
}

/** Everything that fires, and every node stop and start, becomes one of these. */
export interface ChaosEvent {
  /** Increasing per run, from 1. */
  seq: number;
  /** Cluster-clock time. */
  time: number;
  /** 'fault' for a rule firing; 'node-stopped', 'node-started', 'leader-changed', … for cluster changes. */
  kind: string;
  ruleId?: string;
  action?: string;
  connectionId?: number;
  nodeId?: number;
  clientId?: string | null;
  api?: string;
  apiVersion?: number;
  correlationId?: number;
  topic?: string;
  partition?: number;
  detail?: Record<string, unknown>;
}

/** The in-process fault controller: the same operations the control API serves over HTTP. */
export interface ChaosController {
  /** The seed of this run's random generator (printed at start). */
  readonly seed: number;
  /**
   * Whether clients go through the proxy. False (cluster started with
   * `proxy: false`): addRule refuses every rule, events still record node
   * stops and starts. Absent in stand-ins: treat as true.
   */
  readonly proxy?: boolean;
  /** Validates and adds a rule; throws RuleValidationError naming the bad field. */
  addRule(input: FaultRuleInput): FaultRule;
  removeRule(id: string): boolean;
  /** Removes every rule; returns how many there were. Delayed frames are released, not dropped. */
  clearRules(): number;
  rules(): FaultRule[];
  rule(id: string): FaultRule | undefined;
  /** Events in order; `since` = the last seq already seen. */
  events(opts?: { since?: number; limit?: number }): ChaosEvent[];
  onEvent(listener: (event: ChaosEvent) => void): () => void;
  /** Resolves when the rule has fired at least `count` times (default 1). */
  waitForFired(id: string, count?: number, timeoutMs?: number): Promise<FaultRule>;
}
