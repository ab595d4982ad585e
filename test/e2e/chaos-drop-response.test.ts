// The lost ack (DESIGN.md): the broker appends a Produce and the answer never
// arrives. kafkajs retries; without idempotence a duplicate lands in the
// log, with idempotence the broker recognises the retry by (producer id,
// epoch, sequence) and answers with the original offset.
import { Kafka, logLevel } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 1 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

async function sendOnce(topic: string, idempotent: boolean, client = kafkajs(kafka.bootstrap)) {
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent, maxInFlightRequests: idempotent ? 1 : undefined });
  await producer.connect();
  try {
    // The first Produce to this topic is appended, and its answer lost.
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
    const acks = await producer.send({ topic, acks: -1, messages: messages(3, 'v') });
    expect(kafka.chaos.rule(rule.id)).toMatchObject({ fired: 1 });
    expect(kafka.chaos.rule(rule.id)!.matched).toBeGreaterThanOrEqual(2); // the retry went through the proxy too
    return { acks, values: (await fetchPartition(client, topic, 0)).map((m) => m.value) };
  } finally {
    await producer.disconnect();
  }
}

test('without idempotence, the retry of a lost ack leaves a duplicate in the log', async () => {
  const { acks, values } = await sendOnce('lost-ack-plain', false);
  expect(values).toEqual(['v0', 'v1', 'v2', 'v0', 'v1', 'v2']);
  expect(acks[0]).toMatchObject({ baseOffset: '3' });
});

test('with idempotence, the broker dedups the retry and answers with the original offset', async () => {
  const { acks, values } = await sendOnce('lost-ack-idempotent', true);
  expect(values).toEqual(['v0', 'v1', 'v2']);
  expect(acks[0]).toMatchObject({ baseOffset: '0' });
});

test("then: 'hang' — no answer until kafkajs's request timeout; the idempotent retry is deduplicated", async () => {
  const topic = 'lost-ack-hang';
  const client = new Kafka({ clientId: 'hang', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, requestTimeout: 700, retry: { retries: 5, initialRetryTime: 50 } });
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'first', n: 1 }, action: { type: 'drop-response', then: 'hang' } });
    const started = Date.now();
    await producer.send({ topic, acks: -1, messages: messages(2, 'h') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(kafka.chaos.rule(rule.id)).toMatchObject({ fired: 1, matched: 2 });
    expect((await fetchPartition(client, topic, 0)).map((m) => m.value)).toEqual(['h0', 'h1']);
  } finally {
    await producer.disconnect();
  }
});
