// Byte faults with kafkajs through the proxy: every frame sliced into tiny
// TCP writes both ways still makes a working producer and consumer; a
// throttled fetch is slow; a blackholed producer connection stalls until
// the rule goes, then the reset makes kafkajs reconnect and the send lands
// once.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { fetchPartition, kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 17, groupInitialRebalanceDelayMs: 0, topics: [{ name: 'sliced', partitions: 1 }, { name: 'slow', partitions: 1 }, { name: 'dark', partitions: 1 }] });
  client = kafkajs(kafka.bootstrap, 'bytes-test');
});
afterEach(() => kafka.chaos.clearRules());
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(started.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

test('slice: every request and answer in 5-byte writes, and kafkajs produces and consumes as usual', async () => {
  const answers = kafka.chaos.addRule({ action: { type: 'slice', bytes: 5 } });
  const requests = kafka.chaos.addRule({ action: { type: 'slice', bytes: 5, direction: 'request' } });
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'sliced', messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
  await producer.disconnect();
  const seen: string[] = [];
  const consumer = client.consumer({ groupId: 'sliced-group', maxWaitTimeInMs: 50, heartbeatInterval: 100, sessionTimeout: 6000 });
  started.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic: 'sliced', fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
  const deadline = Date.now() + 10_000;
  while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await consumer.stop();
  expect(seen).toEqual(['a', 'b', 'c']);
  expect(kafka.chaos.rule(answers.id)!.fired).toBeGreaterThan(5);
  expect(kafka.chaos.rule(requests.id)!.fired).toBe(kafka.chaos.rule(answers.id)!.fired);
});

test('throttle: a 20 kB fetch answer at 100 kB/s takes about 200 ms', async () => {
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'slow', messages: [{ value: Buffer.alloc(20_000, 's') }] });
  await producer.disconnect();
  kafka.chaos.addRule({ match: { api: 'Fetch', topic: 'slow' }, action: { type: 'throttle', bytesPerSecond: 100_000 } });
  const t0 = Date.now();
  const got = await fetchPartition(client, 'slow', 0);
  const took = Date.now() - t0;
  expect(got).toHaveLength(1);
  expect(got[0]!.value!.length).toBe(20_000);
  expect(took).toBeGreaterThanOrEqual(150);
  expect(took).toBeLessThan(5000);
});

test('blackhole: a producer cut off stalls; when the rule goes its connection resets and the send lands once', async () => {
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic: 'dark' }, trigger: { type: 'first', n: 1 }, action: { type: 'blackhole' } });
  let done = false;
  const sending = producer.send({ topic: 'dark', messages: [{ value: 'through the dark' }] }).finally(() => (done = true));
  await kafka.chaos.waitForFired(rule.id);
  await new Promise((r) => setTimeout(r, 300));
  expect(done).toBe(false);
  expect(kafka.cluster.partition('dark', 0)!.logEndOffset).toBe(0);
  kafka.chaos.removeRule(rule.id);
  await sending;
  await producer.disconnect();
  expect((await fetchPartition(client, 'dark', 0)).map((m) => m.value)).toEqual(['through the dark']);
  expect(kafka.chaos.events().filter((e) => e.ruleId === rule.id)).toEqual([expect.objectContaining({ action: 'blackhole', api: 'Produce', topic: 'dark' })]);
});
