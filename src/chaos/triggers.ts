// When a matching request makes a rule fire. Every trigger counts in the
// rule's own `matched` counter (this request included), or with `per` in a
// counter of the request's party (./parties.ts); `times` caps the firings of
// any trigger (per party with `per`). `stage` makes a request count only once
// its party has reached that life stage. Probability draws come from the
// rule's stream of the run's seeded generator (with `per`, from the party's
// own stream forked from it by the party's name), one draw per counted
// request that could fire: the same seed, rules and traffic fire the same faults.
import type { RuleTrigger, TriggerCommon, TriggerStage } from './api.js';
import { PARTY_KINDS } from './parties.js';
import type { SeededRandom } from './random.js';
import { fail, integer, isPlainObject, describe, record } from './validate.js';

const TYPES = ['always', 'nth', 'first', 'after', 'probability', 'window'] as const;
const COMMON = ['type', 'times', 'per', 'stage'] as const;

function stage(raw: unknown): TriggerStage {
  if (raw === 'stable' || raw === 'committed') return raw;
  if (isPlainObject(raw)) {
    const s = record(raw, 'trigger.stage', ['fetched']);
    return { fetched: integer(s.fetched, 'trigger.stage.fetched', { min: 1 }) };
  }
  return fail('trigger.stage', `must be 'stable', 'committed' or { fetched: n }, got ${describe(raw)}`);
}

function common(t: Record<string, unknown>): TriggerCommon {
  const out: TriggerCommon = {};
  if (t.times !== undefined) out.times = integer(t.times, 'trigger.times', { min: 1 });
  if (t.per !== undefined) {
    if (typeof t.per !== 'string' || !(PARTY_KINDS as readonly string[]).includes(t.per)) {
      fail('trigger.per', `must be one of ${PARTY_KINDS.map((k) => `'${k}'`).join(', ')}, got ${describe(t.per)}`);
    }
    out.per = t.per as TriggerCommon['per'];
  }
  if (t.stage !== undefined) out.stage = stage(t.stage);
  return out;
}

/** Checks a trigger and returns it in normal form (default: always). */
export function parseTrigger(raw: unknown): RuleTrigger {
  if (raw === undefined) return { type: 'always' };
  if (!isPlainObject(raw)) fail('trigger', `must be an object, got ${describe(raw)}`);
  const type = raw.type;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    fail('trigger.type', `must be one of ${TYPES.map((t) => `'${t}'`).join(', ')}, got ${describe(type)}`);
  }
  switch (type as RuleTrigger['type']) {
    case 'always': {
      const t = record(raw, 'trigger', COMMON);
      return { type: 'always', ...common(t) };
    }
    case 'nth':
    case 'first':
    case 'after': {
      const t = record(raw, 'trigger', [...COMMON, 'n']);
      const n = integer(t.n, 'trigger.n', { min: type === 'after' ? 0 : 1 });
      return { type: type as 'nth' | 'first' | 'after', n, ...common(t) };
    }
    case 'probability': {
      const t = record(raw, 'trigger', [...COMMON, 'p']);
      if (typeof t.p !== 'number' || !(t.p >= 0 && t.p <= 1)) fail('trigger.p', `must be a number from 0 to 1, got ${describe(t.p)}`);
      return { type: 'probability', p: t.p, ...common(t) };
    }
    case 'window': {
      const t = record(raw, 'trigger', [...COMMON, 'fromMs', 'toMs']);
      const fromMs = integer(t.fromMs, 'trigger.fromMs', { min: 0 });
      const toMs = integer(t.toMs, 'trigger.toMs', { min: 0 });
      if (toMs <= fromMs) fail('trigger.toMs', `must be greater than trigger.fromMs (${fromMs}), got ${toMs}`);
      return { type: 'window', fromMs, toMs, ...common(t) };
    }
  }
}

export interface TriggerState {
  /** Counted requests so far (of the party, with `per`), this one included. */
  matched: number;
  /** Firings so far (of the party, with `per`), not counting this one. */
  fired: number;
  /** Cluster-clock time the rule was added (with `per`: the party's first counted request). */
  createdAt: number;
}

/** Whether this counted request fires the rule. */
export function shouldFire(t: RuleTrigger, s: TriggerState, now: number, random: SeededRandom): boolean {
  if (t.times !== undefined && s.fired >= t.times) return false;
  switch (t.type) {
    case 'always':
      return true;
    case 'nth':
      return s.matched === t.n;
    case 'first':
      return s.matched <= t.n;
    case 'after':
      return s.matched > t.n;
    case 'probability':
      return random.next() < t.p;
    case 'window': {
      const age = now - s.createdAt;
      return age >= t.fromMs && age < t.toMs;
    }
  }
}
