// Broker down (DESIGN.md): stop-node takes a broker down from inside the
// traffic; its proxied connections reset, new ones are refused, its
// leaderships move, and kafkajs fails over. start-node brings it back.
import { connect } from 'node:net';
import { startCluster, type RunningCluster } from '../../src/index.js';
import type { ChaosEvent } from '../../src/chaos/api.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 6 });
});
afterAll(() => kafka.stop());

const refuses = (address: string) =>
  new Promise<boolean>((resolve) => {
    const [host, port] = address.split(':');
    const s = connect({ host, port: Number(port) }, () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

test('stop-node on the leader mid-stream: kafkajs fails over, nothing lost or doubled; start-node brings it back', async () => {
  const topic = 'node-down';
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 3 }] });
  const p = kafka.cluster.partition(topic, 0)!;
  const leader = p.leader;
  kafka.chaos.addRule({ id: 'down', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 3 }, action: { type: 'stop-node' } });
  const producer = client.producer();
  await producer.connect();
  try {
    for (let i = 0; i < 6; i++) await producer.send({ topic, acks: -1, messages: messages(2, `n${i}-`) });
  } finally {
    await producer.disconnect();
  }
  expect(kafka.chaos.rule('down')!.fired).toBe(1);
  expect(kafka.cluster.isAlive(leader)).toBe(false);
  expect(p.leader).not.toBe(leader);
  expect(await refuses(kafka.brokers.get(leader)!)).toBe(true);
  const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
  expect(values).toEqual(Array.from({ length: 6 }, (_, i) => [`n${i}-0`, `n${i}-1`]).flat());
  const kinds = kafka.chaos.events().map((e) => [e.kind, e.kind === 'fault' ? e.action : e.nodeId]);
  expect(kinds).toEqual(expect.arrayContaining([['fault', 'stop-node'], ['node-stopped', leader]]));

  // start-node on any later request (here: a Metadata request) brings the node back.
  const started = new Promise<ChaosEvent>((resolve) => {
    const off = kafka.chaos.onEvent((e) => e.kind === 'node-started' && (off(), resolve(e)));
  });
  kafka.chaos.addRule({ id: 'up', match: { api: 'Metadata' }, trigger: { type: 'first', n: 1 }, action: { type: 'start-node', nodeId: leader } });
  await admin.fetchTopicMetadata({ topics: [topic] });
  expect((await started).nodeId).toBe(leader);
  await kafka.startNode(leader); // already started: resolves once its listeners accept again
  expect(await refuses(kafka.brokers.get(leader)!)).toBe(false);
  const described = await admin.describeCluster();
  expect(described.brokers.map((b) => b.nodeId).sort()).toEqual([0, 1, 2]);
  await admin.disconnect();
  kafka.chaos.clearRules();
});
