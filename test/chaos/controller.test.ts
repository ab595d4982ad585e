// The controller without sockets: counting, combining outcomes of several
// rules, events, waiting for firings, releasing holds, cluster events.
import { ApiKey } from '../../src/protocol/messages/index.js';
import { engine, produceBody, proxied } from './helpers.js';

const produceReq = (nodeId = 0) => proxied(ApiKey.Produce, 9, produceBody('t', 1), { nodeId, clientId: 'app' });

test('a request no rule matches is left alone, and counts nothing', () => {
  const { chaos } = engine();
  expect(chaos.active).toBe(false);
  chaos.addRule({ id: 'f', match: { api: 'Fetch' }, action: { type: 'close' } });
  expect(chaos.active).toBe(true);
  expect(chaos.onRequest(produceReq())).toBeNull();
  expect(chaos.rule('f')).toMatchObject({ matched: 0, fired: 0 });
});

test('matched counts every matching request, fired only the firings', () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'n', match: { api: 'Produce' }, trigger: { type: 'nth', n: 2 }, action: { type: 'error', code: 'NOT_LEADER_OR_FOLLOWER' } });
  expect(chaos.onRequest(produceReq())).toBeNull();
  expect(chaos.onRequest(produceReq())!.outcome).toEqual({ request: { kind: 'error', errorCode: 6 }, response: { kind: 'forward' } });
  expect(chaos.onRequest(produceReq())).toBeNull();
  expect(chaos.rule('n')).toMatchObject({ matched: 3, fired: 1 });
});

test('several firing rules combine: the first verb other than forward wins, delays add up', () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'slow', action: { type: 'delay', ms: 30 } });
  chaos.addRule({ id: 'slower', action: { type: 'delay', ms: 20 } });
  chaos.addRule({ id: 'err', action: { type: 'error', code: 7, when: 'after' } });
  chaos.addRule({ id: 'close', action: { type: 'drop-response' } });
  const d = chaos.onRequest(produceReq())!;
  expect(d.outcome).toEqual({ request: { kind: 'forward' }, response: { kind: 'error', errorCode: 7, delayMs: 50 } });
  expect(d.delayRuleIds).toEqual(['slow', 'slower']);
  expect(chaos.rules().map((r) => r.fired)).toEqual([1, 1, 1, 1]);
});

test('each firing is an event with what is known of the request', () => {
  const { chaos, clock } = engine();
  chaos.addRule({ id: 'e', match: { api: 'Produce' }, action: { type: 'error', code: 'REQUEST_TIMED_OUT', when: 'after' } });
  const req = produceReq(2);
  chaos.onRequest(req);
  expect(chaos.events()).toEqual([
    {
      seq: 1,
      time: clock.now(),
      kind: 'fault',
      ruleId: 'e',
      action: 'error',
      connectionId: 1,
      nodeId: 2,
      clientId: 'app',
      api: 'Produce',
      apiVersion: 9,
      correlationId: req.correlationId,
      topic: 't',
      partition: 1,
      detail: { code: 'REQUEST_TIMED_OUT', when: 'after' },
    },
  ]);
});

test('node stops and starts and leader changes are events too', () => {
  const { chaos, cluster } = engine();
  cluster.createTopic('x', { numPartitions: 1, replicationFactor: 3 });
  const leader = cluster.partition('x', 0)!.leader;
  cluster.stopNode(leader);
  cluster.startNode(leader);
  const kinds = chaos.events().map((e) => [e.kind, e.nodeId]);
  expect(kinds[0]).toEqual(['leader-changed', expect.any(Number)]);
  expect(kinds.slice(1)).toEqual([['node-stopped', leader], ['node-started', leader]]);
  expect(chaos.events()[0]).toMatchObject({ topic: 'x', partition: 0, detail: { unclean: false } });
});

test('waitForFired resolves once the count is reached, and fails on timeout or removal', async () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'w', action: { type: 'delay', ms: 1 } });
  const twice = chaos.waitForFired('w', 2, 2000);
  chaos.onRequest(produceReq());
  chaos.onRequest(produceReq());
  await expect(twice).resolves.toMatchObject({ id: 'w', fired: 2 });
  await expect(chaos.waitForFired('w', 1)).resolves.toMatchObject({ fired: 2 });
  await expect(chaos.waitForFired('w', 3, 30)).rejects.toThrow(/fired 2 of 3 times within 30 ms/);
  const gone = chaos.waitForFired('w', 5, 2000);
  chaos.removeRule('w');
  await expect(gone).rejects.toThrow(/removed/);
  await expect(chaos.waitForFired('nope')).rejects.toThrow(/no chaos rule/);
});

test('removing a rule, or clearing all, releases what its delays hold', () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'a', action: { type: 'delay', ms: 1000 } });
  chaos.addRule({ id: 'b', action: { type: 'delay', ms: 1000 } });
  const released: string[] = [];
  chaos.registerHold(['a'], () => released.push('a1'));
  chaos.registerHold(['a', 'b'], () => released.push('ab'));
  const unregister = chaos.registerHold(['b'], () => released.push('b-gone'));
  unregister!();
  expect(chaos.registerHold(['b', 'no-such-rule'], () => released.push('never'))).toBeNull();
  expect(chaos.removeRule('a')).toBe(true);
  expect(released).toEqual(['a1', 'ab']);
  chaos.registerHold(['b'], () => released.push('b2'));
  expect(chaos.clearRules()).toBe(1);
  expect(released).toEqual(['a1', 'ab', 'ab', 'b2']);
  expect(chaos.rules()).toEqual([]);
  expect(chaos.removeRule('a')).toBe(false);
});

test('a rule removed by an event listener while requests flow stops firing at once', () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'once', action: { type: 'delay', ms: 1 } });
  chaos.addRule({ id: 'other', action: { type: 'delay', ms: 1 } });
  chaos.onEvent((e) => e.ruleId === 'once' && chaos.removeRule('once'));
  chaos.onRequest(produceReq());
  chaos.onRequest(produceReq());
  expect(chaos.rule('once')).toBeUndefined();
  expect(chaos.rule('other')!.fired).toBe(2);
});

test('the same seed and the same requests fire the same probabilistic faults', () => {
  const run = (seed: number) => {
    const { chaos } = engine(seed);
    chaos.addRule({ id: 'p', match: { api: 'Produce' }, trigger: { type: 'probability', p: 0.4 }, action: { type: 'delay', ms: 10, jitterMs: 50 } });
    chaos.addRule({ id: 'q', trigger: { type: 'probability', p: 0.2 }, action: { type: 'error', code: 6 } });
    for (let i = 0; i < 100; i++) chaos.onRequest(i % 3 ? produceReq() : proxied(ApiKey.Metadata, 9, { topics: null }));
    return chaos.events().map(({ ruleId, api, detail }) => ({ ruleId, api, detail }));
  };
  const a = run(2024);
  expect(a.length).toBeGreaterThan(20);
  expect(run(2024)).toEqual(a);
  expect(run(2025)).not.toEqual(a);
});
