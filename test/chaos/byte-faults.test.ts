// Byte faults: throttle, slice and blackhole. Their outcomes as values and
// refusals; then on the wire, with a raw client: a sliced answer arrives in
// many small reads and whole, a throttled one takes its time, a paced frame
// is written at once when its rule goes, and a blackholed connection is
// silent both ways until its rule goes, then reset.
import { chaosActions } from '../../src/chaos/actions/index.js';
import { paceFor } from '../../src/chaos/actions/throttle.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { WireClient } from '../support/wire-client.js';
import { modelCluster } from '../support/cluster.js';
import { engine, proxied } from './helpers.js';

function fire(type: string, params: Record<string, unknown> = {}) {
  const module = chaosActions.get(type)!;
  return module.fire(module.parse({ type, ...params }, { nodeIds: [0] }), {
    request: proxied(ApiKey.Metadata, 9, { topics: null }),
    cluster: modelCluster().cluster,
    random: new SeededRandom(1).fork('rule-1'),
  });
}

test('slice and throttle pace the answer (default) or the request; blackhole cuts the connection off', () => {
  expect(fire('slice', { bytes: 3 })).toEqual({
    outcome: { request: { kind: 'forward' }, response: { kind: 'forward', pace: { bytes: 3, everyMs: 0 } } },
    detail: { direction: 'response', bytes: 3, delayMs: 0 },
  });
  expect(fire('slice', { bytes: 10, delayMs: 5, direction: 'request' }).outcome).toEqual({ request: { kind: 'forward', pace: { bytes: 10, everyMs: 5 } } });
  expect(fire('throttle', { bytesPerSecond: 100_000 })).toEqual({
    outcome: { request: { kind: 'forward' }, response: { kind: 'forward', pace: { bytes: 1000, everyMs: 10 } } },
    detail: { direction: 'response', bytesPerSecond: 100_000 },
  });
  expect(fire('throttle', { bytesPerSecond: 100, direction: 'request' }).outcome).toEqual({ request: { kind: 'forward', pace: { bytes: 1, everyMs: 10 } } });
  expect(paceFor(20)).toEqual({ bytes: 1, everyMs: 50 });
  expect(paceFor(1)).toEqual({ bytes: 1, everyMs: 1000 });
  expect(fire('blackhole')).toEqual({ outcome: { request: { kind: 'blackhole' } } });
});

test.each<[Record<string, unknown>, string]>([
  [{ type: 'slice' }, 'action.bytes'],
  [{ type: 'slice', bytes: 0 }, 'action.bytes'],
  [{ type: 'slice', bytes: 1, delayMs: -1 }, 'action.delayMs'],
  [{ type: 'slice', bytes: 1, direction: 'both' }, 'action.direction'],
  [{ type: 'throttle' }, 'action.bytesPerSecond'],
  [{ type: 'throttle', bytesPerSecond: 0.5 }, 'action.bytesPerSecond'],
  [{ type: 'throttle', bytesPerSecond: 10, direction: 'up' }, 'action.direction'],
  [{ type: 'blackhole', ms: 10 }, 'action.ms'],
])('refuses %j, naming %s', (action, field) => {
  const { chaos } = engine();
  expect(() => chaos.addRule({ action: action as { type: string } })).toThrow(expect.objectContaining({ field }));
});

test('rules that pace or cut off hold their frames: the decision names them, so removing them releases', () => {
  const { chaos } = engine();
  chaos.addRule({ id: 'slow', action: { type: 'throttle', bytesPerSecond: 10 } });
  chaos.addRule({ id: 'cut', action: { type: 'slice', bytes: 1 } });
  const d = chaos.onRequest(proxied(ApiKey.Metadata, 9, { topics: null }))!;
  // The first pace wins; both rules hold the answer.
  expect(d.outcome.response).toEqual({ kind: 'forward', pace: { bytes: 1, everyMs: 100 } });
  expect(d.delayRuleIds).toEqual(['slow', 'cut']);
  chaos.clearRules();
  chaos.addRule({ id: 'hole', action: { type: 'blackhole' } });
  expect(chaos.onRequest(proxied(ApiKey.Metadata, 9, { topics: null }))).toMatchObject({ outcome: { request: { kind: 'blackhole' } }, delayRuleIds: ['hole'] });
});

describe('on the wire', () => {
  let kafka: RunningCluster;
  const clients: WireClient[] = [];
  const open = async () => {
    const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 1, seed: 3 });
  });
  afterEach(() => {
    kafka.chaos.clearRules();
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => kafka.stop());

  const reads = (c: WireClient) => {
    const sizes: number[] = [];
    c.socket.on('data', (chunk: Buffer) => sizes.push(chunk.length));
    return sizes;
  };

  test('a sliced answer arrives in many small reads, whole, and before the answer behind it', async () => {
    const c = await open();
    const sizes = reads(c);
    kafka.chaos.addRule({ match: { api: 'Metadata', clientId: 'wire-test' }, trigger: { type: 'nth', n: 1 }, action: { type: 'slice', bytes: 16, delayMs: 15 } });
    // 15 ms between pieces: the client reads in this same process, so a busy
    // machine must not merge two pieces into one read.
    const first = c.send(ApiKey.Metadata, 12, { topics: null });
    const second = c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'x', clientSoftwareVersion: '1' });
    const a = (await c.nextFrame())!;
    const b = (await c.nextFrame())!;
    expect([a.readInt32BE(0), b.readInt32BE(0)]).toEqual([first, second]);
    expect(sizes.filter((n) => n <= 16).length).toBeGreaterThanOrEqual(Math.floor(a.length / 16));
  });

  test('a request sliced on its way still reaches the broker whole', async () => {
    const c = await open();
    kafka.chaos.addRule({ match: { api: 'Metadata' }, action: { type: 'slice', bytes: 2, direction: 'request' } });
    const meta = await c.request(ApiKey.Metadata, 12, { topics: null });
    expect(meta.brokers).toHaveLength(1);
  });

  test('a throttled answer takes its time; removing the rule writes the rest at once', async () => {
    const c = await open();
    const rule = kafka.chaos.addRule({ match: { api: 'Metadata' }, action: { type: 'throttle', bytesPerSecond: 200 } });
    const started = Date.now();
    c.send(ApiKey.Metadata, 12, { topics: null });
    const pending = c.nextFrame(5000);
    await new Promise((r) => setTimeout(r, 120));
    kafka.chaos.removeRule(rule.id);
    const frame = await pending;
    // About 60 bytes at 200 B/s would take ~300 ms; the removal cut it short.
    expect(frame!.length).toBeGreaterThan(40);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(1000);
  });

  test('a blackholed connection answers nothing, takes nothing in, and resets when the rule goes', async () => {
    const c = await open();
    const rule = kafka.chaos.addRule({ match: { api: 'Metadata', clientId: 'wire-test' }, trigger: { type: 'nth', n: 1 }, action: { type: 'blackhole' } });
    c.send(ApiKey.Metadata, 12, { topics: null });
    await kafka.chaos.waitForFired(rule.id);
    c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'x', clientSoftwareVersion: '1' });
    await expect(c.nextFrame(200)).rejects.toThrow(/no frame/);
    expect(kafka.chaos.rule(rule.id)!.matched).toBe(1);
    expect(c.closed).toBe(false);
    kafka.chaos.removeRule(rule.id);
    expect(await c.whenClosed(2000)).toBe(true);
    // A new connection works.
    const d = await open();
    expect((await d.request(ApiKey.Metadata, 12, { topics: null })).brokers).toHaveLength(1);
  });
});
