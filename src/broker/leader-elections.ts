// ElectLeaders' elections, as KRaft's controller runs them:
// ReplicationControlManager.electLeader and PartitionChangeBuilder's
// electPreferredLeader / electAnyLeader (eligible leader replicas off, as by
// default in 3.9). A valid leader is a live replica in the ISR; the target
// replicas are the partition's (a reassignment in progress targets its new
// list). The move itself is Cluster.electLeader, the one the chaos layer uses.
import type { Cluster } from './cluster.js';
import type { ErrorName } from '../protocol/errors.js';

/** org.apache.kafka.common.ElectionType */
export const ElectionType = { PREFERRED: 0, UNCLEAN: 1 } as const;

export interface ElectionOutcome {
  error: ErrorName;
  /** The ApiError message: null for NONE, Errors' default message for the bare codes. */
  message: string | null;
}

const outcome = (error: ErrorName, message: string | null): ElectionOutcome => ({ error, message });

/** One partition's election of the given type (ElectionType.PREFERRED or UNCLEAN). */
export function electLeaderOfType(cluster: Cluster, topic: string, partition: number, type: number): ElectionOutcome {
  const t = cluster.topic(topic);
  if (!t) return outcome('UNKNOWN_TOPIC_OR_PARTITION', `No such topic as ${topic}`);
  const p = t.partitions[partition];
  if (!p) return outcome('UNKNOWN_TOPIC_OR_PARTITION', `No such partition as ${topic}-${partition}`);
  const hasLeader = p.leader >= 0;
  if ((type === ElectionType.PREFERRED && p.leader === p.replicas[0]) || (type === ElectionType.UNCLEAN && hasLeader)) {
    return outcome('ELECTION_NOT_NEEDED', 'Leader election not needed for topic partition.');
  }
  const valid = (r: number) => p.isr.includes(r) && cluster.isAlive(r);
  let chosen: number | undefined;
  let unclean = false;
  if (type === ElectionType.PREFERRED) {
    // The preferred replica; else the current leader stays (no change); else any other valid replica.
    if (valid(p.replicas[0]!)) chosen = p.replicas[0];
    else if (hasLeader && valid(p.leader)) chosen = p.leader;
    else chosen = p.replicas.slice(1).find(valid);
  } else {
    chosen = p.replicas.find(valid);
    if (chosen === undefined) {
      chosen = p.replicas.find((r) => cluster.isAlive(r));
      unclean = chosen !== undefined;
    }
  }
  // No new leader is no change to the partition: the controller writes no record.
  if (chosen === undefined || chosen === p.leader) {
    return type === ElectionType.PREFERRED
      ? outcome('PREFERRED_LEADER_NOT_AVAILABLE', 'The preferred leader was not available.')
      : outcome('ELIGIBLE_LEADERS_NOT_AVAILABLE', 'Eligible topic partition leaders are not available.');
  }
  const moved = cluster.electLeader(topic, partition, { nodeId: chosen, unclean });
  if (!moved.ok) return outcome(moved.error, moved.message);
  return outcome('NONE', null);
}
