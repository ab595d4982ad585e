// When a matching request makes a rule fire. Every trigger counts in the
// rule's own `matched` counter (this request included); `times` caps the
// firings of any trigger. Probability draws come from the rule's stream of
// the run's seeded generator, one draw per matching request that could fire.
import type { RuleTrigger } from './api.js';
import type { SeededRandom } from './random.js';
import { fail, integer, isPlainObject, describe, record } from './validate.js';

const TYPES = ['always', 'nth', 'first', 'after', 'probability', 'window'] as const;

/** Checks a trigger and returns it in normal form (default: always). */
export function parseTrigger(raw: unknown): RuleTrigger {
  if (raw === undefined) return { type: 'always' };
  if (!isPlainObject(raw)) fail('trigger', `must be an object, got ${describe(raw)}`);
  const type = raw.type;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    fail('trigger.type', `must be one of ${TYPES.map((t) => `'${t}'`).join(', ')}, got ${describe(type)}`);
  }
  const times = (t: Record<string, unknown>) => (t.times === undefined ? {} : { times: integer(t.times, 'trigger.times', { min: 1 }) });
  switch (type as RuleTrigger['type']) {
    case 'always': {
      const t = record(raw, 'trigger', ['type', 'times']);
      return { type: 'always', ...times(t) };
    }
    case 'nth':
    case 'first':
    case 'after': {
      const t = record(raw, 'trigger', ['type', 'n', 'times']);
      const n = integer(t.n, 'trigger.n', { min: type === 'after' ? 0 : 1 });
      return { type: type as 'nth' | 'first' | 'after', n, ...times(t) };
    }
    case 'probability': {
      const t = record(raw, 'trigger', ['type', 'p', 'times']);
      if (typeof t.p !== 'number' || !(t.p >= 0 && t.p <= 1)) fail('trigger.p', `must be a number from 0 to 1, got ${describe(t.p)}`);
      return { type: 'probability', p: t.p, ...times(t) };
    }
    case 'window': {
      const t = record(raw, 'trigger', ['type', 'fromMs', 'toMs', 'times']);
      const fromMs = integer(t.fromMs, 'trigger.fromMs', { min: 0 });
      const toMs = integer(t.toMs, 'trigger.toMs', { min: 0 });
      if (toMs <= fromMs) fail('trigger.toMs', `must be greater than trigger.fromMs (${fromMs}), got ${toMs}`);
      return { type: 'window', fromMs, toMs, ...times(t) };
    }
  }
}

export interface TriggerState {
  /** Matching requests so far, this one included. */
  matched: number;
  /** Firings so far, not counting this one. */
  fired: number;
  /** Cluster-clock time the rule was added. */
  createdAt: number;
}

/** Whether this matching request fires the rule. */
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
