// DescribeTopicPartitions (75) over a real socket: pagination by
// responsePartitionLimit and cursor, unknown and invalid topics, and the
// InvalidRequestExceptions of Kafka's DescribeTopicPartitionsRequestHandler.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { ZERO_UUID } from '../../../src/protocol/primitives.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({
    brokers: 3,
    proxy: false,
    logLevel: 'silent',
    topics: [
      { name: 'dtp-a', partitions: 3, replicationFactor: 2 },
      { name: 'dtp-b', partitions: 2, replicationFactor: 3 },
    ],
  });
  c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const describe = (topics: string[], responsePartitionLimit = 2000, cursor: { topicName: string; partitionIndex: number } | null = null) =>
  c.request(ApiKey.DescribeTopicPartitions, 0, { topics: topics.map((name) => ({ name })), responsePartitionLimit, cursor });
const shape = (res: any) => res.topics.map((t: any) => [t.name, t.errorCode, t.partitions.map((p: any) => p.partitionIndex)]);

test('answers the named topics in name order with their partitions as the cluster holds them', async () => {
  const res = await describe(['dtp-b', 'dtp-a']);
  expect(shape(res)).toEqual([
    ['dtp-a', 0, [0, 1, 2]],
    ['dtp-b', 0, [0, 1]],
  ]);
  expect(res.nextCursor).toBeNull();
  const a = kafka.cluster.topic('dtp-a')!;
  expect(res.topics[0]).toMatchObject({ topicId: a.topicId, isInternal: false, topicAuthorizedOperations: 3576 });
  expect(res.topics[0].partitions[1]).toEqual({
    errorCode: 0,
    partitionIndex: 1,
    leaderId: a.partitions[1]!.leader,
    leaderEpoch: a.partitions[1]!.leaderEpoch,
    replicaNodes: a.partitions[1]!.replicas,
    isrNodes: a.partitions[1]!.isr,
    eligibleLeaderReplicas: [],
    lastKnownElr: [],
    offlineReplicas: [],
  });
});

test('pages by responsePartitionLimit, and the cursor resumes where the last page stopped', async () => {
  const first = await describe(['dtp-a', 'dtp-b'], 2);
  expect(shape(first)).toEqual([['dtp-a', 0, [0, 1]]]);
  expect(first.nextCursor).toEqual({ topicName: 'dtp-a', partitionIndex: 2 });
  const second = await describe(['dtp-a', 'dtp-b'], 2, first.nextCursor);
  expect(shape(second)).toEqual([
    ['dtp-a', 0, [2]],
    ['dtp-b', 0, [0]],
  ]);
  expect(second.nextCursor).toEqual({ topicName: 'dtp-b', partitionIndex: 1 });
  // A page that ends exactly at a topic's end points at the next topic's start.
  const exact = await describe(['dtp-a', 'dtp-b'], 3);
  expect(shape(exact)).toEqual([['dtp-a', 0, [0, 1, 2]]]);
  expect(exact.nextCursor).toEqual({ topicName: 'dtp-b', partitionIndex: 0 });
  // A limit below 1 still answers one partition.
  expect(shape(await describe(['dtp-a'], 0))).toEqual([['dtp-a', 0, [0]]]);
});

test('an empty topic list describes every topic; unknown topics are reported only when named', async () => {
  const all = await describe([]);
  expect(shape(all).map(([n]: [string]) => n)).toEqual([...kafka.cluster.topics.keys()].sort());
  const named = await describe(['dtp-a', 'dtp-missing', 'bad name!']);
  expect(shape(named)).toEqual([
    ['bad name!', ErrorCode.INVALID_TOPIC_EXCEPTION, []],
    ['dtp-a', 0, [0, 1, 2]],
    ['dtp-missing', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []],
  ]);
  expect(named.topics[2].topicId).toBe(ZERO_UUID);
  // Not auto-created, unlike Metadata.
  expect(kafka.cluster.topic('dtp-missing')).toBeUndefined();
});

test('a cursor topic missing from the list, or a negative cursor partition, is INVALID_REQUEST on every topic', async () => {
  const missing = await describe(['dtp-b'], 10, { topicName: 'dtp-a', partitionIndex: 0 });
  expect(shape(missing)).toEqual([['dtp-b', ErrorCode.INVALID_REQUEST, []]]);
  const negative = await describe(['dtp-a'], 10, { topicName: 'dtp-a', partitionIndex: -1 });
  expect(shape(negative)).toEqual([['dtp-a', ErrorCode.INVALID_REQUEST, []]]);
});

test('a stopped node is an offline replica; a partition without a live leader has leader -1 and no error', async () => {
  kafka.cluster.createTopic('dtp-solo', { assignments: [{ partitionIndex: 0, brokerIds: [2] }] });
  kafka.cluster.stopNode(2);
  try {
    const res = await describe(['dtp-solo']);
    expect(res.topics[0].partitions[0]).toMatchObject({ errorCode: 0, leaderId: -1, replicaNodes: [2], offlineReplicas: [2] });
  } finally {
    kafka.cluster.startNode(2);
  }
});
