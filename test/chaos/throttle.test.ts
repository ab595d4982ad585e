// throttle: the byte-stream throttle (src/chaos/stream-throttle.ts) on a
// manual clock, byte by byte over time; then the action's parameters and
// outcomes in both scopes, and how the controller hands connection limits
// to the proxy.
import { ManualClock, type Clock, type Timer } from '../../src/broker/clock.js';
import { chaosActions } from '../../src/chaos/actions/index.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { PIECE_MS, StreamThrottle } from '../../src/chaos/stream-throttle.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { modelCluster } from '../support/cluster.js';
import { engine, proxied } from './helpers.js';

/** A throttle whose sink records what left and when. */
function throttled(bytesPerSecond: number, clock: Clock = new ManualClock()) {
  const out: { at: number; bytes: Buffer }[] = [];
  let drained = 0;
  const t = new StreamThrottle(clock, bytesPerSecond, (bytes) => out.push({ at: clock.now(), bytes: Buffer.from(bytes) }), () => drained++);
  const sent = () => out.reduce((n, o) => n + o.bytes.length, 0);
  const all = () => Buffer.concat(out.map((o) => o.bytes));
  return { t, out, sent, all, drained: () => drained };
}

const bytes = (n: number, seed = 0) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff));

describe('StreamThrottle', () => {
  test('bytes leave no faster than the rate, and not much slower, in order and intact', () => {
    const clock = new ManualClock();
    const { t, sent, all } = throttled(10_000, clock);
    expect(t.piece).toBe(100); // 10 ms worth
    const data = bytes(5000);
    const start = clock.now();
    t.write(data.subarray(0, 1234));
    t.write(data.subarray(1234, 4000));
    t.write(data.subarray(4000));
    // An empty bucket at the start: nothing goes before its time.
    expect(sent()).toBe(0);
    for (let ms = 1; ms <= 600; ms++) {
      clock.advance(1);
      const due = ((clock.now() - start) * 10_000) / 1000;
      // Never ahead of the rate; behind by at most one piece.
      expect(sent()).toBeLessThanOrEqual(Math.min(5000, due));
      expect(sent()).toBeGreaterThanOrEqual(Math.min(5000, due - t.piece));
    }
    expect(sent()).toBe(5000);
    expect(all().equals(data)).toBe(true);
    expect(t.pending).toBe(0);
  });

  test('a timer runs only while bytes wait, one at a time', () => {
    const clock = new ManualClock();
    const { t, drained } = throttled(1000, clock);
    expect(clock.timersPending).toBe(0);
    t.write(bytes(50));
    t.write(bytes(50));
    expect(clock.timersPending).toBe(1);
    clock.advance(50);
    expect(clock.timersPending).toBe(1);
    clock.advance(100);
    expect(t.pending).toBe(0);
    expect(clock.timersPending).toBe(0);
    expect(t.timing).toBe(false);
    expect(drained()).toBe(1);
  });

  test('an idle stream saves up one piece at most', () => {
    const clock = new ManualClock();
    const { t, sent } = throttled(10_000, clock);
    clock.advance(60_000);
    t.write(bytes(5000));
    expect(sent()).toBe(t.piece);
    clock.advance(PIECE_MS);
    expect(sent()).toBe(2 * t.piece);
    // Drained, then idle again: the saving starts over from one piece.
    clock.advance(1000);
    expect(sent()).toBe(5000);
    clock.advance(5000);
    t.write(bytes(1000));
    expect(sent()).toBe(5000 + t.piece);
  });

  test('below 100 B/s bytes leave one at a time, 1000/rate ms apart', () => {
    const clock = new ManualClock();
    const { t, out } = throttled(4, clock);
    expect(t.piece).toBe(1);
    t.write(Buffer.from('abcd'));
    clock.advance(1000);
    expect(out.map((o) => [o.at - out[0]!.at, o.bytes.toString()])).toEqual([
      [0, 'a'],
      [250, 'b'],
      [500, 'c'],
      [750, 'd'],
    ]);
  });

  test('late timers are made up for: over time the rate is exact', () => {
    // A clock whose timers fire only when the test says, however late.
    let now = 0;
    let due: { at: number; fn: () => void } | null = null;
    const lazy: Clock = {
      now: () => now,
      setTimer(ms: number, fn: () => void): Timer {
        const me = { at: now + ms, fn };
        due = me;
        return { cancel: () => void (due === me && (due = null)) };
      },
    };
    const { t, sent } = throttled(10_000, lazy);
    t.write(bytes(20_000));
    for (let i = 0; i < 20; i++) {
      now += 37; // every timer fires 27 ms late
      const d = due as { at: number; fn: () => void } | null;
      expect(d).not.toBeNull();
      due = null;
      d!.fn();
      expect(sent()).toBe(Math.min(20_000, Math.floor((now * 10_000) / 1000)));
    }
  });

  test('release writes everything waiting at once, in order, and lets later bytes straight through', () => {
    const clock = new ManualClock();
    const { t, sent, all, drained } = throttled(1000, clock);
    const data = bytes(3000, 5);
    t.write(data.subarray(0, 1000));
    t.write(data.subarray(1000, 2000));
    clock.advance(100);
    expect(sent()).toBe(100);
    t.release();
    expect(sent()).toBe(2000);
    expect(clock.timersPending).toBe(0);
    expect(drained()).toBe(1);
    t.write(data.subarray(2000));
    expect(all().equals(data)).toBe(true);
  });

  test('cancel forgets what waits and stops its timer', () => {
    const clock = new ManualClock();
    const { t, sent } = throttled(1000, clock);
    t.write(bytes(500));
    t.cancel();
    clock.advance(10_000);
    expect(sent()).toBe(0);
    expect(clock.timersPending).toBe(0);
  });

  test('refuses a rate that is not positive', () => {
    expect(() => new StreamThrottle(new ManualClock(), 0, () => {})).toThrow(/bytesPerSecond/);
  });
});

describe('the throttle action', () => {
  function fire(params: Record<string, unknown>) {
    const module = chaosActions.get('throttle')!;
    return module.fire(module.parse({ type: 'throttle', ...params }, { nodeIds: [0] }), {
      request: proxied(ApiKey.Fetch, 12, { replicaId: -1, maxWaitMs: 0, minBytes: 1, topics: [] }),
      cluster: modelCluster().cluster,
      random: new SeededRandom(1).fork('rule-1'),
    });
  }

  test("scope 'connection' forwards the frame and limits the connection's stream, one way or both", () => {
    expect(fire({ bytesPerSecond: 5000, scope: 'connection' })).toEqual({
      outcome: { request: { kind: 'forward' } },
      limits: [{ direction: 'response', bytesPerSecond: 5000 }],
      detail: { scope: 'connection', direction: 'response', bytesPerSecond: 5000 },
    });
    expect(fire({ bytesPerSecond: 5000, scope: 'connection', direction: 'request' }).limits).toEqual([{ direction: 'request', bytesPerSecond: 5000 }]);
    expect(fire({ bytesPerSecond: 5000, scope: 'connection', direction: 'both' }).limits).toEqual([
      { direction: 'request', bytesPerSecond: 5000 },
      { direction: 'response', bytesPerSecond: 5000 },
    ]);
  });

  test("scope 'frame' (default) paces the frame, and with direction 'both' the request and its answer", () => {
    const pace = { bytes: 50, everyMs: 10 };
    expect(fire({ bytesPerSecond: 5000 }).outcome).toEqual({ request: { kind: 'forward' }, response: { kind: 'forward', pace } });
    expect(fire({ bytesPerSecond: 5000, scope: 'frame', direction: 'both' }).outcome).toEqual({ request: { kind: 'forward', pace }, response: { kind: 'forward', pace } });
    expect(fire({ bytesPerSecond: 5000 }).limits).toBeUndefined();
  });

  test.each<[Record<string, unknown>, string]>([
    [{ type: 'throttle', bytesPerSecond: 100, scope: 'link' }, 'action.scope'],
    [{ type: 'throttle', bytesPerSecond: 100, scope: 'connection', direction: 'sideways' }, 'action.direction'],
    [{ type: 'throttle', scope: 'connection' }, 'action.bytesPerSecond'],
    [{ type: 'throttle', bytesPerSecond: 2 ** 31, scope: 'connection' }, 'action.bytesPerSecond'],
    [{ type: 'throttle', bytesPerSecond: 100, scope: 'connection', burst: 10 }, 'action.burst'],
  ])('refuses %j, naming %s', (action, field) => {
    const { chaos } = engine();
    expect(() => chaos.addRule({ action: action as { type: string } })).toThrow(expect.objectContaining({ field }));
  });

  test('the decision names the rule of each limit, and holds no frame for it', () => {
    const { chaos } = engine();
    chaos.addRule({ id: 'link', action: { type: 'throttle', bytesPerSecond: 1000, scope: 'connection', direction: 'both' } });
    chaos.addRule({ id: 'late', action: { type: 'delay', ms: 5 } });
    const d = chaos.onRequest(proxied(ApiKey.Metadata, 9, { topics: null }))!;
    expect(d.limits).toEqual([
      { ruleId: 'link', direction: 'request', bytesPerSecond: 1000 },
      { ruleId: 'link', direction: 'response', bytesPerSecond: 1000 },
    ]);
    // Removing the delay rule must not lift the throttle: it is not among the holders of this frame.
    expect(d.delayRuleIds).toEqual(['late']);
    expect(chaos.events().at(-2)).toMatchObject({ ruleId: 'link', action: 'throttle', detail: { scope: 'connection', direction: 'both', bytesPerSecond: 1000 } });
  });
});
