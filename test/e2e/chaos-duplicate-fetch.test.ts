// duplicate-fetch through the proxy: Fetch answers start with records the
// client has had already. On the wire the answer holds them; kafkajs, a
// correct client, discards records below its position and processes each
// message once.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { readBatchHeader, splitBatches } from '../../src/protocol/record-batch.js';
import { kafkajs } from '../support/kafkajs.js';
import { WireClient } from '../support/wire-client.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];
const topic = 'dup';

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 13, groupInitialRebalanceDelayMs: 0, topics: [{ name: topic, partitions: 1 }] });
  client = kafkajs(kafka.bootstrap, 'dup-test');
  const producer = client.producer();
  await producer.connect();
  // One batch per message, so that an earlier fetch offset shows in the answer's first batch.
  for (let i = 0; i < 10; i++) await producer.send({ topic, messages: [{ value: `m${i}` }] });
  await producer.disconnect();
});
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(started.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

test('the answer to a Fetch from offset 8 starts at offset 5 with by: 3', async () => {
  const rule = kafka.chaos.addRule({ match: { api: 'Fetch', topic, clientId: 'wire-test' }, action: { type: 'duplicate-fetch', by: 3 } });
  const wire = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  const res = await wire.request(ApiKey.Fetch, 11, { maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic, partitions: [{ partition: 0, fetchOffset: 8, partitionMaxBytes: 1 << 20 }] }] });
  wire.close();
  kafka.chaos.removeRule(rule.id);
  const batches = splitBatches(res.responses[0].partitions[0].records).batches;
  expect(batches.map((b) => readBatchHeader(b).baseOffset)).toEqual([5, 6, 7, 8, 9]);
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'duplicate-fetch', detail: { by: 3, offsets: [{ topic, partition: 0, from: 8, to: 5 }] } });
});

test('a kafkajs consumer whose answers start with records it has had processes each message once', async () => {
  const seen: string[] = [];
  const consumer = client.consumer({ groupId: 'dup-group', maxWaitTimeInMs: 50, heartbeatInterval: 100, sessionTimeout: 6000 });
  started.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
  const until = async (ok: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  await until(() => seen.length === 10);
  // Paused, so that its next fetch finds new records behind its position (a long poll would wait for them instead).
  // A fetch already in flight would still bring them (and pass before the rule exists): let it end first.
  const fetchEnded = new Promise<void>((resolve) => {
    const off = consumer.on(consumer.events.FETCH, () => (off(), resolve()));
  });
  consumer.pause([{ topic }]);
  await fetchEnded;
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, messages: [10, 11, 12, 13, 14].map((i) => ({ value: `m${i}` })) });
  await producer.disconnect();
  const rule = kafka.chaos.addRule({ match: { api: 'Fetch', topic, clientId: 'dup-test' }, action: { type: 'duplicate-fetch', by: 2 } });
  consumer.resume([{ topic }]);
  await until(() => seen.length === 15);
  await kafka.chaos.waitForFired(rule.id);
  kafka.chaos.removeRule(rule.id);
  const moved = kafka.chaos.events().filter((e) => e.ruleId === rule.id && (e.detail!.offsets as unknown[]).length > 0);
  expect(moved.length).toBeGreaterThanOrEqual(1);
  expect(moved[0]!.detail).toEqual({ by: 2, offsets: [{ topic, partition: 0, from: 10, to: 8 }] });
  expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => `m${i}`));
});
