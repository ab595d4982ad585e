// corrupt through the proxy with kafkajs: a Produce whose batch CRC is
// damaged meets CORRUPT_MESSAGE and the producer's retry lands the intact
// batch once; a Fetch answer whose values are garbage (valid batches, same
// offsets and keys) reaches a consumer's deserialisation path.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { createTopics, fetchPartition, kafkajs } from '../support/kafkajs.js';
import { WireClient } from '../support/wire-client.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 11, groupInitialRebalanceDelayMs: 0 });
  client = kafkajs(kafka.bootstrap, 'corrupt-test');
});
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(started.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

async function createTopic(topic: string) {
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 1 });
}

test('a Produce with a damaged CRC is refused with CORRUPT_MESSAGE; the kafkajs retry lands it once', async () => {
  const topic = 'corrupt-produce';
  await createTopic(topic);
  // On the wire: the broker's answer to the damaged batch.
  const wire = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  const probe = kafka.chaos.addRule({ match: { api: 'Produce', topic, clientId: 'wire-test' }, action: { type: 'corrupt' } });
  const res = await wire.request(ApiKey.Produce, 9, { transactionalId: null, acks: -1, timeoutMs: 1000, topicData: [{ name: topic, partitionData: [{ index: 0, records: buildRecordBatch([{ value: 'x' }]) }] }] });
  wire.close();
  expect(res.responses[0].partitionResponses[0].errorCode).toBe(2); // CORRUPT_MESSAGE
  kafka.chaos.removeRule(probe.id);
  expect(kafka.cluster.partition(topic, 0)!.logEndOffset).toBe(0);

  const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'corrupt' } });
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic, messages: [{ value: 'intact' }] });
  await producer.disconnect();
  expect(kafka.chaos.rule(rule.id)).toMatchObject({ matched: 2, fired: 1 });
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'corrupt', api: 'Produce', topic, detail: { mode: 'crc', direction: 'request' } });
  expect((await fetchPartition(client, topic, 0)).map((m) => m.value)).toEqual(['intact']);
});

test("mode 'value': a kafkajs consumer receives the same offsets and keys with garbage values", async () => {
  const topic = 'corrupt-fetch';
  await createTopic(topic);
  const producer = client.producer();
  await producer.connect();
  const sent = [0, 1, 2].map((i) => ({ key: `k${i}`, value: JSON.stringify({ n: i }) }));
  await producer.send({ topic, messages: sent });
  await producer.disconnect();

  const rule = kafka.chaos.addRule({ match: { api: 'Fetch', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'corrupt', mode: 'value' } });
  const seen: { offset: string; key: string; value: Buffer }[] = [];
  const consumer = client.consumer({ groupId: 'corrupt-group', maxWaitTimeInMs: 100, heartbeatInterval: 100, sessionTimeout: 6000 });
  started.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void seen.push({ offset: message.offset, key: message.key!.toString(), value: message.value! }) });
  const deadline = Date.now() + 10_000;
  while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(kafka.chaos.rule(rule.id)!.fired).toBe(1);
  expect(seen.map((m) => [m.offset, m.key])).toEqual([['0', 'k0'], ['1', 'k1'], ['2', 'k2']]);
  for (const [i, m] of seen.entries()) {
    expect(m.value.length).toBe(sent[i]!.value.length);
    expect(m.value.toString()).not.toBe(sent[i]!.value);
  }
  // The log itself is intact: only that answer was rewritten.
  expect((await fetchPartition(client, topic, 0)).map((m) => m.value)).toEqual(sent.map((m) => m.value));
});
