// The KIP-932 share-group coordinator: ShareGroupHeartbeat and
// ShareGroupDescribe, following Kafka 4.4's GroupMetadataManager
// #shareGroupHeartbeat:
// 1. the member is created or updated; a changed subscribed-topic set (or
//    member set, or subscribed topics' metadata) bumps the group epoch;
// 2. a group epoch above the target assignment epoch makes the `simple`
//    assignor compute a new target, partitions shared when members outnumber
//    them;
// 3. the member moves straight to its target: share groups revoke nothing,
//    since the share partitions, not the assignment, hand out the records.
// Session timeouts (share.session.timeout.ms, else
// group.share.session.timeout.ms) are timers on the cluster clock. A member
// that leaves or times out keeps its share session and the records it holds
// until their locks run out, as in Kafka: only the end of the share session
// (epoch -1, or its connection closing) gives them back at once
// (share/share-partitions.ts).
//
// Differences from Kafka: a subscribed partition's share state is
// initialized at once, so the first heartbeat already carries the partitions
// (Kafka answers an empty assignment first, then the partitions one heartbeat
// later, once the share coordinator has initialized their state); a new
// target is computed at once (no group.share.assignment.interval.ms).
import type { Cluster } from '../cluster.js';
import { subscriptionMetadata, toTopicPartitions } from './modern-group.js';
import type { ErrorName } from '../../protocol/errors.js';
import { ShareGroup, ShareGroupMember, SHARE_GROUP_LEAVE_EPOCH, type ShareGroupState } from './share-group.js';
import { ConsumerGroupError, groupError } from './consumer-group-errors.js';
import { sameAssignment, type Assignment } from './assignors/assignor.js';
import { assignShareGroup, subscribedTopicIdsInJavaOrder, SIMPLE_ASSIGNOR } from './assignors/simple-assignor.js';
import type { ShareGroupDescribeResponseDescribedGroup } from '../../protocol/messages/share-group-describe.js';

/**
 * Broker configs of share groups, by their Kafka names, with Kafka 4.4's
 * defaults (GroupCoordinatorConfig). The session timeout and heartbeat
 * interval are per group (group-configs.ts), with the broker's as defaults.
 */
export interface ShareGroupBrokerConfig {
  'group.share.max.size': number;
}

export const defaultShareGroupBrokerConfig: Readonly<ShareGroupBrokerConfig> = Object.freeze({
  'group.share.max.size': 200,
});

export interface ShareGroupHeartbeatParams {
  groupId: string;
  memberId: string;
  memberEpoch: number;
  rackId: string | null;
  subscribedTopicNames: string[] | null;
  clientId: string;
  clientHost: string;
}

export interface ShareGroupHeartbeatResult {
  error: ErrorName;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  assignment: { topicId: string; partitions: number[] }[] | null;
}

export type DescribedShareGroup = Omit<ShareGroupDescribeResponseDescribedGroup, 'errorCode' | 'authorizedOperations'> & { error: ErrorName };

/** What this coordinator needs from the others: group events, coordinator lookup, whether a group of another type holds the id. */
export interface ShareGroupSharedState {
  emitStateChanged(groupId: string, from: ShareGroupState, to: ShareGroupState, generationId: number): void;
  emitMemberRemoved(groupId: string, memberId: string, reason: 'leave-group' | 'session-timeout'): void;
  coordinatorStatus(groupId: string, nodeId: number): ErrorName | null;
  /** A classic or consumer group of that id exists (even an Empty one). */
  otherGroupExists(groupId: string): boolean;
}

export class ShareGroupCoordinator {
  readonly config: ShareGroupBrokerConfig = { ...defaultShareGroupBrokerConfig };
  private readonly groups = new Map<string, ShareGroup>();

  constructor(
    private readonly cluster: Cluster,
    private readonly shared: ShareGroupSharedState,
  ) {}

  has(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  get(groupId: string): ShareGroup | undefined {
    return this.groups.get(groupId);
  }

  all(): IterableIterator<ShareGroup> {
    return this.groups.values();
  }

  heartbeatIntervalMs(groupId: string): number {
    return this.cluster.groupConfigs.share(groupId).heartbeatIntervalMs;
  }

  private sessionTimeoutMs(groupId: string): number {
    return this.cluster.groupConfigs.share(groupId).sessionTimeoutMs;
  }

  // ---------------------------------------------------------------- ShareGroupHeartbeat

  handleHeartbeat(nodeId: number, req: ShareGroupHeartbeatParams): ShareGroupHeartbeatResult {
    const fail = (e: ConsumerGroupError): ShareGroupHeartbeatResult => ({ error: e.error, errorMessage: e.message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null });
    try {
      throwIfRequestIsInvalid(req);
      const status = this.shared.coordinatorStatus(req.groupId, nodeId);
      if (status) return { ...fail(groupError(status, '')), errorMessage: null };
      if (req.memberEpoch === SHARE_GROUP_LEAVE_EPOCH) return this.shareGroupLeave(req);
      return this.shareGroupHeartbeat(req);
    } catch (e) {
      if (e instanceof ConsumerGroupError) return fail(e);
      throw e;
    }
  }

  /** GroupMetadataManager#shareGroup: the group of that id, if it is a share group. */
  private shareGroup(groupId: string): ShareGroup {
    const group = this.groups.get(groupId);
    if (group) return group;
    if (this.shared.otherGroupExists(groupId)) throw groupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a share group.`);
    throw groupError('GROUP_ID_NOT_FOUND', `Group ${groupId} not found.`);
  }

  private shareGroupHeartbeat(req: ShareGroupHeartbeatParams): ShareGroupHeartbeatResult {
    const joining = req.memberEpoch === 0;
    // getOrMaybeCreateShareGroup: a share join never takes over a group of another type, not even an Empty one.
    let group = this.groups.get(req.groupId);
    if (!group) {
      if (this.shared.otherGroupExists(req.groupId)) throw groupError('GROUP_ID_NOT_FOUND', `Group ${req.groupId} is not a share group.`);
      if (!joining) throw groupError('GROUP_ID_NOT_FOUND', `Share group ${req.groupId} not found.`);
      group = new ShareGroup(req.groupId);
    }
    const max = this.config['group.share.max.size'];
    // throwIfShareGroupIsFull, before the member is looked up.
    if (group.members.size >= max && !group.members.has(req.memberId)) {
      throw groupError('GROUP_MAX_SIZE_REACHED', `The share group has reached its maximum capacity of ${max} members.`);
    }
    let member = group.members.get(req.memberId);
    if (!member) {
      if (!joining) throw groupError('UNKNOWN_MEMBER_ID', `Member ${req.memberId} is not a member of group ${req.groupId}.`);
      member = new ShareGroupMember(req.memberId);
    } else if (!joining) {
      throwIfMemberEpochIsInvalid(member, req.memberEpoch);
    }
    if (!this.groups.has(group.groupId)) {
      this.groups.set(group.groupId, group);
      this.cluster.log.info({ group: group.groupId }, 'share group created');
    }
    if (!group.members.has(member.memberId)) this.cluster.log.info({ group: group.groupId, member: member.memberId }, 'member joins the share group');

    // 1. The member as this request updates it.
    const updated = member.copy();
    updated.sessionTimer = member.sessionTimer;
    if (req.rackId !== null) updated.rackId = req.rackId;
    if (req.subscribedTopicNames !== null) updated.subscribedTopicNames = [...new Set(req.subscribedTopicNames)];
    updated.clientId = req.clientId;
    updated.clientHost = req.clientHost;
    let bumpGroupEpoch = !group.members.has(member.memberId) || !sameSet(member.subscribedTopicNames, updated.subscribedTopicNames);
    group.members.set(updated.memberId, updated);
    const metadata = subscriptionMetadata(this.cluster, group.subscribedTopicNames());
    if (metadata !== group.subscriptionMetadata) {
      group.subscriptionMetadata = metadata;
      bumpGroupEpoch = true;
    }
    if (bumpGroupEpoch) {
      group.groupEpoch += 1;
      this.cluster.log.info({ group: group.groupId, epoch: group.groupEpoch }, 'bumped share group epoch');
    }

    // 2. A new target assignment when the group epoch moved on.
    if (group.groupEpoch > group.assignmentEpoch) this.updateTargetAssignment(group);

    // 3. ShareGroupAssignmentBuilder: straight to the target, within the member's subscription.
    const before = updated.assignedPartitions;
    if (updated.memberEpoch !== group.assignmentEpoch || bumpGroupEpoch) {
      if (updated.memberEpoch !== group.assignmentEpoch) {
        updated.previousMemberEpoch = updated.memberEpoch;
        updated.memberEpoch = group.assignmentEpoch;
      }
      updated.assignedPartitions = this.withinSubscription(group.targetAssignment.get(updated.memberId) ?? new Map(), updated.subscribedTopicNames);
    }
    this.scheduleSessionTimeout(group, updated.memberId);
    this.emitTransition(group);
    const full = joining || req.subscribedTopicNames !== null;
    return {
      error: 'NONE',
      errorMessage: null,
      memberId: updated.memberId,
      memberEpoch: updated.memberEpoch,
      heartbeatIntervalMs: this.heartbeatIntervalMs(group.groupId),
      assignment: full || !sameAssignment(before, updated.assignedPartitions) ? toTopicPartitions(updated.assignedPartitions) : null,
    };
  }

  /** The target's topics the member subscribes to (by id, through the current metadata). */
  private withinSubscription(target: Assignment, names: readonly string[]): Assignment {
    const ids = new Set(names.map((n) => this.cluster.topic(n)?.topicId).filter((id): id is string => id !== undefined));
    return new Map([...target].filter(([t]) => ids.has(t)).map(([t, ps]) => [t, new Set(ps)]));
  }


  /** maybeUpdateTargetAssignment with the simple assignor; every existing partition is assignable (its state initialized at once). */
  private updateTargetAssignment(group: ShareGroup): void {
    const topicId = (name: string) => this.cluster.topic(name)?.topicId;
    const target = assignShareGroup({
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        subscribedTopicIds: subscribedTopicIdsInJavaOrder(m.subscribedTopicNames, topicId),
        currentTarget: group.targetAssignment.get(m.memberId) ?? new Map(),
      })),
      partitionCount: (id) => this.cluster.topicById(id)?.partitions.length ?? 0,
      assignable: (id, p) => p < (this.cluster.topicById(id)?.partitions.length ?? 0),
      homogeneous: group.isHomogeneous(),
    });
    group.targetAssignment.clear();
    for (const [memberId, a] of target) group.targetAssignment.set(memberId, a);
    group.assignmentEpoch = group.groupEpoch;
    this.cluster.log.info({ group: group.groupId, epoch: group.assignmentEpoch, assignor: SIMPLE_ASSIGNOR }, 'computed new share group target assignment');
  }

  // ---------------------------------------------------------------- leaving and fencing

  /** shareGroupLeave: any epoch -1 from a known member leaves. */
  private shareGroupLeave(req: ShareGroupHeartbeatParams): ShareGroupHeartbeatResult {
    const group = this.shareGroup(req.groupId);
    const member = group.members.get(req.memberId);
    if (!member) throw groupError('UNKNOWN_MEMBER_ID', `Member ${req.memberId} is not a member of group ${req.groupId}.`);
    this.fenceMember(group, member, 'leave-group');
    return { error: 'NONE', errorMessage: null, memberId: req.memberId, memberEpoch: SHARE_GROUP_LEAVE_EPOCH, heartbeatIntervalMs: 0, assignment: null };
  }

  /** shareGroupFenceMember: the member goes with its assignment; the group epoch is always bumped. */
  private fenceMember(group: ShareGroup, member: ShareGroupMember, reason: 'leave-group' | 'session-timeout'): void {
    member.sessionTimer?.cancel();
    member.sessionTimer = null;
    group.members.delete(member.memberId);
    group.targetAssignment.delete(member.memberId);
    group.subscriptionMetadata = subscriptionMetadata(this.cluster, group.subscribedTopicNames());
    group.groupEpoch += 1;
    // The last member gone: the (empty) target assignment is at the new epoch.
    if (group.members.size === 0) group.assignmentEpoch = group.groupEpoch;
    this.cluster.log.info({ group: group.groupId, member: member.memberId, reason, epoch: group.groupEpoch }, 'member fenced from the share group');
    this.shared.emitMemberRemoved(group.groupId, member.memberId, reason);
    this.emitTransition(group);
  }

  /** scheduleShareGroupSessionTimeout: every heartbeat starts the member's session again. */
  private scheduleSessionTimeout(group: ShareGroup, memberId: string): void {
    const member = group.members.get(memberId)!;
    member.sessionTimer?.cancel();
    const timer = this.cluster.clock.setTimer(this.sessionTimeoutMs(group.groupId), () => {
      const current = group.members.get(memberId);
      if (this.groups.get(group.groupId) !== group || !current || current.sessionTimer !== timer) return;
      current.sessionTimer = null;
      this.fenceMember(group, current, 'session-timeout');
    });
    member.sessionTimer = timer;
  }

  private emitTransition(group: ShareGroup): void {
    const t = group.takeTransition();
    if (!t) return;
    this.cluster.log.debug({ group: group.groupId, from: t.from, to: t.to, epoch: group.groupEpoch }, 'share group state');
    this.shared.emitStateChanged(group.groupId, t.from, t.to, group.groupEpoch);
  }

  // ---------------------------------------------------------------- ShareGroupDescribe

  /** GroupMetadataManager#shareGroupDescribe for one group id. */
  handleDescribe(nodeId: number, groupId: string): DescribedShareGroup {
    const empty = { groupState: '', groupEpoch: 0, assignmentEpoch: 0, assignorName: '', members: [] };
    const status = this.shared.coordinatorStatus(groupId, nodeId);
    if (status) return { error: status, errorMessage: null, groupId, ...empty };
    let group: ShareGroup;
    try {
      group = this.shareGroup(groupId);
    } catch (e) {
      if (!(e instanceof ConsumerGroupError)) throw e;
      return { error: e.error, errorMessage: e.message, groupId, ...empty };
    }
    return {
      error: 'NONE',
      errorMessage: null,
      groupId,
      groupState: group.state,
      groupEpoch: group.groupEpoch,
      assignmentEpoch: group.assignmentEpoch,
      assignorName: SIMPLE_ASSIGNOR,
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        rackId: m.rackId,
        memberEpoch: m.memberEpoch,
        clientId: m.clientId,
        clientHost: m.clientHost,
        subscribedTopicNames: m.subscribedTopicNames,
        assignment: {
          topicPartitions: [...m.assignedPartitions].map(([topicId, ps]) => ({ topicId, topicName: this.cluster.topicById(topicId)?.name ?? '', partitions: [...ps].sort((x, y) => x - y) })),
        },
      })),
    };
  }

  // ---------------------------------------------------------------- admin, faults, inspection

  /**
   * The group an offsets admin request may change: a share group without
   * members. Alter makes an Empty share group when there is none
   * (getOrMaybeCreateShareGroup); Delete needs one.
   */
  emptyGroupForOffsets(nodeId: number, groupId: string, create: boolean): { error: ErrorName; message: string | null } {
    const status = this.shared.coordinatorStatus(groupId, nodeId);
    if (status) return { error: status, message: null };
    if (this.shared.otherGroupExists(groupId)) return { error: 'GROUP_ID_NOT_FOUND', message: `Group ${groupId} is not a share group.` };
    let group = this.groups.get(groupId);
    if (!group) {
      if (!create) return { error: 'GROUP_ID_NOT_FOUND', message: `Group ${groupId} not found.` };
      this.groups.set(groupId, (group = new ShareGroup(groupId)));
    }
    if (group.members.size > 0) return { error: 'NON_EMPTY_GROUP', message: 'The group is not empty.' };
    return { error: 'NONE', message: null };
  }

  /** DeleteGroups: only an Empty group goes (its share-partition state with it, by the caller). */
  deleteGroup(groupId: string): ErrorName {
    const group = this.groups.get(groupId);
    if (!group) return 'GROUP_ID_NOT_FOUND';
    if (group.members.size > 0) return 'NON_EMPTY_GROUP';
    this.groups.delete(groupId);
    this.shared.emitStateChanged(groupId, group.state, 'Dead', group.groupEpoch);
    return 'NONE';
  }

  /** Fences a member as an expired session would. False when there is no such member. */
  expireMember(groupId: string, memberId: string): boolean {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    if (!group || !member) return false;
    this.fenceMember(group, member, 'session-timeout');
    return true;
  }

  /** Fences every member (a fault): each rejoins, and the records they held go back to be acquired again. */
  forceRebalance(groupId: string): 'rebalancing' | 'empty' | 'unknown' {
    const group = this.groups.get(groupId);
    if (!group) return 'unknown';
    if (group.members.size === 0) return 'empty';
    for (const m of [...group.members.values()]) this.fenceMember(group, m, 'session-timeout');
    return 'rebalancing';
  }

  shutdown(): void {
    for (const g of this.groups.values()) for (const m of g.members.values()) m.sessionTimer?.cancel();
  }

  reset(): number {
    const n = this.groups.size;
    this.shutdown();
    this.groups.clear();
    return n;
  }

  state(groupId: string): ShareGroupState | undefined {
    return this.groups.get(groupId)?.state;
  }
}

/** GroupCoordinatorService#throwIfShareGroupHeartbeatRequestIsInvalid. */
function throwIfRequestIsInvalid(req: ShareGroupHeartbeatParams): void {
  const invalid = (message: string) => groupError('INVALID_REQUEST', message);
  const blank = (s: string | null) => s !== null && s.trim() === '';
  if (blank(req.memberId)) throw invalid("MemberId can't be empty.");
  if (blank(req.groupId)) throw invalid("GroupId can't be empty.");
  if (blank(req.rackId)) throw invalid("RackId can't be empty.");
  if (req.memberEpoch === 0 && (req.subscribedTopicNames === null || req.subscribedTopicNames.length === 0)) throw invalid('SubscribedTopicNames must be set in first request.');
  if (req.memberEpoch < SHARE_GROUP_LEAVE_EPOCH) throw invalid('MemberEpoch is invalid.');
}

/** throwIfShareGroupMemberEpochIsInvalid: the previous epoch is always accepted (a lost response). */
function throwIfMemberEpochIsInvalid(member: ShareGroupMember, received: number): void {
  if (received > member.memberEpoch) {
    throw groupError('FENCED_MEMBER_EPOCH', `The share group member has a greater member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
  if (received < member.memberEpoch && received !== member.previousMemberEpoch) {
    throw groupError(
      'FENCED_MEMBER_EPOCH',
      `The share group member has a smaller member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}), and it does not match the previous member epoch (${member.previousMemberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(a);
  return s.size === new Set(b).size && b.every((x) => s.has(x));
}
