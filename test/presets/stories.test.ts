// Every built-in preset about producers, applied as it stands to a running
// cluster and played with kafkajs: the outcome its `expect` promises is
// asserted on the client and on the log. The cluster runs on a SkipClock, so
// a story whose cause is a long wait (a 75 s hold, a broker away for 5 s)
// plays out at once. Group presets: group-stories.test.ts.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, resolvePreset } from '../../src/presets/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';
import { SkipClock } from './skip-clock.js';
import { Kafka, logLevel, type Producer, type ProducerConfig } from 'kafkajs';
import { ControlClient } from '../../src/control/client.js';

let kafka: RunningCluster;
const clock = new SkipClock();
const producers: Producer[] = [];
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 7, clock });
});
afterEach(async () => {
  kafka.chaos.clearRules();
  await Promise.all(producers.splice(0).map((p) => bounded(p.disconnect())));
});
afterAll(() => kafka.stop());

const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
const values = async (client: Kafka, topic: string, isolationLevel = 0) => (await fetchPartition(client, topic, 0, 0, isolationLevel)).map((m) => m.value);

/** A topic on all three brokers and an idempotent producer for it. */
async function producerFor(topic: string, config: ProducerConfig = {}, clientConfig: { requestTimeout?: number } = {}) {
  const client = clientConfig.requestTimeout === undefined ? kafkajs(kafka.bootstrap) : kafkajsWith(clientConfig.requestTimeout);
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1, ...config });
  producers.push(producer);
  await producer.connect();
  return { client, producer };
}

/** kafkajs as test/support makes it, with a request timeout of its own. */
function kafkajsWith(requestTimeout: number): Kafka {
  return new Kafka({ clientId: 'kafkaesque-test', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, requestTimeout, retry: { retries: 5, initialRetryTime: 50 } });
}

test('lost-ack: the idempotent producer retries and each record is in the log once', async () => {
  const { client, producer } = await producerFor('story-lost-ack');
  const [rule] = applyPreset(kafka.chaos, resolvePreset('lost-ack'));
  const acks = await producer.send({ topic: 'story-lost-ack', acks: -1, messages: messages(3, 'v') });
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
  expect(acks[0]).toMatchObject({ baseOffset: '0' });
  expect(await values(client, 'story-lost-ack')).toEqual(['v0', 'v1', 'v2']);
});

test('out-of-order-sequence: the refused batch fails alone, the log keeps order without gaps, and a resend lands once', async () => {
  const topic = 'story-oos';
  const { client, producer } = await producerFor(topic);
  const [rule] = applyPreset(kafka.chaos, resolvePreset('out-of-order-sequence'));
  const batches = [0, 1, 2, 3, 4].map((b) => messages(2, `b${b}-`));
  const results = await Promise.allSettled(batches.map((m) => producer.send({ topic, acks: -1, messages: m })));
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
  expect(failed).toHaveLength(1);
  await producer.send({ topic, acks: -1, messages: batches[failed[0]!]! });
  const log = await values(client, topic);
  expect(log).toHaveLength(10);
  expect([...log].sort()).toEqual(batches.flat().map((m) => m.value).sort());
  for (const b of batches) expect(log.indexOf(b[1]!.value as string)).toBe(log.indexOf(b[0]!.value as string) + 1);
});

test('zombie-producer: the fenced commit fails, and read_committed consumers never see its records', async () => {
  const topic = 'story-zombie';
  const { client, producer } = await producerFor(topic, { transactionalId: 'story-zombie-tx' });
  const [rule] = applyPreset(kafka.chaos, resolvePreset('zombie-producer'));
  const txn = await producer.transaction();
  await txn.send({ topic, acks: -1, messages: messages(2, 'z') });
  await expect(txn.commit()).rejects.toThrow();
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
  expect(await values(client, topic, 1)).toEqual([]);
});

test('transaction-timeout: the coordinator aborts the held transaction, the commit is fenced, read_committed sees nothing', async () => {
  const topic = 'story-txn-timeout';
  const transactionalId = 'story-txn-timeout-tx';
  const { client, producer } = await producerFor(topic, { transactionalId }); // kafkajs' default transactionTimeout: 60000
  const [rule] = applyPreset(kafka.chaos, resolvePreset('transaction-timeout'));
  const txn = await producer.transaction();
  await txn.send({ topic, acks: -1, messages: messages(3, 't') });
  const commit = txn.commit();
  commit.catch(() => {});
  await kafka.chaos.waitForFired(rule!.id, 1, 5000); // the EndTxn is held
  expect(kafka.cluster.transactions.get(transactionalId)).toMatchObject({ state: 'Ongoing', producerEpoch: 0 });
  clock.skip(75_000); // the transaction timeout (60 s) passes, then the hold (75 s) ends
  await expect(commit).rejects.toThrow(/fenced|epoch/i);
  // Aborted at the timeout: the epoch bumped, an ABORT marker after the records.
  expect(kafka.cluster.transactions.get(transactionalId)).toMatchObject({ state: 'CompleteAbort', producerEpoch: 1 });
  const page = await new ControlClient(kafka.controlUrl).records(topic, 0);
  expect(page.records.map((r) => r.control ?? r.value)).toEqual(['t0', 't1', 't2', 'ABORT']);
  // A read_committed consumer skips the aborted records and reads what follows them.
  const after = client.producer();
  await after.connect();
  await after.send({ topic, acks: -1, messages: [{ value: 'after' }] });
  await after.disconnect();
  const seen: string[] = [];
  const consumer = client.consumer({ groupId: 'story-txn-timeout-group', readUncommitted: false, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await until('the record after the aborted transaction', () => seen.includes('after'), 15_000);
  } finally {
    await bounded(consumer.disconnect());
  }
  expect(seen).toEqual(['after']);
});

test('slow-broker: the held answers time the requests out, the resend is deduplicated, nothing is duplicated', async () => {
  const topic = 'story-slow';
  // A 0.3 s request timeout stands in for the clients' 30 s, which the preset's 35 s hold is past.
  const { client, producer } = await producerFor(topic, {}, { requestTimeout: 300 });
  const [rule] = applyPreset(kafka.chaos, resolvePreset('slow-broker'));
  const s0 = { topic, acks: -1, messages: [{ value: 's0' }] };
  // kafkajs does not retry a timed-out Produce itself: the send fails and the application sends again.
  await expect(producer.send(s0)).rejects.toThrow(/timed out/);
  await expect(producer.send(s0)).rejects.toThrow(/timed out/);
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 2 });
  const third = producer.send(s0);
  clock.skip(35_000); // the held answers go out late, ahead of the third one's
  await third;
  for (const value of ['s1', 's2']) await producer.send({ topic, acks: -1, messages: [{ value }] });
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 2 });
  // Each of the three sends of s0 reached the broker, which appended it once.
  expect(await values(client, topic)).toEqual(['s0', 's1', 's2']);
});

test('flaky-network: connections close at random, and the idempotent producer loses and duplicates nothing', async () => {
  const topic = 'story-flaky';
  const { client, producer } = await producerFor(topic);
  const [rule] = applyPreset(kafka.chaos, resolvePreset('flaky-network'));
  const sent: string[] = [];
  for (let i = 0; sent.length < 200 && kafka.chaos.rule(rule!.id)!.fired < 3; i++) {
    await producer.send({ topic, acks: -1, messages: [{ value: `f${i}` }] });
    sent.push(`f${i}`);
  }
  expect(kafka.chaos.rule(rule!.id)!.fired).toBeGreaterThanOrEqual(3);
  expect(await values(client, topic)).toEqual(sent);
});

test('leader-flapping: NOT_LEADER_OR_FOLLOWER at random, and producer and consumer lose, duplicate and reorder nothing', async () => {
  const topic = 'story-flapping';
  const { client, producer } = await producerFor(topic);
  const [rule] = applyPreset(kafka.chaos, resolvePreset('leader-flapping'));
  const sent = Array.from({ length: 30 }, (_, i) => `l${i}`);
  for (const value of sent) await producer.send({ topic, acks: -1, messages: [{ value }] });
  const afterProduce = kafka.chaos.rule(rule!.id)!.fired;
  expect(afterProduce).toBeGreaterThanOrEqual(1);
  const seen: string[] = [];
  const consumer = client.consumer({ groupId: 'story-flapping-group', maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await until('every record consumed', () => seen.length >= sent.length, 20_000);
  } finally {
    await bounded(consumer.disconnect());
  }
  expect(seen).toEqual(sent);
  kafka.chaos.clearRules();
  expect(await values(client, topic)).toEqual(sent);
});

test('broker-outage: the leader stops mid-stream, nothing acknowledged with acks=all is lost, and it comes back after 5 s', async () => {
  const topic = 'story-outage';
  const { client, producer } = await producerFor(topic);
  await kafka.cluster.electLeader(topic, 0, { nodeId: 0 });
  const [lag, stop, start] = applyPreset(kafka.chaos, resolvePreset({ name: 'broker-outage', params: { topic } }));
  expect(lag!.action).toEqual({ type: 'replication-lag', ms: 500 });
  const sent = Array.from({ length: 6 }, (_, i) => `o${i}`);
  for (const value of sent) await producer.send({ topic, acks: -1, messages: [{ value }] });
  expect(kafka.chaos.rule(stop!.id)).toMatchObject({ fired: 1 });
  expect(kafka.cluster.isAlive(0)).toBe(false);
  expect(kafka.cluster.partition(topic, 0)!.leader).not.toBe(0);
  expect(await values(client, topic)).toEqual(sent);

  clock.skip(5_000);
  await producer.send({ topic, acks: -1, messages: [{ value: 'back' }] }); // the first request after 5 s starts node 0
  kafka.cluster.setReplicationLag(0);
  expect(kafka.chaos.rule(start!.id)).toMatchObject({ fired: 1 });
  expect(kafka.cluster.isAlive(0)).toBe(true);
  await kafka.cluster.electLeader(topic, 0, { nodeId: 0 });
  await producer.send({ topic, acks: -1, messages: [{ value: 'on-0' }] });
  expect(await values(client, topic)).toEqual([...sent, 'back', 'on-0']);
});

test('broker-outage: records acknowledged with acks=1 just before the leader stops are lost', async () => {
  const topic = 'story-outage-acks1';
  const { client, producer } = await producerFor(topic, { idempotent: false, maxInFlightRequests: 1 });
  const leader = kafka.cluster.partition(topic, 0)!.leader;
  const [, stop, start] = applyPreset(kafka.chaos, resolvePreset(`broker-outage?topic=${topic}`));
  try {
    await producer.send({ topic, acks: 1, messages: [{ value: 'a0' }] });
    await producer.send({ topic, acks: 1, messages: [{ value: 'a1' }] });
    await producer.send({ topic, acks: 1, messages: [{ value: 'a2' }] }); // stops the leader; the retry goes to the new one
    expect(kafka.chaos.rule(stop!.id)).toMatchObject({ fired: 1 });
    expect(kafka.cluster.isAlive(leader)).toBe(false);
    // a0 and a1 were acknowledged by the leader alone, within the 500 ms lag: the new leader never had them.
    expect(kafka.chaos.events().find((e) => e.kind === 'leader-changed' && e.topic === topic)).toMatchObject({ detail: { truncatedFrom: 0 } });
    const log = await values(client, topic); // a2, once the new leader's followers have it
    expect(log).not.toContain('a0');
    expect(log).not.toContain('a1');
  } finally {
    clock.skip(5_000);
    await producer.send({ topic, acks: 1, messages: [{ value: 'back' }] });
    expect(kafka.chaos.rule(start!.id)).toMatchObject({ fired: 1 });
    kafka.cluster.setReplicationLag(0);
  }
});

test('leader-flapping: leadership moves under an acks=1 producer, and what the old leader alone acknowledged is lost', async () => {
  const topic = 'story-flapping-acks1';
  const { client, producer } = await producerFor(topic, { idempotent: false, maxInFlightRequests: 1 });
  const [, move] = applyPreset(kafka.chaos, resolvePreset({ name: 'leader-flapping', params: { topic } }));
  try {
    const sent = Array.from({ length: 6 }, (_, i) => `k${i}`);
    for (const value of sent) await producer.send({ topic, acks: 1, messages: [{ value }] });
    expect(kafka.chaos.rule(move!.id)).toMatchObject({ fired: 2 });
    // Read through the side door: the preset's random NOT_LEADER_OR_FOLLOWER answers Fetch too.
    const log = await values(kafka.directBootstrap ? kafkajs(kafka.directBootstrap) : client, topic);
    expect(log.length).toBeLessThan(sent.length);
    for (const v of log) expect(sent).toContain(v);
  } finally {
    kafka.cluster.setReplicationLag(0);
  }
});

test('out-of-order-sequence: a producer without idempotence is never answered OUT_OF_ORDER_SEQUENCE_NUMBER', async () => {
  const topic = 'story-oos-plain';
  const { client, producer } = await producerFor(topic, { idempotent: false });
  const [rule] = applyPreset(kafka.chaos, resolvePreset('out-of-order-sequence'));
  for (let i = 0; i < 5; i++) await producer.send({ topic, acks: -1, messages: [{ value: `p${i}` }] });
  expect(kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 0, matched: 0 });
  expect(await values(client, topic)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
});

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('auth-rejected: kafkajs fails connect() without retrying; connecting again goes through', async () => {
  // A cluster of its own: this story needs SASL on every connection.
  const secured = await startCluster({ brokers: 1, sasl: { users: { alice: 'alice-secret' } }, topics: [{ name: 'story-auth', partitions: 1 }] });
  try {
    applyPreset(secured.chaos, resolvePreset('auth-rejected'));
    const client = new Kafka({
      brokers: secured.bootstrap.split(','),
      sasl: { mechanism: 'scram-sha-256', username: 'alice', password: 'alice-secret' },
      logLevel: logLevel.NOTHING,
      retry: { retries: 5, initialRetryTime: 50 },
    });
    const producer = client.producer();
    await expect(producer.connect()).rejects.toMatchObject({ name: 'KafkaJSSASLAuthenticationError' });
    expect(secured.chaos.events().filter((e) => e.kind === 'fault').map((e) => [e.api, e.action])).toEqual([['SaslAuthenticate', 'error']]);
    await producer.connect();
    await producer.send({ topic: 'story-auth', acks: -1, messages: [{ value: 'after the retry' }] });
    await producer.disconnect();
    expect(await values(client, 'story-auth')).toEqual(['after the retry']);
  } finally {
    await secured.stop();
  }
}, 30_000);

test('metadata-lag: createTopics with waitForLeaders fails on UNKNOWN_TOPIC_OR_PARTITION, a retrying producer lands its record', async () => {
  applyPreset(kafka.chaos, resolvePreset('metadata-lag'));
  const client = new Kafka({ clientId: 'story-lag', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 300 } });
  const admin = client.admin();
  const producer = client.producer();
  producers.push(producer);
  try {
    await admin.connect();
    await expect(admin.createTopics({ topics: [{ topic: 'story-lag', numPartitions: 1, replicationFactor: 3 }] })).rejects.toMatchObject({ type: 'UNKNOWN_TOPIC_OR_PARTITION' });
    await producer.connect();
    await producer.send({ topic: 'story-lag', messages: [{ value: 'v' }] });
    expect(await values(client, 'story-lag')).toEqual(['v']);
  } finally {
    kafka.cluster.resetReplication();
    await bounded(admin.disconnect());
  }
});
