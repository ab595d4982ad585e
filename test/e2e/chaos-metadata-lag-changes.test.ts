// metadata-lag beyond creation, over raw wire requests through the proxy, on
// the cluster's manual clock: a lagging node answers from the metadata image
// it last applied, as a KRaft broker that has not replayed the controller's
// records does. New partitions (CreatePartitions) stay unknown, a deleted
// topic is still answered, a moved leader is answered as the old one; the
// other topic-reading APIs see the same; and a lag can last N lagged
// answers rather than a time.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ManualClock } from '../../src/broker/clock.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { WireClient } from '../support/wire-client.js';

const RESOURCE_TOPIC = 2;
let kafka: RunningCluster;
const clock = new ManualClock(Date.UTC(2026, 0, 1));
/** One connection per node, through the proxy. */
const nodes = new Map<number, WireClient>();

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 7, clock, logLevel: 'silent' });
  const first = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  const md = await first.request(ApiKey.Metadata, 12, { topics: [], allowAutoTopicCreation: false });
  first.close();
  for (const b of md.brokers) nodes.set(b.nodeId, await WireClient.connect(`${b.host}:${b.port}`));
  expect([...nodes.keys()].sort()).toEqual([0, 1, 2]);
});
afterEach(() => {
  kafka.chaos.clearRules();
  kafka.cluster.resetReplication();
});
afterAll(async () => {
  for (const c of nodes.values()) c.close();
  await kafka.stop();
});

const on = (nodeId: number) => nodes.get(nodeId)!;
const lagRule = (api: string, action: Record<string, unknown>, trigger?: object) => kafka.chaos.addRule({ match: { api }, ...(trigger ? { trigger } : {}), action: { type: 'metadata-lag', ...action } } as never);

async function createTopic(name: string, assignments: number[][], via = 0) {
  const res = await on(via).request(ApiKey.CreateTopics, 7, {
    topics: [{ name, numPartitions: -1, replicationFactor: -1, assignments: assignments.map((brokerIds, partitionIndex) => ({ partitionIndex, brokerIds })), configs: [{ name: 'retention.ms', value: '12345' }] }],
    timeoutMs: 1000,
  });
  expect(res.topics[0].errorCode).toBe(0);
}
async function metadata(nodeId: number, topics: string[] | null) {
  const res = await on(nodeId).request(ApiKey.Metadata, 12, { topics: topics && topics.map((name) => ({ name })), allowAutoTopicCreation: false });
  return res.topics as { name: string; errorCode: number; topicId: string; partitions: { partitionIndex: number; leaderId: number; leaderEpoch: number }[] }[];
}
async function produce(nodeId: number, topic: string, partition: number) {
  const records = buildRecordBatch([{ value: Buffer.from('v') }], { timestamp: clock.now() });
  const res = await on(nodeId).request(ApiKey.Produce, 10, { transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }] });
  return { ...res.responses[0].partitionResponses[0], nodeEndpoints: res.nodeEndpoints.map((n: { nodeId: number }) => n.nodeId) };
}
async function fetchByName(nodeId: number, topic: string, partition: number) {
  const res = await on(nodeId).request(ApiKey.Fetch, 12, { replicaId: -1, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, topics: [{ topic, partitions: [{ partition, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 }] }] });
  return res.responses[0].partitions[0];
}
async function fetchById(nodeId: number, topicId: string, partition: number) {
  const res = await on(nodeId).request(ApiKey.Fetch, 16, { replicaId: -1, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, topics: [{ topicId, partitions: [{ partition, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 }] }] });
  return { ...res.responses[0].partitions[0], nodeEndpoints: res.nodeEndpoints.map((n: { nodeId: number }) => n.nodeId) };
}
async function describeTopicPartitions(nodeId: number, name: string) {
  const res = await on(nodeId).request(ApiKey.DescribeTopicPartitions, 0, { topics: [{ name }], responsePartitionLimit: 100, cursor: null });
  return res.topics[0] as { errorCode: number; topicId: string; partitions: { leaderId: number }[] } | undefined;
}
/** ListOffsets, OffsetForLeaderEpoch, DeleteRecords and DescribeConfigs of one topic-partition, their error codes. */
async function otherApis(nodeId: number, topic: string, partition: number) {
  const c = on(nodeId);
  const lo = await c.request(ApiKey.ListOffsets, 7, { replicaId: -1, isolationLevel: 0, topics: [{ name: topic, partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1 }] }] });
  const ofle = await c.request(ApiKey.OffsetForLeaderEpoch, 4, { replicaId: -1, topics: [{ topic, partitions: [{ partition, currentLeaderEpoch: -1, leaderEpoch: 0 }] }] });
  const dr = await c.request(ApiKey.DeleteRecords, 2, { topics: [{ name: topic, partitions: [{ partitionIndex: partition, offset: 0 }] }], timeoutMs: 1000 });
  const dc = await c.request(ApiKey.DescribeConfigs, 4, { resources: [{ resourceType: RESOURCE_TOPIC, resourceName: topic, configurationKeys: ['retention.ms'] }], includeSynonyms: false, includeDocumentation: false });
  return {
    listOffsets: lo.topics[0].partitions[0].errorCode,
    offsetForLeaderEpoch: ofle.topics[0].partitions[0].errorCode,
    deleteRecords: dr.topics[0].partitions[0].errorCode,
    describeConfigs: dc.results[0].errorCode,
    retentionMs: dc.results[0].configs[0]?.value,
  };
}

test('after CreatePartitions the lagging node lists the old partition count and answers the new partitions as unknown until it catches up', async () => {
  await createTopic('grow', [[1, 0, 2]]);
  lagRule('CreatePartitions', { ms: 1000, nodeId: 1 });
  const res = await on(0).request(ApiKey.CreatePartitions, 3, { topics: [{ name: 'grow', count: 3, assignments: [{ brokerIds: [1, 0, 2] }, { brokerIds: [1, 2, 0] }] }], timeoutMs: 1000, validateOnly: false });
  expect(res.results[0].errorCode).toBe(0);

  expect((await metadata(0, ['grow']))[0]!.partitions).toHaveLength(3);
  expect((await metadata(1, ['grow']))[0]!.partitions.map((p) => p.partitionIndex)).toEqual([0]);
  expect((await describeTopicPartitions(1, 'grow'))!.partitions).toHaveLength(1);
  expect((await describeTopicPartitions(0, 'grow'))!.partitions).toHaveLength(3);
  // Node 1 leads partition 2 but has not seen it: no hosted partition, none in its cache.
  expect(await produce(1, 'grow', 2)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect(await fetchByName(1, 'grow', 2)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect(await otherApis(1, 'grow', 2)).toMatchObject({ listOffsets: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, offsetForLeaderEpoch: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, deleteRecords: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, describeConfigs: 0 });
  // The partition it knew is served as before.
  expect(await produce(1, 'grow', 0)).toMatchObject({ errorCode: 0 });

  clock.advance(999);
  expect((await metadata(1, ['grow']))[0]!.partitions).toHaveLength(1);
  clock.advance(1);
  expect((await metadata(1, ['grow']))[0]!.partitions).toHaveLength(3);
  expect(await produce(1, 'grow', 2)).toMatchObject({ errorCode: 0, baseOffset: 0 });
  expect(await fetchByName(1, 'grow', 2)).toMatchObject({ errorCode: 0, highWatermark: 1 });
});

test('after DeleteTopics the lagging node still answers the topic; Produce, Fetch and the partition APIs get NOT_LEADER_OR_FOLLOWER, DescribeConfigs its configs', async () => {
  await createTopic('gone', [[1, 0, 2]]);
  const [before] = await metadata(1, ['gone']);
  lagRule('DeleteTopics', { ms: 1000, nodeId: 1 });
  const res = await on(0).request(ApiKey.DeleteTopics, 6, { topics: [{ name: 'gone', topicId: '00000000-0000-0000-0000-000000000000' }], timeoutMs: 1000 });
  expect(res.responses[0].errorCode).toBe(0);
  expect(kafka.cluster.topic('gone')).toBeUndefined();

  expect((await metadata(0, ['gone']))[0]).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect((await metadata(1, ['gone']))[0]).toMatchObject({ errorCode: 0, topicId: before!.topicId, partitions: [{ partitionIndex: 0, leaderId: 1, leaderEpoch: before!.partitions[0]!.leaderEpoch }] });
  expect((await metadata(1, null)).map((t) => t.name)).toContain('gone');
  expect((await metadata(0, null)).map((t) => t.name)).not.toContain('gone');
  expect(await describeTopicPartitions(1, 'gone')).toMatchObject({ errorCode: 0, topicId: before!.topicId, partitions: [{ leaderId: 1 }] });
  expect(await describeTopicPartitions(0, 'gone')).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });

  // In node 1's cache, not hosted (ReplicaManager.getPartitionOrError): the leader it knows in the KIP-951 fields.
  expect(await produce(1, 'gone', 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 1, leaderEpoch: before!.partitions[0]!.leaderEpoch }, nodeEndpoints: [1] });
  expect(await produce(0, 'gone', 0)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect(await fetchByName(1, 'gone', 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER });
  expect(await fetchById(1, before!.topicId, 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 1 } });
  expect(await fetchById(0, before!.topicId, 0)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_ID });
  expect(await otherApis(1, 'gone', 0)).toEqual({ listOffsets: ErrorCode.NOT_LEADER_OR_FOLLOWER, offsetForLeaderEpoch: ErrorCode.NOT_LEADER_OR_FOLLOWER, deleteRecords: ErrorCode.NOT_LEADER_OR_FOLLOWER, describeConfigs: 0, retentionMs: '12345' });
  expect(await otherApis(0, 'gone', 0)).toMatchObject({ listOffsets: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, offsetForLeaderEpoch: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, deleteRecords: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, describeConfigs: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });

  clock.advance(1000);
  expect((await metadata(1, ['gone']))[0]).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect(await produce(1, 'gone', 0)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
});

test('after a leader move the lagging node answers the old leader and epoch; Produce and Fetch there get NOT_LEADER_OR_FOLLOWER naming it', async () => {
  await createTopic('moved', [[0, 1, 2]]);
  const epoch = (await metadata(0, ['moved']))[0]!.partitions[0]!.leaderEpoch;
  lagRule('ElectLeaders', { ms: 1000, nodeId: 1 });
  // The move-leader action's call, armed by a rule on a request that reaches node 1 first.
  await on(1).request(ApiKey.ElectLeaders, 2, { electionType: 0, topicPartitions: [], timeoutMs: 1000 });
  expect(kafka.cluster.electLeader('moved', 0, { nodeId: 1 }).ok).toBe(true);

  expect((await metadata(0, ['moved']))[0]!.partitions[0]).toMatchObject({ leaderId: 1, leaderEpoch: epoch + 1 });
  expect((await metadata(1, ['moved']))[0]!.partitions[0]).toMatchObject({ leaderId: 0, leaderEpoch: epoch });
  // Node 1 leads now but does not know it yet: it names the leader it knows.
  expect(await produce(1, 'moved', 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 0, leaderEpoch: epoch }, nodeEndpoints: [0] });
  expect(await fetchById(1, (await metadata(0, ['moved']))[0]!.topicId, 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 0, leaderEpoch: epoch } });
  expect(await otherApis(1, 'moved', 0)).toMatchObject({ listOffsets: ErrorCode.NOT_LEADER_OR_FOLLOWER, offsetForLeaderEpoch: ErrorCode.NOT_LEADER_OR_FOLLOWER, deleteRecords: ErrorCode.NOT_LEADER_OR_FOLLOWER, describeConfigs: 0 });
  // The old leader is caught up: it names the new one.
  expect(await produce(0, 'moved', 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 1, leaderEpoch: epoch + 1 } });

  clock.advance(1000);
  expect((await metadata(1, ['moved']))[0]!.partitions[0]).toMatchObject({ leaderId: 1, leaderEpoch: epoch + 1 });
  expect(await produce(1, 'moved', 0)).toMatchObject({ errorCode: 0 });
});

test('after a node stop the lagging node still names the stopped leader, and the lagging old leader refuses what it no longer leads', async () => {
  await createTopic('stopped', [[2, 0, 1]]);
  const epoch = (await metadata(0, ['stopped']))[0]!.partitions[0]!.leaderEpoch;
  kafka.cluster.setMetadataLag([0], { ms: 500 });
  expect(kafka.cluster.stopNode(2).ok).toBe(true);
  try {
    expect(kafka.cluster.partition('stopped', 0)!.leader).toBe(0);
    expect((await metadata(1, ['stopped']))[0]!.partitions[0]).toMatchObject({ leaderId: 0, leaderEpoch: epoch + 1 });
    expect((await metadata(0, ['stopped']))[0]!.partitions[0]).toMatchObject({ leaderId: 2, leaderEpoch: epoch });
    expect(await produce(0, 'stopped', 0)).toMatchObject({ errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, currentLeader: { leaderId: 2, leaderEpoch: epoch } });
    clock.advance(500);
    expect(await produce(0, 'stopped', 0)).toMatchObject({ errorCode: 0 });
  } finally {
    kafka.cluster.startNode(2);
  }
});

test('requests: the next N answers that show the lag do, then the node catches up, whatever the clock', async () => {
  lagRule('CreateTopics', { requests: 2, nodeId: 1 }, { type: 'nth', n: 1 });
  await createTopic('counted', [[1, 0, 2]]);
  // An answer that does not read the lagged topic does not count.
  expect((await metadata(1, ['grow']))[0]).toMatchObject({ errorCode: 0 });
  expect((await metadata(1, ['counted']))[0]).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect(await produce(1, 'counted', 0)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  expect((await metadata(1, ['counted']))[0]).toMatchObject({ errorCode: 0, partitions: [{ leaderId: 1 }] });
  expect(await produce(1, 'counted', 0)).toMatchObject({ errorCode: 0 });
  // Caught up and disarmed: the next topic is seen at once (the rule fired once).
  await createTopic('after-counted', [[1, 0, 2]]);
  expect((await metadata(1, ['after-counted']))[0]).toMatchObject({ errorCode: 0 });
});

test('requests: each firing of the rule arms a new budget', async () => {
  lagRule('CreateTopics', { requests: 1, nodeId: 1 });
  for (const name of ['rearmed-a', 'rearmed-b']) {
    await createTopic(name, [[1, 0, 2]]);
    expect((await metadata(1, [name]))[0]).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    expect((await metadata(1, [name]))[0]).toMatchObject({ errorCode: 0 });
  }
});

test('ms and requests together: whichever comes first ends the lag', async () => {
  lagRule('CreateTopics', { ms: 1000, requests: 5, nodeId: 1 });
  await createTopic('either', [[1, 0, 2]]);
  expect((await metadata(1, ['either']))[0]).toMatchObject({ errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
  clock.advance(1000);
  expect((await metadata(1, ['either']))[0]).toMatchObject({ errorCode: 0 });
});

test('rule validation names the field and the reason', () => {
  const add = (action: Record<string, unknown>) => () => lagRule('CreateTopics', action);
  expect(add({})).toThrow(/action\.ms.*unless action\.requests/);
  expect(add({ requests: 0 })).toThrow(/action\.requests: must be at least 1, got 0/);
  expect(add({ requests: 1.5 })).toThrow(/action\.requests: must be a whole number/);
  expect(add({ ms: 100, requests: '3' })).toThrow(/action\.requests/);
  expect(add({ requests: 3 })).not.toThrow();
});
