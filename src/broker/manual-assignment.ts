// Replica lists given by hand (CreateTopics and CreatePartitions assignments),
// checked as KRaft's controller checks them, in its order and with its
// messages: ReplicationControlManager#createTopic, #createPartitions and
// #validateManualPartitionAssignment. Every broker named must be registered
// (a stopped node still is, as a fenced broker is in KRaft) and at least one of
// each list must be alive: otherwise the partition could never have a leader.

/** One partition's replicas, as CreateTopics carries them (CreatableReplicaAssignment). */
export interface ReplicaAssignment {
  partitionIndex: number;
  brokerIds: number[];
}

/** What the checks need to know about the brokers. */
export interface AssignableBrokers {
  isRegistered(nodeId: number): boolean;
  isAlive(nodeId: number): boolean;
}

/** Why a replica list cannot be used (INVALID_REPLICA_ASSIGNMENT), or null; replicationFactor is the count the earlier partitions have. */
export function replicaListProblem(brokerIds: readonly number[], brokers: AssignableBrokers, replicationFactor?: number): string | null {
  if (brokerIds.length === 0) return 'The manual partition assignment includes an empty replica list.';
  // Kafka walks the ids in ascending order, so the message names the lowest offender.
  const sorted = [...brokerIds].sort((a, b) => a - b);
  let previous: number | undefined;
  for (const id of sorted) {
    if (!brokers.isRegistered(id)) return `The manual partition assignment includes broker ${id}, but no such broker is registered.`;
    if (id === previous) return `The manual partition assignment includes the broker ${id} more than once.`;
    previous = id;
  }
  if (replicationFactor !== undefined && sorted.length !== replicationFactor) {
    return `The manual partition assignment includes a partition with ${sorted.length} replica(s), but this is not consistent with previous partitions, which have ${replicationFactor} replica(s).`;
  }
  return null;
}

const noLiveReplica = (partition: number) =>
  `All brokers specified in the manual partition assignment for partition ${partition} are fenced or in controlled shutdown.`;

export type AssignmentCheck = { ok: true; replicas: number[][] } | { ok: false; message: string };

/** CreateTopics: the replica lists in partition order, or why the assignments are refused (INVALID_REPLICA_ASSIGNMENT). */
export function checkTopicAssignments(assignments: readonly ReplicaAssignment[], brokers: AssignableBrokers): AssignmentCheck {
  const byPartition = new Map<number, number[]>();
  let replicationFactor: number | undefined;
  for (const a of assignments) {
    if (byPartition.has(a.partitionIndex)) return { ok: false, message: `Found multiple manual partition assignments for partition ${a.partitionIndex}` };
    const problem = replicaListProblem(a.brokerIds, brokers, replicationFactor);
    if (problem) return { ok: false, message: problem };
    replicationFactor = a.brokerIds.length;
    if (!a.brokerIds.some((id) => brokers.isAlive(id))) return { ok: false, message: noLiveReplica(a.partitionIndex) };
    byPartition.set(a.partitionIndex, [...a.brokerIds]);
  }
  const replicas: number[][] = [];
  for (let i = 0; i < byPartition.size; i++) {
    const r = byPartition.get(i);
    if (!r) return { ok: false, message: 'partitions should be a consecutive 0-based integer sequence' };
    replicas.push(r);
  }
  return { ok: true, replicas };
}

/** CreatePartitions: the new partitions' replica lists (the first one is partition firstPartition), each as many as the topic's replication factor. */
export function checkNewPartitionAssignments(
  assignments: readonly number[][],
  firstPartition: number,
  replicationFactor: number,
  brokers: AssignableBrokers,
): AssignmentCheck {
  for (const [i, brokerIds] of assignments.entries()) {
    const problem = replicaListProblem(brokerIds, brokers, replicationFactor);
    if (problem) return { ok: false, message: problem };
    if (!brokerIds.some((id) => brokers.isAlive(id))) return { ok: false, message: noLiveReplica(firstPartition + i) };
  }
  return { ok: true, replicas: assignments.map((r) => [...r]) };
}
