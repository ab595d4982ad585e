// A KIP-848 consumer group and its members, as Kafka's ConsumerGroup and
// ConsumerGroupMember keep them (group-coordinator's modern/consumer
// package): the group epoch (bumped when a subscription, the member set or
// the subscribed topics' metadata change), the target assignment and its
// epoch, each member's epoch, previous epoch, reconciliation state, assigned
// partitions and partitions pending revocation, and which member epoch holds
// each partition (a partition moves only once no one holds it), and the
// topics each subscribed regular expression resolved to.
import type { Timer } from '../clock.js';
import { OffsetStore } from './offsets.js';
import { copyAssignment, type Assignment } from './assignors/assignor.js';

/** ConsumerGroup.ConsumerGroupState, as ListGroups and ConsumerGroupDescribe name them. */
export type ConsumerGroupState = 'Empty' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

/** MemberState: where a member is in reconciling towards its target. */
export type MemberState = 'STABLE' | 'UNREVOKED_PARTITIONS' | 'UNRELEASED_PARTITIONS';

/** ConsumerGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH and LEAVE_GROUP_STATIC_MEMBER_EPOCH. */
export const LEAVE_GROUP_MEMBER_EPOCH = -1;
export const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

export class ConsumerGroupMember {
  memberEpoch = 0;
  previousMemberEpoch = 0;
  state: MemberState = 'STABLE';
  rackId: string | null = null;
  clientId = '';
  clientHost = '';
  rebalanceTimeoutMs = -1;
  subscribedTopicNames: string[] = [];
  /** ConsumerGroupHeartbeat v1's SubscribedTopicRegex; "" for none, as Kafka keeps it. */
  subscribedTopicRegex = '';
  serverAssignorName: string | null = null;
  assignedPartitions: Assignment = new Map();
  partitionsPendingRevocation: Assignment = new Map();
  sessionTimer: Timer | null = null;
  rebalanceTimer: Timer | null = null;

  constructor(
    readonly memberId: string,
    public instanceId: string | null,
  ) {}

  /** ConsumerGroupMember#isReconciledTo. */
  isReconciledTo(targetAssignmentEpoch: number): boolean {
    return this.state === 'STABLE' && this.memberEpoch === targetAssignmentEpoch;
  }

  /** Builder(member, newMemberId): the same member under another id (a static member's new instance). */
  copyAs(memberId: string): ConsumerGroupMember {
    const m = new ConsumerGroupMember(memberId, this.instanceId);
    Object.assign(m, { ...this, memberId, sessionTimer: null, rebalanceTimer: null });
    m.assignedPartitions = copyAssignment(this.assignedPartitions);
    m.partitionsPendingRevocation = copyAssignment(this.partitionsPendingRevocation);
    m.subscribedTopicNames = [...this.subscribedTopicNames];
    return m;
  }
}

/** ResolvedRegularExpression: what a regex matched, as of which topics version, resolved when. */
export interface ResolvedRegularExpression {
  readonly topics: ReadonlySet<string>;
  readonly version: number;
  readonly timestampMs: number;
}

export class ConsumerGroup {
  groupEpoch = 0;
  assignmentEpoch = 0;
  readonly members = new Map<string, ConsumerGroupMember>();
  /** instance id → member id. */
  readonly staticMembers = new Map<string, string>();
  /** member id → target assignment. */
  readonly targetAssignment = new Map<string, Assignment>();
  /** "topicId:partition" → the epoch of the member holding it (assigned or pending revocation). */
  private readonly partitionEpochs = new Map<string, number>();
  /** The subscribed topics' names and partition counts as of the last epoch bump (4.x's metadata hash). */
  subscriptionMetadata = '';
  /** regex → what it resolved to (Kafka's ConsumerGroupRegularExpression records). */
  readonly resolvedRegularExpressions = new Map<string, ResolvedRegularExpression>();
  /** A resolution is under way (Kafka's executor.isScheduled(groupId + "-regex")). */
  regexRefreshScheduled = false;
  private lastState: ConsumerGroupState = 'Empty';

  constructor(
    readonly groupId: string,
    readonly offsets: OffsetStore = new OffsetStore(),
  ) {}

  /** ConsumerGroup#maybeUpdateGroupState. */
  get state(): ConsumerGroupState {
    if (this.members.size === 0) return 'Empty';
    if (this.groupEpoch > this.assignmentEpoch) return 'Assigning';
    for (const m of this.members.values()) if (!m.isReconciledTo(this.assignmentEpoch)) return 'Reconciling';
    return 'Stable';
  }

  /** The state before the last call, to tell a transition (for the group events). */
  takeTransition(): { from: ConsumerGroupState; to: ConsumerGroupState } | null {
    const to = this.state;
    const from = this.lastState;
    this.lastState = to;
    return from === to ? null : { from, to };
  }

  staticMember(instanceId: string): ConsumerGroupMember | undefined {
    const id = this.staticMembers.get(instanceId);
    return id === undefined ? undefined : this.members.get(id);
  }

  /** ConsumerGroup#currentPartitionEpoch: -1 when no member holds the partition. */
  currentPartitionEpoch(topicId: string, partition: number): number {
    return this.partitionEpochs.get(`${topicId}:${partition}`) ?? -1;
  }

  /** ConsumerGroup#updateMember: the member replaces its old self, and the partitions it holds follow. */
  updateMember(member: ConsumerGroupMember): void {
    const old = this.members.get(member.memberId);
    if (old) this.removePartitionEpochs(old);
    this.members.set(member.memberId, member);
    if (member.instanceId !== null) this.staticMembers.set(member.instanceId, member.memberId);
    this.addPartitionEpochs(member);
  }

  /** ConsumerGroup#removeMember, with its target assignment. */
  removeMember(memberId: string): ConsumerGroupMember | undefined {
    const old = this.members.get(memberId);
    if (!old) return undefined;
    this.removePartitionEpochs(old);
    this.members.delete(memberId);
    if (old.instanceId !== null && this.staticMembers.get(old.instanceId) === memberId) this.staticMembers.delete(old.instanceId);
    this.targetAssignment.delete(memberId);
    return old;
  }

  private addPartitionEpochs(m: ConsumerGroupMember): void {
    for (const a of [m.assignedPartitions, m.partitionsPendingRevocation]) for (const [t, ps] of a) for (const p of ps) this.partitionEpochs.set(`${t}:${p}`, m.memberEpoch);
  }

  private removePartitionEpochs(m: ConsumerGroupMember): void {
    for (const a of [m.assignedPartitions, m.partitionsPendingRevocation]) {
      for (const [t, ps] of a) {
        for (const p of ps) {
          const k = `${t}:${p}`;
          if (this.partitionEpochs.get(k) === m.memberEpoch) this.partitionEpochs.delete(k);
        }
      }
    }
  }

  /** ModernGroup#computePreferredServerAssignor: the assignor most members ask for, else the default. */
  preferredServerAssignor(defaultAssignor: string): string {
    const counts = new Map<string, number>();
    for (const m of this.members.values()) if (m.serverAssignorName !== null) counts.set(m.serverAssignorName, (counts.get(m.serverAssignorName) ?? 0) + 1);
    let best = defaultAssignor;
    let most = 0;
    for (const [name, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (n > most) [best, most] = [name, n];
    }
    return best;
  }

  /** Every topic name some member subscribes to, by name or through a resolved regex. */
  subscribedTopicNames(): Set<string> {
    const names = new Set<string>();
    for (const m of this.members.values()) for (const t of this.memberSubscribedTopicNames(m)) names.add(t);
    return names;
  }

  /** The topics one member subscribes to: its names and what its regex resolved to. */
  memberSubscribedTopicNames(m: ConsumerGroupMember): readonly string[] {
    const resolved = m.subscribedTopicRegex === '' ? undefined : this.resolvedRegularExpressions.get(m.subscribedTopicRegex);
    return resolved ? [...new Set([...m.subscribedTopicNames, ...resolved.topics])] : m.subscribedTopicNames;
  }

  /** ConsumerGroup#subscribedRegularExpressions: regex → how many members subscribe to it. */
  subscribedRegularExpressions(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const m of this.members.values()) if (m.subscribedTopicRegex !== '') counts.set(m.subscribedTopicRegex, (counts.get(m.subscribedTopicRegex) ?? 0) + 1);
    return counts;
  }

  numSubscribedMembers(regex: string): number {
    let n = 0;
    for (const m of this.members.values()) if (m.subscribedTopicRegex === regex) n++;
    return n;
  }

  /** The time and topics version of the last resolution (every regex of a group is resolved at once). */
  lastResolvedRegularExpression(): { timestampMs: number; version: number } {
    const first = this.resolvedRegularExpressions.values().next();
    return first.done ? { timestampMs: -Infinity, version: -1 } : first.value;
  }
}
