// Coordinator placement, as Kafka does it: a group id (key type 0) or a
// transactional id (key type 1) hashes to one of 50 partitions of an internal
// topic (__consumer_offsets or __transaction_state), and the leader of that
// partition is the key's coordinator. Leadership moves when a node stops, so
// coordination moves with it. A cluster that has run a while has both topics:
// kafkaesque creates them at start (createCoordinatorTopics) unless asked for
// a cold start, where, as on a new Kafka cluster, the first FindCoordinator
// that needs a topic creates it and answers COORDINATOR_NOT_AVAILABLE
// meanwhile (KafkaApis#getCoordinator).
import type { ErrorName } from '../protocol/errors.js';
import type { Cluster } from './cluster.js';

export type CoordinatorKeyType = 0 | 1;

export const GROUP_KEY_TYPE = 0;
export const TRANSACTION_KEY_TYPE = 1;
/** FindCoordinator key type 2 (KIP-932 share groups); a 3.9 broker has no share coordinator. */
export const SHARE_KEY_TYPE = 2;

export const GROUP_METADATA_TOPIC = '__consumer_offsets';
export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/** offsets.topic.num.partitions and transaction.state.log.num.partitions. */
export const COORDINATOR_TOPIC_PARTITIONS = 50;

/** Java's String.hashCode: s[0]*31^(n-1) + ... over UTF-16 code units, in int32 arithmetic. */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Kafka's Utils.abs: Math.abs, except that Integer.MIN_VALUE maps to 0 instead of staying negative. */
export function utilsAbs(n: number): number {
  return n === -2147483648 ? 0 : Math.abs(n);
}

/** The internal-topic partition of a key: Utils.abs(key.hashCode) % 50. */
export function partitionFor(key: string, partitions = COORDINATOR_TOPIC_PARTITIONS): number {
  return utilsAbs(javaStringHashCode(key)) % partitions;
}

export function coordinatorTopic(keyType: CoordinatorKeyType): string {
  return keyType === GROUP_KEY_TYPE ? GROUP_METADATA_TOPIC : TRANSACTION_STATE_TOPIC;
}

/** The node coordinating a key right now: the leader of its partition, or -1 (topic missing, partition offline). */
export function coordinatorFor(cluster: Cluster, keyType: CoordinatorKeyType, key: string): number {
  const topic = cluster.topic(coordinatorTopic(keyType));
  const p = topic?.partitions[partitionFor(key, topic.partitions.length)];
  return p && p.leader >= 0 && cluster.isAlive(p.leader) ? p.leader : -1;
}

/** Creates the internal topic of a key type if it is missing; true when it already existed. */
export function ensureCoordinatorTopic(cluster: Cluster, keyType: CoordinatorKeyType): boolean {
  const name = coordinatorTopic(keyType);
  if (cluster.topic(name)) return true;
  const created = cluster.createTopic(name, {
    numPartitions: COORDINATOR_TOPIC_PARTITIONS,
    replicationFactor: Math.min(3, cluster.nodes.size),
    // What GroupCoordinator#offsetsTopicConfigs and the transaction log set; compaction is not simulated.
    configs: { 'cleanup.policy': 'compact', 'compression.type': 'producer' },
  });
  if (!created.ok) cluster.log.warn({ topic: name, error: created.error, message: created.message }, 'cannot create coordinator topic');
  return false;
}

/** Both internal topics, as in a cluster whose groups and transactions have been used before (the default start). */
export function createCoordinatorTopics(cluster: Cluster): void {
  ensureCoordinatorTopic(cluster, GROUP_KEY_TYPE);
  ensureCoordinatorTopic(cluster, TRANSACTION_KEY_TYPE);
}

/**
 * FindCoordinator's answer for one key (KafkaApis#getCoordinator): the
 * coordinator node, or COORDINATOR_NOT_AVAILABLE while the internal topic is
 * being created or the partition has no leader.
 */
export function findCoordinator(cluster: Cluster, keyType: CoordinatorKeyType, key: string): { error: ErrorName; nodeId: number } {
  if (!ensureCoordinatorTopic(cluster, keyType)) return { error: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1 };
  const nodeId = coordinatorFor(cluster, keyType, key);
  return nodeId < 0 ? { error: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1 } : { error: 'NONE', nodeId };
}
