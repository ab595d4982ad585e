// A partition starts with lists shared by every untouched partition (its
// log's batches, its epoch history, its reassignment lists, its producer
// table's transaction lists): each must get a list of its own when written,
// and leave its siblings as they began.
import { alterPartitionReassignment } from '../../src/broker/reassignments.js';
import { modelCluster, produce } from '../support/cluster.js';

function twoPartitions() {
  const { cluster } = modelCluster();
  const created = cluster.createTopic('t', { numPartitions: 2, replicationFactor: 2 });
  if (!created.ok) throw new Error(created.message);
  const [written, untouched] = created.value.partitions as [typeof created.value.partitions[0], typeof created.value.partitions[0]];
  return { cluster, written, untouched };
}

test('records, a leader change and a truncation in one partition leave its sibling as it began', async () => {
  const { cluster, written, untouched } = twoPartitions();
  await produce(cluster, 't', 0, 3);
  await produce(cluster, 't', 0, 2);
  expect(written.log.batchCount).toBe(2);
  const follower = written.replicas.find((r) => r !== written.leader)!;
  cluster.electLeader('t', 0, { nodeId: follower, unclean: false });
  expect(written.epochs).toEqual([{ epoch: 0, startOffset: 0 }, { epoch: 1, startOffset: 5 }]);
  written.log.truncateTo(3);
  expect(written.log.batchCount).toBe(1);
  written.log.advanceStart(3);
  expect(written.log.batchCount).toBe(0);
  expect(written.logStartOffset).toBe(3);

  expect(untouched.log.batchCount).toBe(0);
  expect(untouched.logEndOffset).toBe(0);
  expect(untouched.epochs).toEqual([{ epoch: 0, startOffset: 0 }]);
  expect(untouched.endOffsetForEpoch(0)).toEqual({ leaderEpoch: 0, endOffset: 0 });
});

test('a truncation or a log start move on a log never written to is a no-op, not an error', () => {
  const { untouched } = twoPartitions();
  untouched.log.truncateTo(0);
  untouched.log.advanceStart(0);
  untouched.log.reset(0);
  expect(untouched.log.batchCount).toBe(0);
});

test('the ISR starts as the replica list and is replaced, never changed in place', () => {
  const { cluster, written, untouched } = twoPartitions();
  const replicasBefore = [...written.replicas];
  const leaving = written.replicas.find((r) => r !== written.leader)!;
  cluster.stopNode(leaving);
  expect(written.isr).not.toContain(leaving);
  expect(written.replicas).toEqual(replicasBefore);
  expect(untouched.replicas).toHaveLength(2);
});

test('a reassignment in one partition, and its end, leave its sibling with none', () => {
  const { cluster, written, untouched } = twoPartitions();
  const outside = [0, 1, 2].find((n) => !written.replicas.includes(n))!;
  const target = [written.leader, outside];
  expect(alterPartitionReassignment(cluster, 't', 0, target)).toMatchObject({ error: 'NONE' });
  // Replication is immediate in the model (lag 0), so the joiner is in the ISR and the move completes.
  expect(written.addingReplicas).toEqual([]);
  expect(written.replicas).toEqual(target);
  expect(untouched.addingReplicas).toEqual([]);
  expect(untouched.removingReplicas).toEqual([]);
});

test('an aborted transaction is indexed in its own partition only, and cleared with it', () => {
  const { written, untouched } = twoPartitions();
  written.producers.recordAppend({ producerId: 7, producerEpoch: 0, baseSequence: 0, lastOffsetDelta: 0, transactional: true }, 0, 1000);
  written.producers.recordMarker(7, 0, 0, false, 1, 1001);
  expect(written.producers.aborted).toEqual([{ producerId: 7, firstOffset: 0, lastOffset: 1 }]);
  expect(written.producers.firstUnstableOffset(0)).toBe(0);
  expect(untouched.producers.aborted).toEqual([]);
  expect(untouched.producers.firstUnstableOffset(0)).toBeNull();
  written.producers.clear();
  expect(written.producers.aborted).toEqual([]);
  written.producers.recordAppend({ producerId: 8, producerEpoch: 0, baseSequence: 0, lastOffsetDelta: 0, transactional: true }, 2, 1002);
  written.producers.recordMarker(8, 0, 0, false, 3, 1003);
  expect(written.producers.aborted).toHaveLength(1);
  expect(untouched.producers.aborted).toEqual([]);
});
