// The slow broker (DESIGN.md): answers delayed past the client's request
// timeout. kafkajs retries; the late answers are held in order behind the
// delayed one, and idempotence keeps the log free of duplicates.
import { Kafka, logLevel } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 3 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

async function createTopic(client: Kafka, topic: string) {
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
}

test('an answer delayed past the request timeout: the idempotent producer retries, no duplicate, order kept', async () => {
  const topic = 'slow-broker';
  const client = new Kafka({ clientId: 'slow', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, requestTimeout: 500, retry: { retries: 8, initialRetryTime: 50 } });
  await createTopic(client, topic);
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'first', n: 1 }, action: { type: 'delay', ms: 1200 } });
    const started = Date.now();
    for (let i = 0; i < 4; i++) await producer.send({ topic, acks: -1, messages: messages(3, `s${i}-`) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    const fired = kafka.chaos.rule(rule.id)!;
    expect(fired.fired).toBe(1);
    expect(fired.matched).toBeGreaterThan(4); // the retries
    const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
    expect(values).toEqual([0, 1, 2, 3].flatMap((i) => [0, 1, 2].map((j) => `s${i}-${j}`)));
    expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'delay', api: 'Produce', topic, partition: 0, detail: { direction: 'response', ms: 1200 } });
  } finally {
    await producer.disconnect();
  }
});

test('requests delayed with seeded jitter reach the broker late but in order', async () => {
  const topic = 'slow-requests';
  const client = kafkajs(kafka.bootstrap);
  await createTopic(client, topic);
  const producer = client.producer();
  await producer.connect();
  try {
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, action: { type: 'delay', direction: 'request', ms: 20, jitterMs: 30 } });
    const started = Date.now();
    await Promise.all([0, 1, 2, 3, 4].map((i) => producer.send({ topic, acks: 1, messages: messages(2, `r${i}-`) })));
    const delays = kafka.chaos.events().filter((e) => e.ruleId === rule.id).map((e) => (e.detail as { ms: number }).ms);
    expect(delays).toHaveLength(kafka.chaos.rule(rule.id)!.fired);
    for (const ms of delays) expect(ms >= 20 && ms <= 50).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(Math.min(...delays));
    const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
    expect([...values].sort()).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`r${i}-0`, `r${i}-1`]).sort());
  } finally {
    await producer.disconnect();
  }
});

test('removing the rule releases a held answer: the send completes at once, not after the delay', async () => {
  const topic = 'slow-released';
  const client = kafkajs(kafka.bootstrap);
  await createTopic(client, topic);
  const producer = client.producer();
  await producer.connect();
  try {
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, action: { type: 'delay', ms: 60_000 } });
    const started = Date.now();
    const sent = producer.send({ topic, acks: -1, messages: messages(1, 'x') });
    await kafka.chaos.waitForFired(rule.id, 1, 5000);
    kafka.chaos.removeRule(rule.id);
    await sent;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await fetchPartition(client, topic, 0)).map((m) => m.value)).toEqual(['x0']);
  } finally {
    await producer.disconnect();
  }
});
