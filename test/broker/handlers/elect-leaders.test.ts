// ElectLeaders (43) over a real socket: preferred and unclean elections move
// leaders in the cluster model, with the per-partition errors of KRaft's
// ReplicationControlManager.electLeader.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';
import { fetchPartition, kafkajs, messages } from '../../support/kafkajs.js';

const PREFERRED = 0;
const UNCLEAN = 1;

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, logLevel: 'silent' });
  c = await WireClient.connect(kafka.brokers.get(0)!);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const elect = (electionType: number, topicPartitions: { topic: string; partitions: number[] }[] | null, version = 2) =>
  c.request(ApiKey.ElectLeaders, version, { electionType, topicPartitions, timeoutMs: 1000 });
const results = (res: any) => res.replicaElectionResults.flatMap((t: any) => t.partitionResult.map((p: any) => [t.topic, p.partitionId, p.errorCode]));

test('a preferred election moves leadership back to the first replica; a second one is not needed', async () => {
  kafka.cluster.createTopic('el-pref', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1, 2] }] });
  kafka.cluster.electLeader('el-pref', 0, { nodeId: 1 });
  const epoch = kafka.cluster.partition('el-pref', 0)!.leaderEpoch;
  const res = await elect(PREFERRED, [{ topic: 'el-pref', partitions: [0] }]);
  expect(res.errorCode).toBe(0);
  expect(res.replicaElectionResults).toEqual([{ topic: 'el-pref', partitionResult: [{ partitionId: 0, errorCode: 0, errorMessage: null }] }]);
  const p = kafka.cluster.partition('el-pref', 0)!;
  expect([p.leader, p.leaderEpoch]).toEqual([0, epoch + 1]);
  const again = await elect(PREFERRED, [{ topic: 'el-pref', partitions: [0] }], 0);
  expect(again.replicaElectionResults[0].partitionResult[0]).toEqual({ partitionId: 0, errorCode: ErrorCode.ELECTION_NOT_NEEDED, errorMessage: 'Leader election not needed for topic partition.' });

  // Clients follow the move: a kafkajs producer and consumer work on the new leader.
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'el-pref', acks: -1, messages: messages(3) });
  await producer.disconnect();
  expect((await fetchPartition(client, 'el-pref', 0)).map((m) => m.value)).toEqual(messages(3).map((m) => m.value));
});

test('a preferred replica out of the ISR is PREFERRED_LEADER_NOT_AVAILABLE and the leader stays', async () => {
  kafka.cluster.createTopic('el-out', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1] }] });
  kafka.cluster.electLeader('el-out', 0, { nodeId: 1 });
  kafka.cluster.shrinkIsr('el-out', 0, 0);
  kafka.cluster.pauseReplication(0);
  try {
    const res = await elect(PREFERRED, [{ topic: 'el-out', partitions: [0] }]);
    expect(results(res)).toEqual([['el-out', 0, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE]]);
    expect(kafka.cluster.partition('el-out', 0)!.leader).toBe(1);
  } finally {
    kafka.cluster.resumeReplication(0);
  }
});

test('an unclean election gives a leaderless partition an out-of-ISR leader; with a leader it is not needed', async () => {
  kafka.cluster.createTopic('el-unclean', { assignments: [{ partitionIndex: 0, brokerIds: [2, 1] }] });
  kafka.cluster.shrinkIsr('el-unclean', 0, 1);
  kafka.cluster.stopNode(2);
  try {
    expect(kafka.cluster.partition('el-unclean', 0)!.leader).toBe(-1);
    // Preferred cannot help: the preferred replica is down and no ISR member is alive.
    expect(results(await elect(PREFERRED, [{ topic: 'el-unclean', partitions: [0] }]))).toEqual([['el-unclean', 0, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE]]);
    expect(results(await elect(UNCLEAN, [{ topic: 'el-unclean', partitions: [0] }]))).toEqual([['el-unclean', 0, 0]]);
    const p = kafka.cluster.partition('el-unclean', 0)!;
    expect([p.leader, p.isr]).toEqual([1, [1]]);
    expect(results(await elect(UNCLEAN, [{ topic: 'el-unclean', partitions: [0] }]))).toEqual([['el-unclean', 0, ErrorCode.ELECTION_NOT_NEEDED]]);
  } finally {
    kafka.cluster.startNode(2);
  }
});

test('an unclean election with no live replica is ELIGIBLE_LEADERS_NOT_AVAILABLE', async () => {
  kafka.cluster.createTopic('el-dead', { assignments: [{ partitionIndex: 0, brokerIds: [2] }] });
  kafka.cluster.stopNode(2);
  try {
    expect(results(await elect(UNCLEAN, [{ topic: 'el-dead', partitions: [0] }]))).toEqual([['el-dead', 0, ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE]]);
  } finally {
    kafka.cluster.startNode(2);
  }
});

test('unknown topics and partitions are UNKNOWN_TOPIC_OR_PARTITION; an unknown election type is INVALID_REQUEST', async () => {
  const res = await elect(PREFERRED, [
    { topic: 'el-nope', partitions: [0] },
    { topic: 'el-pref', partitions: [9] },
  ]);
  expect(res.replicaElectionResults).toEqual([
    { topic: 'el-nope', partitionResult: [{ partitionId: 0, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'No such topic as el-nope' }] },
    { topic: 'el-pref', partitionResult: [{ partitionId: 9, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'No such partition as el-pref-9' }] },
  ]);
  const bad = await elect(5, [{ topic: 'el-pref', partitions: [0] }]);
  expect(bad.errorCode).toBe(ErrorCode.INVALID_REQUEST);
  expect(bad.replicaElectionResults[0].partitionResult[0]).toEqual({ partitionId: 0, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Unknown election type 5' });
});

test('null topics elects every partition and answers only those that needed an election', async () => {
  kafka.cluster.createTopic('el-all', { assignments: [{ partitionIndex: 0, brokerIds: [1, 0] }, { partitionIndex: 1, brokerIds: [2, 0] }] });
  kafka.cluster.electLeader('el-all', 1, { nodeId: 0 });
  // Earlier tests' stopped node left other partitions (the internal topics') away from their preferred leader too.
  const away = [...kafka.cluster.topics.values()].flatMap((t) => t.partitions.filter((p) => p.leader !== p.replicas[0]).map((p) => [t.name, p.index, 0]));
  expect(away).toContainEqual(['el-all', 1, 0]);
  const res = await elect(PREFERRED, null);
  expect(results(res).sort()).toEqual(away.sort());
  // Every topic is listed, those without a result too.
  expect(res.replicaElectionResults.map((t: any) => t.topic).sort()).toEqual([...kafka.cluster.topics.keys()].sort());
  expect(kafka.cluster.partition('el-all', 1)!.leader).toBe(2);
  expect(results(await elect(PREFERRED, null))).toEqual([]);
});
