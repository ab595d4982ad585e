// AlterPartitionReassignments (45) and ListPartitionReassignments (46):
// kafkajs's admin for the happy path, the raw client for cancelling and the
// errors. Reassignments run through the replication model: a paused follower
// keeps one in progress, and resuming it lets the reassignment complete.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';
import { fetchPartition, kafkajs, messages } from '../../support/kafkajs.js';
import type { Admin } from 'kafkajs';

let kafka: RunningCluster;
let c: WireClient;
let admin: Admin;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, logLevel: 'silent' });
  c = await WireClient.connect(kafka.brokers.get(0)!);
  admin = kafkajs(kafka.bootstrap).admin();
  await admin.connect();
});
afterAll(async () => {
  await admin.disconnect();
  c.close();
  await kafka.stop();
});

const alter = (topic: string, partitions: [number, number[] | null][]) =>
  c.request(ApiKey.AlterPartitionReassignments, 0, { timeoutMs: 1000, topics: [{ name: topic, partitions: partitions.map(([partitionIndex, replicas]) => ({ partitionIndex, replicas })) }] });
const partitionErrors = (res: any) => res.responses.flatMap((t: any) => t.partitions.map((p: any) => [p.partitionIndex, p.errorCode, p.errorMessage]));

test('a reassignment adds a follower that catches up, then the removed replica (the leader) leaves and leadership moves', async () => {
  kafka.cluster.createTopic('ra-move', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1] }] });
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'ra-move', acks: -1, messages: messages(5) });
  const p = kafka.cluster.partition('ra-move', 0)!;
  const epoch = p.leaderEpoch;

  kafka.cluster.pauseReplication(2);
  try {
    await admin.alterPartitionReassignments({ topics: [{ topic: 'ra-move', partitionAssignment: [{ partition: 0, replicas: [1, 2] }] }] });
    // In progress: the adding replica has nothing yet, so it is outside the ISR and the old leader still leads.
    expect(await admin.listPartitionReassignments({ topics: [{ topic: 'ra-move', partitions: [0] }] })).toEqual({
    topics: [{ name: 'ra-move', partitions: [{ partition: 0, replicas: [1, 2, 0], addingReplicas: [2], removingReplicas: [0] }] }],
  });
    expect([p.leader, p.isr, p.replicaLogEndOffset(2)]).toEqual([0, [0, 1], 0]);
  } finally {
    kafka.cluster.resumeReplication(2);
  }
  expect([p.replicas, p.isr, p.leader, p.leaderEpoch]).toEqual([[1, 2], [1, 2], 1, epoch + 1]);
  expect(p.replicaLogEndOffset(2)).toBe(5);
  expect(await admin.listPartitionReassignments({})).toEqual({ topics: [] });

  // Clients follow: the producer goes on at the new leader and the records are all there.
  await producer.send({ topic: 'ra-move', acks: -1, messages: messages(2, 'n') });
  await producer.disconnect();
  expect((await fetchPartition(client, 'ra-move', 0)).map((m) => m.value)).toEqual([...messages(5), ...messages(2, 'n')].map((m) => m.value));
});

test('reordering or shrinking the replicas completes at once, the leader staying when it is kept', async () => {
  kafka.cluster.createTopic('ra-order', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1, 2] }] });
  expect(partitionErrors(await alter('ra-order', [[0, [2, 0]]]))).toEqual([[0, 0, null]]);
  const p = kafka.cluster.partition('ra-order', 0)!;
  expect([p.replicas, p.isr, p.leader]).toEqual([[2, 0], [0, 2], 0]);
  const res = await c.request(ApiKey.ListPartitionReassignments, 0, { timeoutMs: 1000, topics: null });
  expect(res).toMatchObject({ errorCode: 0, topics: [] });
});

test('cancelling (replicas null) reverts to the replicas before; with none in progress it is NO_REASSIGNMENT_IN_PROGRESS', async () => {
  kafka.cluster.createTopic('ra-cancel', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1] }, { partitionIndex: 1, brokerIds: [1, 0] }] });
  kafka.cluster.pauseReplication(2);
  try {
    expect(partitionErrors(await alter('ra-cancel', [[0, [0, 2]], [1, [2, 0]]]))).toEqual([[0, 0, null], [1, 0, null]]);
    const listed = await c.request(ApiKey.ListPartitionReassignments, 0, { timeoutMs: 1000, topics: [{ name: 'ra-cancel', partitionIndexes: [1, 7] }] });
    expect(listed.topics).toEqual([{ name: 'ra-cancel', partitions: [{ partitionIndex: 1, replicas: [2, 0, 1], addingReplicas: [2], removingReplicas: [1] }] }]);
    expect(partitionErrors(await alter('ra-cancel', [[0, null]]))).toEqual([[0, 0, null]]);
    const p = kafka.cluster.partition('ra-cancel', 0)!;
    expect([p.replicas, p.isr, p.addingReplicas, p.removingReplicas]).toEqual([[0, 1], [0, 1], [], []]);
    expect(partitionErrors(await alter('ra-cancel', [[0, null]]))).toEqual([[0, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, 'No partition reassignment is in progress.']]);
    // The other partition's reassignment is still in progress.
    const all = await c.request(ApiKey.ListPartitionReassignments, 0, { timeoutMs: 1000, topics: null });
    expect(all.topics.map((t: any) => [t.name, t.partitions.map((x: any) => x.partitionIndex)])).toEqual([['ra-cancel', [1]]]);
  } finally {
    kafka.cluster.resumeReplication(2);
  }
  expect(kafka.cluster.partition('ra-cancel', 1)!.replicas).toEqual([2, 0]);
});

test('unknown topics and partitions, unregistered brokers, duplicates and empty lists are refused per partition', async () => {
  kafka.cluster.createTopic('ra-bad', { assignments: [{ partitionIndex: 0, brokerIds: [0] }] });
  const unknownTopic = await alter('ra-none', [[0, [1]]]);
  expect(partitionErrors(unknownTopic)).toEqual([[0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find a topic named ra-none.']]);
  expect(unknownTopic.errorCode).toBe(0);
  expect(partitionErrors(await alter('ra-bad', [[3, [1]], [0, [10, 1]], [0, [1, 1]], [0, []]]))).toEqual([
    [3, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find partition ra-bad:3.'],
    [0, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes broker 10, but no such broker is registered.'],
    [0, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes the broker 1 more than once.'],
    [0, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes an empty replica list.'],
  ]);
  expect(kafka.cluster.partition('ra-bad', 0)!.replicas).toEqual([0]);
  // kafkajs surfaces the per-partition error.
  const refused = await admin.alterPartitionReassignments({ topics: [{ topic: 'ra-bad', partitionAssignment: [{ partition: 0, replicas: [10] }] }] }).catch((e) => e);
  expect(refused.errors.map((e: any) => [e.topic, e.partition, e.type])).toEqual([['ra-bad', 0, 'INVALID_REPLICA_ASSIGNMENT']]);
});
