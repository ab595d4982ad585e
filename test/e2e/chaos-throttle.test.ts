// throttle with scope 'connection' through the proxy: once the rule fires
// for a connection, its byte stream is held to the rate until the rule is
// removed. kafkajs reads a ~200 kB partition in one Fetch answer (forwarded
// cut-through, since no rule touches that frame): it takes at least
// bytes / rate and every record arrives intact; another client's
// connection is not slowed; removing the rule releases the stream at once.
// The request direction holds a large Produce back the same way, and an
// answer to a request the rule does not match waits its turn on a throttled
// connection.
import type { Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { PIECE_MS } from '../../src/chaos/stream-throttle.js';
import { fetchPartition, kafkajs } from '../support/kafkajs.js';
import { WireClient } from '../support/wire-client.js';

const RECORDS = 200;
const VALUE_BYTES = 1000;
const value = (i: number) => `${String(i).padStart(6, '0')}-`.padEnd(VALUE_BYTES, String.fromCharCode(97 + (i % 26)));

let kafka: RunningCluster;
let seeder: Kafka;

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 29, topics: [{ name: 'big', partitions: 1 }, { name: 'uploads', partitions: 1 }] });
  seeder = kafkajs(kafka.bootstrap, 'seeder');
  const producer = seeder.producer();
  await producer.connect();
  // Ten batches of 20, so the answer holds several record batches.
  for (let b = 0; b < RECORDS / 20; b++) {
    await producer.send({ topic: 'big', messages: Array.from({ length: 20 }, (_, k) => ({ value: value(b * 20 + k) })) });
  }
  await producer.disconnect();
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

/** The most a throttle lets through at once after an idle spell: one piece. */
const piece = (bytesPerSecond: number) => Math.max(1, Math.floor((bytesPerSecond * PIECE_MS) / 1000));

function expectIntact(got: { offset: string; value: string | null }[]) {
  expect(got).toHaveLength(RECORDS);
  got.forEach((m, i) => {
    expect(m.offset).toBe(String(i));
    expect(m.value).toBe(value(i));
  });
}

test('a throttled connection delivers a large Fetch answer no faster than the rate, intact', async () => {
  const rate = 400_000;
  const rule = kafka.chaos.addRule({ match: { clientId: 'slow-reader' }, action: { type: 'throttle', scope: 'connection', bytesPerSecond: rate } });
  const t0 = Date.now();
  const got = await fetchPartition(kafkajs(kafka.bootstrap, 'slow-reader'), 'big', 0);
  const took = Date.now() - t0;
  expectIntact(got);
  // The record values alone are RECORDS * VALUE_BYTES bytes of the answer;
  // the bucket may have saved one piece before it. A lower bound from bytes
  // and the rate: correctness, not speed.
  const lowerBoundMs = ((RECORDS * VALUE_BYTES - piece(rate)) * 1000) / rate;
  expect(took).toBeGreaterThanOrEqual(Math.floor(lowerBoundMs));
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'throttle', clientId: 'slow-reader', detail: { scope: 'connection', direction: 'response', bytesPerSecond: rate } });
});

test("removing the rule releases the stream at once; other clients' connections are never slowed", async () => {
  // At 2 kB/s the answer alone would take over 100 s.
  const rule = kafka.chaos.addRule({ match: { clientId: 'stuck-reader' }, action: { type: 'throttle', scope: 'connection', bytesPerSecond: 2000 } });
  let done = false;
  const stuck = fetchPartition(kafkajs(kafka.bootstrap, 'stuck-reader'), 'big', 0).finally(() => (done = true));
  await kafka.chaos.waitForFired(rule.id);
  // Another client reads the whole partition meanwhile.
  expectIntact(await fetchPartition(kafkajs(kafka.bootstrap, 'free-reader'), 'big', 0));
  await new Promise((r) => setTimeout(r, 200));
  expect(done).toBe(false);
  kafka.chaos.removeRule(rule.id);
  expectIntact(await stuck);
});

test("direction 'request': a large Produce crosses no faster than the rate, and lands once", async () => {
  // More than the 64 KiB the proxy lets wait before it stops reading the client.
  const rate = 200_000;
  const bytes = 200_000;
  kafka.chaos.addRule({ match: { clientId: 'slow-writer' }, action: { type: 'throttle', scope: 'connection', direction: 'request', bytesPerSecond: rate } });
  const producer = kafkajs(kafka.bootstrap, 'slow-writer').producer();
  await producer.connect();
  const t0 = Date.now();
  await producer.send({ topic: 'uploads', messages: [{ value: Buffer.alloc(bytes, 'u') }] });
  const took = Date.now() - t0;
  await producer.disconnect();
  expect(took).toBeGreaterThanOrEqual(Math.floor(((bytes - piece(rate)) * 1000) / rate));
  const got = await fetchPartition(seeder, 'uploads', 0);
  expect(got.map((m) => m.value?.length)).toEqual([bytes]);
});

test('on a throttled connection, answers to requests the rule does not match wait their turn too', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  try {
    const rate = 1000;
    const rule = kafka.chaos.addRule({ match: { api: 'Metadata', clientId: 'wire-test' }, trigger: { type: 'nth', n: 1 }, action: { type: 'throttle', scope: 'connection', bytesPerSecond: rate } });
    const t0 = Date.now();
    const first = c.send(ApiKey.Metadata, 12, { topics: null });
    const second = c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'x', clientSoftwareVersion: '1' });
    const a = (await c.nextFrame(10_000))!;
    const b = (await c.nextFrame(10_000))!;
    const took = Date.now() - t0;
    expect([a.readInt32BE(0), b.readInt32BE(0)]).toEqual([first, second]);
    // Both answers, size prefixes included, crossed at 1 kB/s.
    const crossed = a.length + b.length + 8;
    expect(took).toBeGreaterThanOrEqual(Math.floor(((crossed - piece(rate)) * 1000) / rate));
    expect(kafka.chaos.rule(rule.id)).toMatchObject({ matched: 1, fired: 1 });
  } finally {
    c.close();
  }
});

test('two throttles on one connection both apply; removing them one by one loses and reorders nothing', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  try {
    const first = kafka.chaos.addRule({ match: { clientId: 'wire-test' }, trigger: { type: 'nth', n: 1 }, action: { type: 'throttle', scope: 'connection', bytesPerSecond: 3000 } });
    const second = kafka.chaos.addRule({ match: { clientId: 'wire-test' }, trigger: { type: 'nth', n: 1 }, action: { type: 'throttle', scope: 'connection', direction: 'both', bytesPerSecond: 1000 } });
    let received = 0;
    c.socket.on('data', (chunk: Buffer) => void (received += chunk.length));
    const t0 = Date.now();
    const sent = Array.from({ length: 20 }, (_, i) => (i % 2 ? c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'x', clientSoftwareVersion: '1' }) : c.send(ApiKey.Metadata, 12, { topics: null })));
    // Several kilobytes of answers: the slower limit (1 kB/s) holds them, then
    // still holds them when the other rule goes; never more than the rate allows.
    const allowed = () => Math.ceil(((Date.now() - t0) * 1000) / 1000) + 2 * piece(1000);
    await new Promise((r) => setTimeout(r, 150));
    expect(received).toBeLessThanOrEqual(allowed());
    kafka.chaos.removeRule(first.id);
    await new Promise((r) => setTimeout(r, 150));
    expect(received).toBeLessThanOrEqual(allowed());
    kafka.chaos.removeRule(second.id);
    const got: number[] = [];
    for (let i = 0; i < sent.length; i++) got.push((await c.nextFrame(5000))!.readInt32BE(0));
    expect(got).toEqual(sent);
  } finally {
    c.close();
  }
});
