// Partition reassignments through the replication model, as KRaft's
// controller runs them (ReplicationControlManager.changePartitionReassignment
// and cancelPartitionReassignment, PartitionReassignmentReplicas,
// PartitionReassignmentRevert, PartitionChangeBuilder):
//
// 1. The replica list becomes target + removing; addingReplicas and
//    removingReplicas are set. The adding replicas are followers that start
//    empty and catch up as any follower does (the cluster's replication lag,
//    paused followers), joining the ISR when they have the leader's log.
// 2. Once every replica of the target is in the ISR, the reassignment
//    completes: the removing replicas leave the replica list and the ISR.
// 3. A leader that is removed hands over to the first ISR member of the new
//    list; removing any replica bumps the leader epoch.
//
// A reassignment that only reorders or shrinks the list completes at once,
// since its ISR already holds the target.
import type { Cluster } from './cluster.js';
import type { Partition } from './partition.js';
import { replicaListProblem } from './manual-assignment.js';
import type { ErrorName } from '../protocol/errors.js';

export type ReassignmentOutcome = { error: 'NONE' } | { error: ErrorName; message: string };

const NONE: ReassignmentOutcome = { error: 'NONE' };
const without = (list: readonly number[], drop: readonly number[]) => list.filter((r) => !drop.includes(r));

export const isReassigning = (p: Partition) => p.addingReplicas.length > 0 || p.removingReplicas.length > 0;

/** AlterPartitionReassignments for one partition: a new target replica list, or null to cancel the one in progress. */
export function alterPartitionReassignment(cluster: Cluster, topicName: string, partition: number, target: number[] | null): ReassignmentOutcome {
  const topic = cluster.topic(topicName);
  if (!topic) return { error: 'UNKNOWN_TOPIC_OR_PARTITION', message: `Unable to find a topic named ${topicName}.` };
  const p = topic.partitions[partition];
  if (!p) return { error: 'UNKNOWN_TOPIC_OR_PARTITION', message: `Unable to find partition ${topicName}:${partition}.` };
  if (target === null) return cancel(cluster, p, topic.configs.get('unclean.leader.election.enable') === 'true');
  // validateManualPartitionAssignment without a replication factor: registered brokers, each once, not empty.
  const problem = replicaListProblem(target, { isRegistered: (id) => cluster.nodes.has(id), isAlive: (id) => cluster.isAlive(id) });
  if (problem) return { error: 'INVALID_REPLICA_ASSIGNMENT', message: problem };
  const current = p.replicas;
  const removing = [...new Set(without(current, target))].sort((a, b) => a - b);
  const adding = [...new Set(without(target, current))].sort((a, b) => a - b);
  p.addingReplicas = adding;
  p.removingReplicas = removing;
  p.setReplicas([...target, ...removing], p.isr);
  if (!maybeCompleteReassignment(cluster, p)) cluster.replicate(p);
  return NONE;
}

/** Cancelling: back to the replicas before the reassignment, without the ones it was adding (PartitionReassignmentRevert). */
function cancel(cluster: Cluster, p: Partition, uncleanAllowed: boolean): ReassignmentOutcome {
  if (!isReassigning(p)) return { error: 'NO_REASSIGNMENT_IN_PROGRESS', message: 'No partition reassignment is in progress.' };
  const replicas = without(p.replicas, p.addingReplicas);
  let isr = without(p.isr, p.addingReplicas);
  if (isr.length === 0) {
    if (!uncleanAllowed) {
      return { error: 'INVALID_REPLICA_ASSIGNMENT', message: `Unable to revert partition assignment for ${p.topic}:${p.index} because it would require an unclean leader election.` };
    }
    isr = [replicas[0]!];
  }
  applyChange(cluster, p, replicas, isr);
  return NONE;
}

/**
 * Completes the reassignment in progress when the ISR holds every target
 * replica (PartitionReassignmentReplicas.maybeCompleteReassignment); the
 * cluster calls it when a follower joins the ISR. Returns whether it did.
 */
export function maybeCompleteReassignment(cluster: Cluster, p: Partition): boolean {
  if (!isReassigning(p)) return false;
  const isr = without(p.isr, p.removingReplicas);
  const replicas = without(p.replicas, p.removingReplicas);
  if (isr.length === 0 || replicas.length === 0 || !replicas.every((r) => isr.includes(r))) return false;
  applyChange(cluster, p, replicas, isr);
  return true;
}

/** The new replica list and ISR, with the leader kept if it is still a valid one (PartitionChangeBuilder's electAnyLeader) and the epoch bumped if a replica left. */
function applyChange(cluster: Cluster, p: Partition, replicas: number[], isr: number[]): void {
  const valid = (r: number) => isr.includes(r) && cluster.isAlive(r);
  const leader = p.leader >= 0 && valid(p.leader) ? p.leader : replicas.find(valid);
  const replicaLeft = p.replicas.some((r) => !replicas.includes(r));
  p.clearReassignment();
  if (leader === undefined) p.goOffline();
  else if (leader !== p.leader || replicaLeft) cluster.electLeader(p.topic, p.index, { nodeId: leader, unclean: !p.isr.includes(leader) });
  p.setReplicas(replicas, isr.filter((r) => replicas.includes(r)));
}

/** ListPartitionReassignments: the partitions of a topic with a reassignment in progress (all of them, or the listed ones). */
export function ongoingReassignments(cluster: Cluster, topicName: string, partitions: readonly number[] | null) {
  const topic = cluster.topic(topicName);
  if (!topic) return [];
  const chosen = partitions === null ? topic.partitions : partitions.flatMap((i) => topic.partitions[i] ?? []);
  return chosen.filter(isReassigning).map((p) => ({ partitionIndex: p.index, replicas: p.replicas, addingReplicas: p.addingReplicas, removingReplicas: p.removingReplicas }));
}
