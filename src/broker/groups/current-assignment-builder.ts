// Kafka's CurrentAssignmentBuilder (modern/consumer): moves one member's
// current assignment towards its target, one step per heartbeat. Partitions
// the target takes away are first put pending revocation, and the member
// keeps its epoch until a heartbeat reports it no longer owns them; only then
// does it get the next epoch and its new partitions, and a new partition is
// given only once no other member holds it (else the member waits in
// UNRELEASED_PARTITIONS). This is what makes "revoke before assign" hold.
import { FencedMemberEpoch } from './consumer-group-errors.js';
import type { ConsumerGroupMember } from './consumer-group.js';
import type { Assignment } from './assignors/assignor.js';

/** The partitions a heartbeat says the member owns (topic id → partitions), or null when it did not say. */
export type OwnedTopicPartitions = readonly { topicId: string; partitions: readonly number[] }[] | null;

export interface ReconcileInput {
  targetAssignmentEpoch: number;
  targetAssignment: Assignment;
  currentPartitionEpoch: (topicId: string, partition: number) => number;
  ownedTopicPartitions: OwnedTopicPartitions;
}

/** CurrentAssignmentBuilder#build: the member's next state, a new object (or the same member when nothing changes). */
export function reconcile(member: ConsumerGroupMember, input: ReconcileInput): ConsumerGroupMember {
  switch (member.state) {
    case 'STABLE':
      if (member.memberEpoch !== input.targetAssignmentEpoch) return computeNextAssignment(member, input, member.memberEpoch);
      return member;
    case 'UNREVOKED_PARTITIONS':
      // The revoked partitions count as revoked once the heartbeat stops reporting them.
      if (ownsRevokedPartitions(input.ownedTopicPartitions, member.partitionsPendingRevocation)) return member;
      return computeNextAssignment(member, input, member.memberEpoch + 1);
    case 'UNRELEASED_PARTITIONS':
      return computeNextAssignment(member, input, member.memberEpoch);
    default:
      throw new FencedMemberEpoch('The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.');
  }
}

function ownsRevokedPartitions(owned: OwnedTopicPartitions, pending: Assignment): boolean {
  if (owned === null) return true;
  for (const tp of owned) {
    const revoking = pending.get(tp.topicId);
    if (revoking && tp.partitions.some((p) => revoking.has(p))) return true;
  }
  return false;
}

function computeNextAssignment(member: ConsumerGroupMember, input: ReconcileInput, memberEpoch: number): ConsumerGroupMember {
  let hasUnreleasedPartitions = false;
  const assigned: Assignment = new Map();
  const pendingRevocation: Assignment = new Map();
  const pendingAssignment: Assignment = new Map();
  const topicIds = new Set([...input.targetAssignment.keys(), ...member.assignedPartitions.keys()]);
  for (const topicId of topicIds) {
    const target = input.targetAssignment.get(topicId) ?? new Set<number>();
    const current = member.assignedPartitions.get(topicId) ?? new Set<number>();
    // New assigned = current ∩ target; pending revocation = current − new assigned.
    const keep = new Set([...current].filter((p) => target.has(p)));
    const revoke = new Set([...current].filter((p) => !keep.has(p)));
    // Pending assignment = target − new assigned − partitions another member still holds.
    const add = new Set<number>();
    for (const p of target) {
      if (keep.has(p)) continue;
      if (input.currentPartitionEpoch(topicId, p) !== -1) hasUnreleasedPartitions = true;
      else add.add(p);
    }
    if (keep.size) assigned.set(topicId, keep);
    if (revoke.size) pendingRevocation.set(topicId, revoke);
    if (add.size) pendingAssignment.set(topicId, add);
  }
  const next = member.copyAs(member.memberId);
  next.sessionTimer = member.sessionTimer;
  next.rebalanceTimer = member.rebalanceTimer;
  const updateMemberEpoch = (epoch: number) => {
    next.previousMemberEpoch = member.memberEpoch;
    next.memberEpoch = epoch;
  };
  if (pendingRevocation.size > 0 && ownsRevokedPartitions(input.ownedTopicPartitions, pendingRevocation)) {
    // The member keeps its epoch and is asked to revoke first.
    next.state = 'UNREVOKED_PARTITIONS';
    updateMemberEpoch(memberEpoch);
    next.assignedPartitions = assigned;
    next.partitionsPendingRevocation = pendingRevocation;
    return next;
  }
  for (const [t, ps] of pendingAssignment) {
    const into = assigned.get(t) ?? assigned.set(t, new Set()).get(t)!;
    for (const p of ps) into.add(p);
  }
  next.state = hasUnreleasedPartitions ? 'UNRELEASED_PARTITIONS' : 'STABLE';
  updateMemberEpoch(input.targetAssignmentEpoch);
  next.assignedPartitions = assigned;
  next.partitionsPendingRevocation = new Map();
  return next;
}
