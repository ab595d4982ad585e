// Coordinator placement: Java's String.hashCode, Kafka's Utils.abs, 50
// partitions of an internal topic created on first use, and the coordinator
// following the partition's leadership.
import { modelCluster } from '../../support/cluster.js';
import {
  COORDINATOR_TOPIC_PARTITIONS,
  coordinatorFor,
  findCoordinator,
  javaStringHashCode,
  partitionFor,
  utilsAbs,
} from '../../../src/broker/coordinators.js';

test("javaStringHashCode matches Java's String.hashCode, UTF-16 code units and int32 overflow included", () => {
  // Values printed by a JVM.
  expect(javaStringHashCode('')).toBe(0);
  expect(javaStringHashCode('hello')).toBe(99162322);
  expect(javaStringHashCode('Hello World')).toBe(-862545276);
  expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
  // A character outside the BMP counts as its two surrogates: 0xD83D * 31 + 0xDE00.
  expect(javaStringHashCode('\u{1F600}')).toBe(0xd83d * 31 + 0xde00);
});

test('partition = Utils.abs(hashCode) % 50, where abs(Integer.MIN_VALUE) is 0', () => {
  expect(utilsAbs(-2147483648)).toBe(0);
  expect(utilsAbs(-5)).toBe(5);
  expect(partitionFor('polygenelubricants')).toBe(0);
  expect(partitionFor('Hello World')).toBe(862545276 % 50);
  expect(partitionFor('hello')).toBe(99162322 % 50);
  expect(partitionFor('')).toBe(0);
});

test('the first lookup creates the internal topic and answers COORDINATOR_NOT_AVAILABLE; then the partition leader coordinates', () => {
  const { cluster } = modelCluster({ brokers: 3 });
  expect(coordinatorFor(cluster, 0, 'Hello World')).toBe(-1);
  expect(findCoordinator(cluster, 0, 'Hello World')).toEqual({ error: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1 });
  const topic = cluster.topic('__consumer_offsets')!;
  expect(topic.internal).toBe(true);
  expect(topic.partitions).toHaveLength(COORDINATOR_TOPIC_PARTITIONS);
  expect(topic.partitions.every((p) => p.replicas.length === 3)).toBe(true);
  const leader = topic.partitions[26]!.leader;
  expect(findCoordinator(cluster, 0, 'Hello World')).toEqual({ error: 'NONE', nodeId: leader });
  expect(cluster.groups.coordinatorFor(0, 'Hello World')).toBe(leader);
  // Transactional ids use __transaction_state the same way.
  expect(cluster.topic('__transaction_state')).toBeUndefined();
  expect(findCoordinator(cluster, 1, 'Hello World').error).toBe('COORDINATOR_NOT_AVAILABLE');
  const txnTopic = cluster.topic('__transaction_state')!;
  expect(txnTopic.internal).toBe(true);
  expect(findCoordinator(cluster, 1, 'Hello World')).toEqual({ error: 'NONE', nodeId: txnTopic.partitions[26]!.leader });
});

test('replication is min(3, nodes); coordination follows the leader, and an offline partition has no coordinator', () => {
  const { cluster } = modelCluster({ brokers: 2 });
  findCoordinator(cluster, 0, 'g');
  const p = cluster.topic('__consumer_offsets')!.partitions[partitionFor('g')]!;
  expect(p.replicas).toHaveLength(2);
  const first = coordinatorFor(cluster, 0, 'g');
  cluster.stopNode(first);
  const second = coordinatorFor(cluster, 0, 'g');
  expect(second).not.toBe(first);
  expect(second).toBeGreaterThanOrEqual(0);
  cluster.stopNode(second);
  expect(coordinatorFor(cluster, 0, 'g')).toBe(-1);
  expect(findCoordinator(cluster, 0, 'g')).toEqual({ error: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1 });
  cluster.startNode(second);
  expect(coordinatorFor(cluster, 0, 'g')).toBe(second);
});
