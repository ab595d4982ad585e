// Redelivery as a real consumer meets it: a kafkajs consumer group has read
// and committed N messages; a rewind rule moves its committed offset back and
// makes the group rebalance, and the consumer reads the last ones again.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
const started: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 5, groupInitialRebalanceDelayMs: 0 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
  client = kafkajs(kafka.bootstrap, 'rewind-test');
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

test('rewind by 4: the group rebalances and its consumer reads the last 4 messages again', async () => {
  const topic = 'rewound';
  const groupId = 'rewind-group';
  await setup(topic, 10);
  const seen: string[] = [];
  await consume(groupId, topic, seen);
  await until('10 messages committed', () => seen.length === 10 && kafka.cluster.groups.committedOffset(groupId, topic, 0) === 10);
  const generation = kafka.cluster.groups.describe(groupId)!.generationId;

  const rule = kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rewind', groupId, by: 4 } });
  await kafka.chaos.waitForFired(rule.id);
  await until('the rewound messages', () => seen.length >= 14);
  expect(seen).toEqual([...messages(10).map((m) => m.value), 'm6', 'm7', 'm8', 'm9']);
  expect(kafka.cluster.groups.describe(groupId)!.generationId).toBeGreaterThan(generation);
  await until('the commit catching up again', () => kafka.cluster.groups.committedOffset(groupId, topic, 0) === 10);
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({
    action: 'rewind',
    api: 'Heartbeat',
    detail: { groupId, offsets: [{ topic, partition: 0, from: 10, to: 6 }], rebalance: 'rebalancing' },
  });
});
