// CreatePartitions and CreateTopics assignments naming brokers by hand, checked
// as KRaft's ReplicationControlManager checks them (codes and messages).
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, proxy: false, logLevel: 'silent' });
  c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const createPartitions = (name: string, count: number, assignments: number[][] | null, validateOnly = false) =>
  c.request(ApiKey.CreatePartitions, 3, {
    topics: [{ name, count, assignments: assignments?.map((brokerIds) => ({ brokerIds })) ?? null }],
    timeoutMs: 1000,
    validateOnly,
  });
const createTopic = (name: string, assignments: [number, number[]][], numPartitions = -1, replicationFactor = -1) =>
  c.request(ApiKey.CreateTopics, 7, {
    topics: [{ name, numPartitions, replicationFactor, assignments: assignments.map(([partitionIndex, brokerIds]) => ({ partitionIndex, brokerIds })), configs: [] }],
    timeoutMs: 1000,
    validateOnly: false,
  });
/** [error code, message] of the first topic of a CreatePartitions or CreateTopics answer. */
const resultOf = (res: any) => {
  const first = (res.results ?? res.topics)[0];
  return [first.errorCode, first.errorMessage];
};

test('regression: CreatePartitions naming a broker that does not exist is INVALID_REPLICA_ASSIGNMENT and leaves the topic and Metadata intact', async () => {
  kafka.cluster.createTopic('cp-ghost', { numPartitions: 1, replicationFactor: 1 });
  const res = await createPartitions('cp-ghost', 2, [[10]]);
  expect(resultOf(res)).toEqual([ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes broker 10, but no such broker is registered.']);
  expect(kafka.cluster.topic('cp-ghost')!.partitions).toHaveLength(1);
  // Before the fix the new partition had replica 10 and leader -1, an error in every all-topics Metadata.
  const md = await c.request(ApiKey.Metadata, 9, { topics: null, allowAutoTopicCreation: false });
  const partitions = md.topics.flatMap((t: any) => t.partitions);
  expect(partitions.filter((p: any) => p.errorCode !== 0 || p.leaderId < 0)).toEqual([]);
});

test('CreatePartitions assignments: each refusal as Kafka words it; validate_only checks the same', async () => {
  kafka.cluster.createTopic('cp-rf2', { numPartitions: 1, replicationFactor: 2 });
  const cases: [number, number[][], string][] = [
    [3, [[0, 1]], 'Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified.'],
    [2, [[]], 'The manual partition assignment includes an empty replica list.'],
    [2, [[1, 1]], 'The manual partition assignment includes the broker 1 more than once.'],
    [2, [[0]], 'The manual partition assignment includes a partition with 1 replica(s), but this is not consistent with previous partitions, which have 2 replica(s).'],
    [2, [[12, 11]], 'The manual partition assignment includes broker 11, but no such broker is registered.'],
    [3, [[0, 1], [2, 7]], 'The manual partition assignment includes broker 7, but no such broker is registered.'],
  ];
  for (const validateOnly of [false, true]) {
    for (const [count, assignments, message] of cases) {
      expect(resultOf(await createPartitions('cp-rf2', count, assignments, validateOnly))).toEqual([ErrorCode.INVALID_REPLICA_ASSIGNMENT, message]);
    }
  }
  expect(kafka.cluster.topic('cp-rf2')!.partitions).toHaveLength(1);
  expect(resultOf(await createPartitions('cp-rf2', 3, [[2, 0], [1, 2]]))).toEqual([ErrorCode.NONE, null]);
  expect(kafka.cluster.topic('cp-rf2')!.partitions.map((p) => [p.replicas, p.leader])).toEqual([[[0, 1], 0], [[2, 0], 2], [[1, 2], 1]]);
});

test('an assignment whose brokers are all stopped is refused; a stopped broker is still registered', async () => {
  kafka.cluster.createTopic('cp-stopped', { numPartitions: 1, replicationFactor: 2 });
  await kafka.stopNode(1);
  await kafka.stopNode(2);
  try {
    expect(resultOf(await createPartitions('cp-stopped', 2, [[2, 1]]))).toEqual([
      ErrorCode.INVALID_REPLICA_ASSIGNMENT,
      'All brokers specified in the manual partition assignment for partition 1 are fenced or in controlled shutdown.',
    ]);
    expect(resultOf(await createTopic('ct-stopped', [[0, [2]]]))).toEqual([
      ErrorCode.INVALID_REPLICA_ASSIGNMENT,
      'All brokers specified in the manual partition assignment for partition 0 are fenced or in controlled shutdown.',
    ]);
    // One live replica is enough: it leads.
    expect(resultOf(await createPartitions('cp-stopped', 2, [[2, 0]]))).toEqual([ErrorCode.NONE, null]);
    expect(kafka.cluster.topic('cp-stopped')!.partitions[1]).toMatchObject({ replicas: [2, 0], leader: 0 });
  } finally {
    await kafka.startNode(1);
    await kafka.startNode(2);
  }
});

test('CreateTopics assignments: each refusal as Kafka words it, in its order', async () => {
  const cases: [string, [number, number[]][], number, number, number, string][] = [
    ['ct-rf', [[0, [0]]], -1, 1, ErrorCode.INVALID_REQUEST, 'A manual partition assignment was specified, but replication factor was not set to -1.'],
    ['ct-np', [[0, [0]]], 1, -1, ErrorCode.INVALID_REQUEST, 'A manual partition assignment was specified, but numPartitions was not set to -1.'],
    ['ct-ghost', [[0, [10]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes broker 10, but no such broker is registered.'],
    ['ct-empty', [[0, []]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes an empty replica list.'],
    ['ct-twice', [[0, [2, 0, 2]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes the broker 2 more than once.'],
    ['ct-uneven', [[0, [0, 1]], [1, [2]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes a partition with 1 replica(s), but this is not consistent with previous partitions, which have 2 replica(s).'],
    ['ct-dup', [[0, [0]], [0, [1]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'Found multiple manual partition assignments for partition 0'],
    // Kafka walks the assignments in request order: the first problem met is the one reported.
    ['ct-order', [[1, [9]], [1, [0]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes broker 9, but no such broker is registered.'],
    ['ct-gap', [[0, [0]], [2, [1]]], -1, -1, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'partitions should be a consecutive 0-based integer sequence'],
  ];
  for (const [name, assignments, numPartitions, replicationFactor, code, message] of cases) {
    expect([name, ...resultOf(await createTopic(name, assignments, numPartitions, replicationFactor))]).toEqual([name, code, message]);
    expect(kafka.cluster.topic(name)).toBeUndefined();
  }
  // An existing topic is TOPIC_ALREADY_EXISTS whatever its assignments.
  kafka.cluster.createTopic('ct-exists', {});
  expect(resultOf(await createTopic('ct-exists', [[0, [10]]], 3, 3))[0]).toBe(ErrorCode.TOPIC_ALREADY_EXISTS);
  // Out of order but contiguous is fine.
  expect(resultOf(await createTopic('ct-ok', [[1, [2, 0]], [0, [1, 2]]]))).toEqual([ErrorCode.NONE, null]);
  expect(kafka.cluster.topic('ct-ok')!.partitions.map((p) => p.replicas)).toEqual([[1, 2], [2, 0]]);
});
