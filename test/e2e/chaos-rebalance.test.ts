// rebalance with kafkajs through the proxy: a member evicted as an expired
// session would rejoins under a new member id and reads on; a whole-group
// rebalance bumps the generation and the member goes on where it was.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 6, groupInitialRebalanceDelayMs: 0 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
  client = kafkajs(kafka.bootstrap, 'rebalance-test');
});
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(started.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

async function setup(topic: string, count: number) {
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
  await admin.disconnect();
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, messages: messages(count) });
  await producer.disconnect();
}

/** A consumer reading `topic` from the beginning; `seen` grows with every value it processes. */
async function consume(groupId: string, topic: string, seen: string[]): Promise<Consumer> {
  const c = client.consumer({ groupId, sessionTimeout: 2000, rebalanceTimeout: 4000, heartbeatInterval: 100, maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
  started.push(c);
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
  return c;
}

async function until(what: string, ok: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('rebalance with memberId: the evicted member rejoins under a new id and reads on', async () => {
  const topic = 'evicted';
  const groupId = 'evict-group';
  await setup(topic, 3);
  const seen: string[] = [];
  await consume(groupId, topic, seen);
  await until('3 messages committed', () => seen.length === 3 && kafka.cluster.groups.committedOffset(groupId, topic, 0) === 3);
  const before = kafka.cluster.groups.describe(groupId)!;
  expect(before.members.map((m) => m.memberId)).toEqual([expect.stringMatching(/^rebalance-test-/)]);

  const rule = kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rebalance', groupId, memberId: 'rebalance-test' } });
  await kafka.chaos.waitForFired(rule.id);
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId, memberId: before.members[0]!.memberId, result: 'evicted' });
  await until('the member back under a new id', () => {
    const d = kafka.cluster.groups.describe(groupId)!;
    return d.state === 'Stable' && d.members.length === 1 && d.members[0]!.memberId !== before.members[0]!.memberId;
  });
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value: 'after' }] });
  await producer.disconnect();
  await until('the message sent after the eviction', () => seen.includes('after'));
  // Everything was committed before the eviction: nothing is read twice.
  expect(seen).toEqual(['m0', 'm1', 'm2', 'after']);
});

test('rebalance of the whole group: the generation moves on, nothing is read twice', async () => {
  const topic = 'regrouped';
  const groupId = 'regroup-group';
  await setup(topic, 3);
  const seen: string[] = [];
  await consume(groupId, topic, seen);
  await until('3 messages committed', () => seen.length === 3 && kafka.cluster.groups.committedOffset(groupId, topic, 0) === 3);
  const before = kafka.cluster.groups.describe(groupId)!;
  const rule = kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rebalance', groupId } });
  await kafka.chaos.waitForFired(rule.id);
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId, result: 'rebalancing' });
  await until('the group stable again', () => {
    const d = kafka.cluster.groups.describe(groupId)!;
    return d.state === 'Stable' && d.generationId > before.generationId;
  });
  expect(kafka.cluster.groups.describe(groupId)!.members.map((m) => m.memberId)).toEqual(before.members.map((m) => m.memberId));
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value: 'after' }] });
  await producer.disconnect();
  await until('the message sent after the rebalance', () => seen.includes('after'));
  expect(seen).toEqual(['m0', 'm1', 'm2', 'after']);
});
