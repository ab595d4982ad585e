// Each trigger on its own, on counted state, with `times` capping firings.
import { parseTrigger, shouldFire } from '../../src/chaos/triggers.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { RuleValidationError, type RuleTrigger } from '../../src/chaos/api.js';

/** Which of `n` matching requests fire, one every `stepMs` from the rule's creation. */
function firings(raw: unknown, n: number, opts: { seed?: number; stepMs?: number } = {}): number[] {
  const t = parseTrigger(raw);
  const random = new SeededRandom(opts.seed ?? 1).fork('r');
  const state = { matched: 0, fired: 0, createdAt: 1000 };
  const out: number[] = [];
  for (let i = 1; i <= n; i++) {
    state.matched = i;
    if (shouldFire(t, state, 1000 + (i - 1) * (opts.stepMs ?? 0), random)) {
      state.fired++;
      out.push(i);
    }
  }
  return out;
}

test('always, and always with times', () => {
  expect(parseTrigger(undefined)).toEqual({ type: 'always' });
  expect(firings({ type: 'always' }, 5)).toEqual([1, 2, 3, 4, 5]);
  expect(firings({ type: 'always', times: 2 }, 5)).toEqual([1, 2]);
});

test('nth, first and after count matching requests from 1', () => {
  expect(firings({ type: 'nth', n: 3 }, 6)).toEqual([3]);
  expect(firings({ type: 'first', n: 2 }, 6)).toEqual([1, 2]);
  expect(firings({ type: 'after', n: 4 }, 6)).toEqual([5, 6]);
  expect(firings({ type: 'after', n: 0 }, 3)).toEqual([1, 2, 3]);
  expect(firings({ type: 'after', n: 1, times: 2 }, 6)).toEqual([2, 3]);
});

test('probability draws from the seeded stream: same seed, same firings', () => {
  const a = firings({ type: 'probability', p: 0.3 }, 200, { seed: 11 });
  expect(firings({ type: 'probability', p: 0.3 }, 200, { seed: 11 })).toEqual(a);
  expect(firings({ type: 'probability', p: 0.3 }, 200, { seed: 12 })).not.toEqual(a);
  expect(a.length).toBeGreaterThan(35);
  expect(a.length).toBeLessThan(85);
  expect(firings({ type: 'probability', p: 0 }, 100)).toEqual([]);
  expect(firings({ type: 'probability', p: 1 }, 100)).toHaveLength(100);
  expect(firings({ type: 'probability', p: 1, times: 3 }, 100)).toEqual([1, 2, 3]);
});

test('window fires from fromMs (inclusive) to toMs (exclusive) after the rule was added', () => {
  // Requests at 0, 100, 200, ... ms after creation.
  expect(firings({ type: 'window', fromMs: 200, toMs: 500 }, 8, { stepMs: 100 })).toEqual([3, 4, 5]);
  expect(firings({ type: 'window', fromMs: 0, toMs: 1000, times: 1 }, 8, { stepMs: 100 })).toEqual([1]);
});

test.each<[unknown, string]>([
  ['always', 'trigger'],
  [{ type: 'sometimes' }, 'trigger.type'],
  [{ type: 'always', times: 0 }, 'trigger.times'],
  [{ type: 'always', times: 1.5 }, 'trigger.times'],
  [{ type: 'always', n: 3 }, 'trigger.n'],
  [{ type: 'nth' }, 'trigger.n'],
  [{ type: 'nth', n: 0 }, 'trigger.n'],
  [{ type: 'first', n: -1 }, 'trigger.n'],
  [{ type: 'after', n: 'two' }, 'trigger.n'],
  [{ type: 'probability', p: 1.5 }, 'trigger.p'],
  [{ type: 'probability' }, 'trigger.p'],
  [{ type: 'window', fromMs: 10 }, 'trigger.toMs'],
  [{ type: 'window', fromMs: 500, toMs: 500 }, 'trigger.toMs'],
  [{ type: 'window', fromMs: -1, toMs: 5 }, 'trigger.fromMs'],
])('refuses %j, naming %s', (raw, field) => {
  let err: unknown;
  try {
    parseTrigger(raw);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RuleValidationError);
  expect((err as RuleValidationError).field).toBe(field);
});

test('the normal form keeps exactly the fields given', () => {
  const t: RuleTrigger = parseTrigger({ type: 'nth', n: 2, times: 1 });
  expect(t).toEqual({ type: 'nth', n: 2, times: 1 });
});
