// kafkajs over real sockets against a 3-broker cluster: admin, produce with
// every acks setting, and reading everything back in order.
import { CompressionTypes } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
});
afterAll(() => kafka.stop());

test('admin creates, lists, describes and deletes topics', async () => {
  const admin = kafkajs(kafka.bootstrap).admin();
  await admin.connect();
  try {
    expect(await admin.createTopics({ topics: [{ topic: 'adm-a', numPartitions: 4, replicationFactor: 3 }, { topic: 'adm-b' }] })).toBe(true);
    expect(await admin.createTopics({ topics: [{ topic: 'adm-a' }] })).toBe(false);
    expect((await admin.listTopics()).sort()).toEqual(expect.arrayContaining(['adm-a', 'adm-b']));
    const meta = await admin.fetchTopicMetadata({ topics: ['adm-a'] });
    const parts = meta.topics[0]!.partitions;
    expect(parts).toHaveLength(4);
    expect(new Set(parts.map((p) => p.leader))).toEqual(new Set([0, 1, 2]));
    for (const p of parts) expect(p.isr.sort()).toEqual([0, 1, 2]);
    const cluster = await admin.describeCluster();
    expect(cluster.brokers.map((b) => b.nodeId).sort()).toEqual([0, 1, 2]);
    expect(cluster.clusterId).toBe('kafkaesque-cluster');
    await admin.createPartitions({ topicPartitions: [{ topic: 'adm-b', count: 3 }] });
    expect((await admin.fetchTopicMetadata({ topics: ['adm-b'] })).topics[0]!.partitions).toHaveLength(3);
    await admin.deleteTopics({ topics: ['adm-a', 'adm-b'] });
    expect(await admin.listTopics()).not.toContain('adm-a');
  } finally {
    await admin.disconnect();
  }
});

test('admin describes and alters topic configs', async () => {
  const admin = kafkajs(kafka.bootstrap).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic: 'cfg', configEntries: [{ name: 'retention.ms', value: '1000' }] }] });
    const describe = async () =>
      (await admin.describeConfigs({ resources: [{ type: 2, name: 'cfg' }], includeSynonyms: false })).resources[0]!.configEntries;
    expect((await describe()).find((c) => c.configName === 'retention.ms')).toMatchObject({ configValue: '1000', isDefault: false });
    await admin.alterConfigs({ validateOnly: false, resources: [{ type: 2, name: 'cfg', configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }] });
    const after = await describe();
    expect(after.find((c) => c.configName === 'cleanup.policy')).toMatchObject({ configValue: 'compact' });
    // AlterConfigs replaces the whole set: the retention override is gone.
    expect(after.find((c) => c.configName === 'retention.ms')).toMatchObject({ configValue: '604800000', isDefault: true });
    await expect(admin.alterConfigs({ validateOnly: false, resources: [{ type: 2, name: 'cfg', configEntries: [{ name: 'no.such', value: '1' }] }] })).rejects.toThrow();
  } finally {
    await admin.disconnect();
  }
});

test.each([
  ['acks=all', -1],
  ['acks=1', 1],
  ['acks=0', 0],
])('producer with %s: everything comes back in order with the right offsets', async (_label, acks) => {
  const topic = `produce-acks${acks}`;
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 3 }] });
  const producer = client.producer();
  await producer.connect();
  for (let batch = 0; batch < 5; batch++) {
    await producer.send({ topic, acks, messages: messages(20, `b${batch}-`).map((m) => ({ ...m, partition: batch % 2 })) });
  }
  await producer.disconnect();
  if (acks === 0) {
    // Nothing acknowledges acks=0 writes: wait until the broker holds them.
    const p = (i: number) => kafka.cluster.partition(topic, i)!;
    for (let i = 0; i < 100 && p(0).highWatermark + p(1).highWatermark < 100; i++) await new Promise((r) => setTimeout(r, 20));
  }
  const p0 = await fetchPartition(client, topic, 0);
  const p1 = await fetchPartition(client, topic, 1);
  expect(p0.map((m) => Number(m.offset))).toEqual(Array.from({ length: 60 }, (_, i) => i));
  expect(p1.map((m) => Number(m.offset))).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect(p0.slice(0, 3).map((m) => m.value)).toEqual(['b0-0', 'b0-1', 'b0-2']);
  expect(p1[20]).toMatchObject({ key: 'k0', value: 'b3-0' });
  expect(p0[21]!.headers.seq!.toString()).toBe('1');
  const offsets = await admin.fetchTopicOffsets(topic);
  expect(offsets.sort((a, b) => a.partition - b.partition).map((o) => [o.low, o.high])).toEqual([['0', '60'], ['0', '40']]);
  await admin.disconnect();
});

test('gzip batches are stored and served as the producer sent them', async () => {
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'gz', compression: CompressionTypes.GZIP, messages: messages(50, 'gz') });
  await producer.disconnect();
  const got = await fetchPartition(client, 'gz', 0);
  expect(got.map((m) => m.value)).toEqual(Array.from({ length: 50 }, (_, i) => `gz${i}`));
});

test('offsets by timestamp, earliest and latest', async () => {
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'ts' }] });
  const producer = client.producer();
  await producer.connect();
  const base = Date.now() - 100_000;
  await producer.send({ topic: 'ts', messages: [0, 1, 2, 3].map((i) => ({ value: `t${i}`, timestamp: String(base + i * 1000) })) });
  await producer.disconnect();
  expect(await admin.fetchTopicOffsetsByTimestamp('ts', base + 1500)).toEqual([{ partition: 0, offset: '2' }]);
  expect(await admin.fetchTopicOffsetsByTimestamp('ts', base + 99_999)).toEqual([{ partition: 0, offset: '4' }]);
  await admin.deleteTopicRecords({ topic: 'ts', partitions: [{ partition: 0, offset: '1' }] });
  expect(await admin.fetchTopicOffsets('ts')).toEqual([{ partition: 0, offset: '4', high: '4', low: '1' }]);
  await admin.disconnect();
});

test('a producer follows a leader that moved, and nothing acknowledged is lost', async () => {
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'moving', numPartitions: 1, replicationFactor: 3 }] });
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'moving', acks: -1, messages: messages(10, 'before') });
  const moved = kafka.cluster.electLeader('moving', 0);
  expect(moved.ok).toBe(true);
  await producer.send({ topic: 'moving', acks: -1, messages: messages(10, 'after') });
  await producer.disconnect();
  const got = await fetchPartition(client, 'moving', 0);
  expect(got).toHaveLength(20);
  expect(kafka.cluster.partition('moving', 0)!.leaderEpoch).toBe(1);
  await admin.disconnect();
});

test('a stopped broker refuses connections, its partitions move, and it comes back on the same port', async () => {
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'outage', numPartitions: 3, replicationFactor: 3 }] });
  const { WireClient } = await import('../support/wire-client.js');
  await kafka.stopNode(1);
  await expect(WireClient.connect(kafka.brokers.get(1)!)).rejects.toThrow(/ECONNREFUSED/);
  const meta = await admin.fetchTopicMetadata({ topics: ['outage'] });
  expect(meta.topics[0]!.partitions.map((p) => p.leader)).not.toContain(1);
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'outage', acks: -1, messages: messages(30) });
  await kafka.startNode(1);
  const c = await WireClient.connect(kafka.brokers.get(1)!);
  expect((await c.request(3, 1, { topics: null })).brokers).toHaveLength(3);
  c.close();
  expect((await fetchPartition(client, 'outage', 0)).length + (await fetchPartition(client, 'outage', 1)).length + (await fetchPartition(client, 'outage', 2)).length).toBe(30);
  await producer.disconnect();
  await admin.disconnect();
});
