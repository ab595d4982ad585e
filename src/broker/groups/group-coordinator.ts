// The classic group coordinator: JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// offsets and the group admin APIs, with the rules, states and error codes of
// Kafka 3.9's core GroupCoordinator.scala (kafka-semantics.md §6). Method
// names follow Kafka's, so the two read side by side. Kafka's purgatories
// (delayed join, delayed sync, delayed heartbeat) are timers on the cluster
// clock; parked JoinGroup/SyncGroup requests are callbacks.
//
// Every group lives here, whichever node coordinates it; each request is
// checked against the node it reached (NOT_COORDINATOR). When the leader of a
// __consumer_offsets partition changes, its groups are unloaded (parked
// requests get NOT_COORDINATOR) and loaded again on the new coordinator from
// what was last "written": the membership as of the last completed
// SyncGroup (or the last Empty generation), and the committed offsets.
//
// Differences from Kafka: loading is instant (no COORDINATOR_LOAD_IN_PROGRESS);
// commits are stored at once (no pending plain commits, so require_stable only
// sees transactional ones); offsets never expire and Empty groups stay until
// DeleteGroups (no offsets.retention.minutes cleanup).
import { ZooKeeperOffsets } from './zookeeper-offsets.js';
import { EventEmitter } from 'node:events';
import type { ErrorName } from '../../protocol/errors.js';
import type { Cluster, LeaderChange } from '../cluster.js';
import { COORDINATOR_TOPIC_PARTITIONS, GROUP_METADATA_TOPIC, coordinatorFor, partitionFor, type CoordinatorKeyType } from '../coordinators.js';
import { Group, type GroupState, type GroupSummary } from './group.js';
import { Member, joinError, syncError, type GroupProtocol, type JoinCallback, type JoinGroupResult, type SyncCallback } from './member.js';
import { OffsetStore, type TopicPartitionOffset } from './offsets.js';
import { assignedPartitions, type TopicPartitions } from './consumer-protocol.js';
import { ConsumerGroupCoordinator } from './consumer-group-coordinator.js';
import { ShareGroupCoordinator } from './share-group-coordinator.js';
import type { ShareGroup, ShareGroupState } from './share-group.js';
import { SIMPLE_ASSIGNOR } from './assignors/simple-assignor.js';
import type { ConsumerGroup, ConsumerGroupState } from './consumer-group.js';
import type { Assignment } from './assignors/assignor.js';

export type { GroupState } from './group.js';
export type { JoinGroupResult, SyncGroupResult, GroupProtocol } from './member.js';

/** Broker configs of the group coordinator, by their Kafka names. */
export interface GroupCoordinatorConfig {
  /** Kafka's default is 3000; kafkaesque's is 0 so that tests do not wait for a first join. */
  'group.initial.rebalance.delay.ms': number;
  'group.min.session.timeout.ms': number;
  'group.max.session.timeout.ms': number;
  'group.max.size': number;
  'offset.metadata.max.bytes': number;
}

export const defaultGroupConfig: Readonly<GroupCoordinatorConfig> = Object.freeze({
  'group.initial.rebalance.delay.ms': 0,
  'group.min.session.timeout.ms': 6000,
  'group.max.session.timeout.ms': 1_800_000,
  'group.max.size': 2_147_483_647,
  'offset.metadata.max.bytes': 4096,
});

/** A new member's JoinGroup is answered UNKNOWN_MEMBER_ID if the rebalance has not completed after 5 minutes. */
export const NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

/** The group APIs, for the group-id rules of validateGroupStatus. */
export type GroupApi =
  | 'JoinGroup'
  | 'SyncGroup'
  | 'Heartbeat'
  | 'LeaveGroup'
  | 'OffsetCommit'
  | 'OffsetFetch'
  | 'OffsetDelete'
  | 'DescribeGroups'
  | 'DeleteGroups'
  | 'TxnOffsetCommit';

export interface JoinGroupParams {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  /** JoinGroup v4+ from a dynamic member: answer MEMBER_ID_REQUIRED first. */
  requireKnownMemberId: boolean;
  /** JoinGroup v9+: a static leader rejoining a Stable group gets skip_assignment. */
  supportSkippingAssignment: boolean;
  clientId: string;
  clientHost: string;
  rebalanceTimeoutMs: number;
  sessionTimeoutMs: number;
  protocolType: string;
  protocols: GroupProtocol[];
  reason?: string | null;
}

export interface SyncGroupParams {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  protocolType: string | null;
  protocolName: string | null;
  assignments: ReadonlyMap<string, Buffer>;
}

export interface LeavingMember {
  memberId: string;
  groupInstanceId: string | null;
  reason?: string | null;
}

export interface LeaveGroupResult {
  /** A group-level error; the member errors are empty then. */
  error: ErrorName;
  members: { memberId: string; groupInstanceId: string | null; error: ErrorName }[];
}

export interface OffsetCommitParams {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  generationId: number;
  offsets: CommitOffset[];
  /** OffsetCommit's version: a consumer-protocol member must use v9+. */
  apiVersion?: number;
}

export interface CommitOffset {
  topic: string;
  partition: number;
  offset: number;
  /** -1 for none. */
  leaderEpoch: number;
  metadata: string | null;
  /** -1 = now (OffsetCommit v1 may carry one). */
  commitTimestamp?: number;
  expireTimestamp?: number | null;
}

export interface TxnOffset {
  topic: string;
  partition: number;
  offset: number;
  leaderEpoch: number;
  metadata: string | null;
}

export interface FetchedOffset {
  topic: string;
  partition: number;
  offset: number;
  leaderEpoch: number;
  metadata: string;
  error: ErrorName;
}

export interface GroupOverview {
  groupId: string;
  protocolType: string;
  state: GroupState | ConsumerGroupState | ShareGroupState;
  groupType: 'classic' | 'consumer' | 'share';
}

/** The library's view of a group, for tests and the control plane. */
export interface GroupDescription {
  groupId: string;
  /** "consumer" for a KIP-848 group, "share" for a KIP-932 one: their generation is the group epoch. */
  groupType: 'classic' | 'consumer' | 'share';
  state: GroupState | ConsumerGroupState | ShareGroupState;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leaderId: string | null;
  coordinator: number;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
    /** The consumer protocol assignment, decoded (null when not a consumer assignment). */
    assignment: TopicPartitions[] | null;
  }[];
  offsets: TopicPartitionOffset[];
}

export type MemberRemovalReason = 'leave-group' | 'session-timeout' | 'join-timeout' | 'rebalance-timeout' | 'sync-timeout' | 'group-max-size';

export interface GroupCoordinatorEvents {
  'state-changed': [change: { groupId: string; from: GroupState | ConsumerGroupState; to: GroupState | ConsumerGroupState; generationId: number }];
  'member-removed': [event: { groupId: string; memberId: string; groupInstanceId: string | null; reason: MemberRemovalReason }];
  'offsets-committed': [event: { groupId: string; offsets: TopicPartitionOffset[] }];
}

const EMPTY = Buffer.alloc(0);

export class GroupCoordinator extends EventEmitter<GroupCoordinatorEvents> {
  readonly config: GroupCoordinatorConfig = { ...defaultGroupConfig };
  private readonly groups = new Map<string, Group>();
  /** OffsetCommit/OffsetFetch v0 on the ZooKeeper-era profile: offsets a 2.x broker kept in ZooKeeper. */
  readonly zookeeperOffsets = new ZooKeeperOffsets();
  /** Leader of each __consumer_offsets partition as last seen: a change moves its groups. */
  private readonly owners = new Map<number, number>();
  /** Orders commit records as their offsets in __consumer_offsets would. */
  private commitSeq = 0;
  /** KIP-848 groups (the "consumer" protocol); the offset and admin APIs below ask it first. */
  readonly consumerGroups: ConsumerGroupCoordinator;
  /** KIP-932 share groups: no committed offsets; their state is in the share partitions (cluster.shares). */
  readonly shareGroups: ShareGroupCoordinator;

  constructor(private readonly cluster: Cluster) {
    super();
    this.shareGroups = new ShareGroupCoordinator(cluster, {
      emitStateChanged: (groupId, from, to, generationId) => this.emit('state-changed', { groupId, from, to, generationId }),
      emitMemberRemoved: (groupId, memberId, reason) => this.emit('member-removed', { groupId, memberId, groupInstanceId: null, reason }),
      coordinatorStatus: (groupId, nodeId) => (this.coordinatorFor(0, groupId) === nodeId ? null : 'NOT_COORDINATOR'),
      otherGroupExists: (groupId) => this.consumerGroups.has(groupId) || (this.groups.get(groupId)?.is('Dead') ?? true) === false,
    });
    this.consumerGroups = new ConsumerGroupCoordinator(cluster, {
      emitStateChanged: (groupId, from, to, generationId) => this.emit('state-changed', { groupId, from, to, generationId }),
      emitMemberRemoved: (groupId, memberId, groupInstanceId, reason) => this.emit('member-removed', { groupId, memberId, groupInstanceId, reason }),
      coordinatorStatus: (groupId, nodeId) => (this.coordinatorFor(0, groupId) === nodeId ? null : 'NOT_COORDINATOR'),
      shareGroup: (groupId) => this.shareGroups.has(groupId),
      classicGroup: (groupId) => {
        const g = this.groups.get(groupId);
        return !g || g.is('Dead') ? 'absent' : g.is('Empty') ? 'empty' : 'non-empty';
      },
      takeEmptyClassicGroup: (groupId) => {
        const g = this.groups.get(groupId);
        if (!g?.is('Empty')) return undefined;
        this.cancelTimers(g);
        this.groups.delete(groupId);
        return g.offsets;
      },
    });
    cluster.on('topic-created', (name) => {
      if (name !== GROUP_METADATA_TOPIC) return;
      for (const p of cluster.topic(name)!.partitions) this.owners.set(p.index, p.leader);
    });
    cluster.on('leader-changed', (change) => this.onLeaderChanged(change));
    cluster.on('topic-deleted', (name) => this.onTopicDeleted(name));
  }

  private get clock() {
    return this.cluster.clock;
  }

  /** The node coordinating a group (key type 0) or transactional id (key type 1), or -1. */
  coordinatorFor(keyType: CoordinatorKeyType, key: string): number {
    return coordinatorFor(this.cluster, keyType, key);
  }

  // ---------------------------------------------------------------- group status

  private isValidGroupId(groupId: string | null, api: GroupApi): boolean {
    // The offset APIs, DescribeGroups and DeleteGroups accept "" for backwards compatibility.
    if (api === 'OffsetCommit' || api === 'OffsetFetch' || api === 'DescribeGroups' || api === 'DeleteGroups') return groupId !== null;
    return groupId !== null && groupId.length > 0;
  }

  /** validateGroupStatus: INVALID_GROUP_ID, then NOT_COORDINATOR when nodeId does not coordinate the group. */
  groupStatus(groupId: string | null, api: GroupApi, nodeId: number): ErrorName | null {
    if (!this.isValidGroupId(groupId, api)) return 'INVALID_GROUP_ID';
    if (this.coordinatorFor(0, groupId!) !== nodeId) return 'NOT_COORDINATOR';
    return null;
  }

  private addGroup(groupId: string): Group {
    const group = new Group(groupId, 'Empty', () => this.clock.now(), new OffsetStore(), (g, from) => this.onTransition(g, from));
    this.groups.set(groupId, group);
    return group;
  }

  private onTransition(group: Group, from: GroupState): void {
    this.cluster.log.debug({ group: group.groupId, from, to: group.state, generation: group.generationId }, 'group state');
    this.emit('state-changed', { groupId: group.groupId, from, to: group.state, generationId: group.generationId });
  }

  // ---------------------------------------------------------------- JoinGroup

  private acceptJoiningMember(group: Group, memberId: string): boolean {
    const max = this.config['group.max.size'];
    switch (group.state) {
      case 'Empty':
      case 'Dead':
        return true;
      case 'PreparingRebalance':
        return (group.has(memberId) && group.get(memberId).isAwaitingJoin) || group.numAwaiting < max;
      case 'CompletingRebalance':
      case 'Stable':
        return group.has(memberId) || group.size < max;
    }
  }

  handleJoinGroup(nodeId: number, req: JoinGroupParams, callback: JoinCallback): void {
    const status = this.groupStatus(req.groupId, 'JoinGroup', nodeId);
    if (status) return callback(joinError(req.memberId, status));
    if (req.sessionTimeoutMs < this.config['group.min.session.timeout.ms'] || req.sessionTimeoutMs > this.config['group.max.session.timeout.ms']) {
      return callback(joinError(req.memberId, 'INVALID_SESSION_TIMEOUT'));
    }
    const isUnknownMember = req.memberId === '';
    // GroupMetadataManager#classicGroupJoin: a consumer group takes no classic member here (no online upgrade).
    if (this.consumerGroups.has(req.groupId)) return callback(joinError(req.memberId, 'GROUP_ID_NOT_FOUND'));
    // A share group takes no classic member (GroupMetadataManager#classicGroupJoin).
    if (this.shareGroups.has(req.groupId)) return callback(joinError(req.memberId, 'INCONSISTENT_GROUP_PROTOCOL'));
    let group = this.groups.get(req.groupId);
    if (!group) {
      // A member id for a group that does not exist is rejected; an empty one creates the group.
      if (!isUnknownMember) return callback(joinError(req.memberId, 'UNKNOWN_MEMBER_ID'));
      group = this.addGroup(req.groupId);
    }
    if (!this.acceptJoiningMember(group, req.memberId)) {
      const member = group.members.get(req.memberId);
      group.remove(req.memberId);
      if (member) this.emitRemoved(group, member, 'group-max-size');
      callback(joinError('', 'GROUP_MAX_SIZE_REACHED'));
    } else if (isUnknownMember) {
      this.doNewMemberJoinGroup(group, req, callback);
    } else {
      this.doCurrentMemberJoinGroup(group, req, callback);
    }
    if (group.is('PreparingRebalance')) this.tryCompleteJoin(group);
  }

  private doNewMemberJoinGroup(group: Group, req: JoinGroupParams, callback: JoinCallback): void {
    if (group.is('Dead')) return callback(joinError('', 'COORDINATOR_NOT_AVAILABLE'));
    if (!group.supportsProtocols(req.protocolType, new Set(req.protocols.map((p) => p.name)))) return callback(joinError('', 'INCONSISTENT_GROUP_PROTOCOL'));
    const newMemberId = group.generateMemberId(req.clientId, req.groupInstanceId);
    if (req.groupInstanceId !== null) {
      const oldMemberId = group.currentStaticMemberId(req.groupInstanceId);
      if (oldMemberId !== undefined) this.updateStaticMemberAndRebalance(group, oldMemberId, newMemberId, req, callback);
      else this.addMemberAndRebalance(group, newMemberId, req, callback);
    } else if (req.requireKnownMemberId) {
      // The member must come back with this id; until then it only holds a place.
      const timer = this.clock.setTimer(req.sessionTimeoutMs, () => this.onExpirePendingMember(group, newMemberId));
      group.addPendingMember(newMemberId, timer);
      callback(joinError(newMemberId, 'MEMBER_ID_REQUIRED'));
    } else {
      this.addMemberAndRebalance(group, newMemberId, req, callback);
    }
  }

  /** Static membership: FENCED_INSTANCE_ID when the instance id belongs to another member id. */
  private validateCurrentMember(group: Group, memberId: string, groupInstanceId: string | null): ErrorName | null {
    if (groupInstanceId !== null) {
      const current = group.currentStaticMemberId(groupInstanceId);
      if (current === undefined) return 'UNKNOWN_MEMBER_ID';
      if (current !== memberId) return 'FENCED_INSTANCE_ID';
    }
    return group.has(memberId) ? null : 'UNKNOWN_MEMBER_ID';
  }

  private doCurrentMemberJoinGroup(group: Group, req: JoinGroupParams, callback: JoinCallback): void {
    const { memberId } = req;
    if (group.is('Dead')) return callback(joinError(memberId, 'COORDINATOR_NOT_AVAILABLE'));
    if (!group.supportsProtocols(req.protocolType, new Set(req.protocols.map((p) => p.name)))) return callback(joinError(memberId, 'INCONSISTENT_GROUP_PROTOCOL'));
    if (group.isPendingMember(memberId)) {
      // Pending ids are only handed to dynamic members; Kafka throws IllegalStateException here.
      if (req.groupInstanceId !== null) return callback(joinError(memberId, 'UNKNOWN_SERVER_ERROR'));
      return this.addMemberAndRebalance(group, memberId, req, callback);
    }
    const error = this.validateCurrentMember(group, memberId, req.groupInstanceId);
    if (error) return callback(joinError(memberId, error));
    const member = group.get(memberId);
    switch (group.state) {
      case 'PreparingRebalance':
        return this.updateMemberAndRebalance(group, member, req, callback);
      case 'CompletingRebalance':
        // Same metadata: the member missed its JoinGroup answer; give it the current generation again.
        if (member.matches(req.protocols)) return callback(this.joinAnswer(group, member, group.isLeader(memberId)));
        return this.updateMemberAndRebalance(group, member, req, callback);
      case 'Stable':
        // The leader's JoinGroup forces a rebalance (e.g. topic metadata changed); a follower's only if its metadata changed.
        if (group.isLeader(memberId) || !member.matches(req.protocols)) return this.updateMemberAndRebalance(group, member, req, callback);
        return callback(this.joinAnswer(group, member, false));
      case 'Empty':
      case 'Dead':
        return callback(joinError(memberId, 'UNKNOWN_MEMBER_ID'));
    }
  }

  private joinAnswer(group: Group, member: Member, withMembers: boolean, leaderId = group.leaderId ?? '', skipAssignment = false): JoinGroupResult {
    return {
      error: 'NONE',
      memberId: member.memberId,
      generationId: group.generationId,
      protocolType: group.protocolType,
      protocolName: group.protocolName,
      leaderId,
      skipAssignment,
      members: withMembers ? group.currentMemberMetadata() : [],
    };
  }

  private addMemberAndRebalance(group: Group, memberId: string, req: JoinGroupParams, callback: JoinCallback): void {
    const member = new Member(memberId, req.groupInstanceId, req.clientId, req.clientHost, req.rebalanceTimeoutMs, req.sessionTimeoutMs, req.protocolType, req.protocols);
    member.isNew = true;
    // A join during generation 0's initial delay extends the delay.
    if (group.is('PreparingRebalance') && group.generationId === 0) group.newMemberAdded = true;
    group.add(member, callback);
    // A new member cannot heartbeat before it has its first answer, so its JoinGroup itself times out.
    this.scheduleExpiration(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS);
    this.maybePrepareRebalance(group);
  }

  private updateStaticMemberAndRebalance(group: Group, oldMemberId: string, newMemberId: string, req: JoinGroupParams, callback: JoinCallback): void {
    const currentLeader = group.leaderId ?? '';
    const member = group.replaceStaticMember(req.groupInstanceId!, oldMemberId, newMemberId);
    this.completeAndScheduleNextHeartbeatExpiration(group, member);
    group.updateMember(member, req.protocols, req.rebalanceTimeoutMs, req.sessionTimeoutMs, callback);
    switch (group.state) {
      case 'Stable': {
        // No rebalance if the group would keep its protocol: persist the new member id and answer at once.
        if (group.protocolName !== group.selectProtocol()) return this.maybePrepareRebalance(group);
        this.storeGroup(group, new Map([...group.members.values()].map((m) => [m.memberId, m.assignment])));
        if (req.supportSkippingAssignment) {
          // v9+: the leader learns it leads, but must not run the assignor (the group stays Stable).
          const isLeader = group.isLeader(newMemberId);
          group.maybeInvokeJoinCallback(member, this.joinAnswer(group, member, isLeader, group.leaderId ?? '', isLeader));
        } else {
          // Below v9: the old leader id, so that a rejoining leader does not think it must assign.
          group.maybeInvokeJoinCallback(member, this.joinAnswer(group, member, false, currentLeader));
        }
        return;
      }
      case 'CompletingRebalance':
        // The leader may already be assigning for the old member id.
        return this.prepareRebalance(group);
      case 'PreparingRebalance':
        return;
      case 'Empty':
      case 'Dead':
        throw new Error(`Group ${group.groupId} was not supposed to be in the state ${group.state} when the unknown static member ${req.groupInstanceId} rejoins.`);
    }
  }

  private updateMemberAndRebalance(group: Group, member: Member, req: JoinGroupParams, callback: JoinCallback): void {
    group.updateMember(member, req.protocols, req.rebalanceTimeoutMs, req.sessionTimeoutMs, callback);
    this.maybePrepareRebalance(group);
  }

  private maybePrepareRebalance(group: Group): void {
    if (group.canRebalance) this.prepareRebalance(group);
  }

  /** Members parked in SyncGroup get REBALANCE_IN_PROGRESS; the group waits for every member's JoinGroup. */
  private prepareRebalance(group: Group): void {
    if (group.is('CompletingRebalance')) this.resetAndPropagateAssignmentError(group, 'REBALANCE_IN_PROGRESS');
    this.removeSyncExpiration(group);
    const initial = group.is('Empty');
    const rebalanceTimeoutMs = group.rebalanceTimeoutMs;
    group.transitionTo('PreparingRebalance');
    this.cluster.log.info({ group: group.groupId, generation: group.generationId }, 'preparing to rebalance');
    group.joinTimer?.cancel();
    if (initial) {
      // InitialDelayedJoin: wait group.initial.rebalance.delay.ms for more members, at most the rebalance timeout.
      const delay = this.config['group.initial.rebalance.delay.ms'];
      this.scheduleInitialDelayedJoin(group, delay, delay, Math.max(rebalanceTimeoutMs - delay, 0));
    } else {
      this.scheduleDelayedJoin(group, rebalanceTimeoutMs);
    }
  }

  private scheduleInitialDelayedJoin(group: Group, configuredDelay: number, delayMs: number, remainingMs: number): void {
    group.joinIsInitialDelay = true;
    group.joinTimer = this.clock.setTimer(delayMs, () => {
      group.joinTimer = null;
      if (group.newMemberAdded && remainingMs !== 0) {
        group.newMemberAdded = false;
        this.scheduleInitialDelayedJoin(group, configuredDelay, Math.min(configuredDelay, remainingMs), Math.max(remainingMs - delayMs, 0));
      } else {
        this.onCompleteJoin(group);
      }
    });
  }

  /** DelayedJoin: completes as soon as every member has rejoined, or at the rebalance timeout. */
  private scheduleDelayedJoin(group: Group, timeoutMs: number): void {
    group.joinTimer = null;
    group.joinIsInitialDelay = false;
    if (group.hasAllMembersJoined) return this.onCompleteJoin(group);
    group.joinTimer = this.clock.setTimer(timeoutMs, () => {
      group.joinTimer = null;
      this.onCompleteJoin(group);
    });
  }

  /** The purgatory's checkAndComplete on the group's join: a DelayedJoin completes early, the initial delay never does. */
  private tryCompleteJoin(group: Group): void {
    if (!group.joinTimer || group.joinIsInitialDelay || !group.hasAllMembersJoined) return;
    group.joinTimer.cancel();
    group.joinTimer = null;
    this.onCompleteJoin(group);
  }

  private onCompleteJoin(group: Group): void {
    // Dynamic members that did not rejoin in time are dropped; static ones are kept.
    for (const m of [...group.members.values()]) {
      if (!m.isAwaitingJoin && !m.isStatic) {
        group.remove(m.memberId);
        this.emitRemoved(group, m, 'rebalance-timeout');
      }
    }
    if (group.is('Dead')) return;
    if (!group.maybeElectNewJoinedLeader() && group.size > 0) {
      // Nobody rejoined: wait again until sessions expire the absent (static) members.
      this.cluster.log.error({ group: group.groupId }, 'could not complete rebalance because no members rejoined');
      return this.scheduleDelayedJoin(group, group.rebalanceTimeoutMs);
    }
    group.initNextGeneration();
    if (group.is('Empty')) {
      this.storeGroup(group, new Map());
      return;
    }
    this.cluster.log.info({ group: group.groupId, generation: group.generationId, members: group.size }, 'group stabilized');
    for (const member of group.members.values()) {
      group.maybeInvokeJoinCallback(member, this.joinAnswer(group, member, group.isLeader(member.memberId)));
      this.completeAndScheduleNextHeartbeatExpiration(group, member);
      member.isNew = false;
      group.pendingSyncMembers.add(member.memberId);
    }
    this.schedulePendingSync(group);
  }

  private onExpirePendingMember(group: Group, memberId: string): void {
    if (group.is('Dead') || !group.isPendingMember(memberId)) return;
    this.removePendingMemberAndUpdateGroup(group, memberId);
  }

  private removePendingMemberAndUpdateGroup(group: Group, memberId: string): void {
    group.remove(memberId);
    if (group.is('PreparingRebalance')) this.tryCompleteJoin(group);
  }

  // ---------------------------------------------------------------- SyncGroup

  handleSyncGroup(nodeId: number, req: SyncGroupParams, callback: SyncCallback): void {
    const status = this.groupStatus(req.groupId, 'SyncGroup', nodeId);
    if (status) return callback(syncError(status));
    const group = this.groups.get(req.groupId);
    if (!group) return callback(syncError('UNKNOWN_MEMBER_ID'));
    this.doSyncGroup(group, req, callback);
  }

  private validateSyncGroup(group: Group, req: SyncGroupParams): ErrorName | null {
    if (group.is('Dead')) return 'COORDINATOR_NOT_AVAILABLE';
    const error = this.validateCurrentMember(group, req.memberId, req.groupInstanceId);
    if (error) return error;
    if (req.generationId !== group.generationId) return 'ILLEGAL_GENERATION';
    if (req.protocolType !== null && req.protocolType !== group.protocolType) return 'INCONSISTENT_GROUP_PROTOCOL';
    if (req.protocolName !== null && req.protocolName !== group.protocolName) return 'INCONSISTENT_GROUP_PROTOCOL';
    return null;
  }

  private doSyncGroup(group: Group, req: SyncGroupParams, callback: SyncCallback): void {
    const error = this.validateSyncGroup(group, req);
    if (error) return callback(syncError(error));
    switch (group.state) {
      case 'Empty':
        return callback(syncError('UNKNOWN_MEMBER_ID'));
      case 'PreparingRebalance':
        return callback(syncError('REBALANCE_IN_PROGRESS'));
      case 'CompletingRebalance': {
        group.get(req.memberId).awaitingSync = callback;
        this.removePendingSyncMember(group, req.memberId);
        if (!group.isLeader(req.memberId)) return;
        // The leader's assignment: members it left out get empty bytes, unknown ids are ignored.
        const assignment = new Map<string, Buffer>();
        for (const id of group.members.keys()) assignment.set(id, req.assignments.get(id) ?? EMPTY);
        this.storeGroup(group, assignment);
        for (const m of group.members.values()) m.assignment = assignment.get(m.memberId)!;
        this.propagateAssignment(group, 'NONE');
        group.transitionTo('Stable');
        return;
      }
      case 'Stable': {
        this.removePendingSyncMember(group, req.memberId);
        const member = group.get(req.memberId);
        callback({ error: 'NONE', protocolType: group.protocolType, protocolName: group.protocolName, assignment: member.assignment });
        this.completeAndScheduleNextHeartbeatExpiration(group, member);
        return;
      }
      case 'Dead':
        throw new Error(`Reached unexpected condition for Dead group ${group.groupId}`);
    }
  }

  private resetAndPropagateAssignmentError(group: Group, error: ErrorName): void {
    for (const m of group.members.values()) m.assignment = EMPTY;
    this.propagateAssignment(group, error);
  }

  private propagateAssignment(group: Group, error: ErrorName): void {
    const ok = error === 'NONE';
    for (const member of group.members.values()) {
      const answered = group.maybeInvokeSyncCallback(member, {
        error,
        protocolType: ok ? group.protocolType : null,
        protocolName: ok ? group.protocolName : null,
        assignment: member.assignment,
      });
      // A session that ran out while the member waited for its assignment starts again now.
      if (answered) this.completeAndScheduleNextHeartbeatExpiration(group, member);
    }
  }

  private removePendingSyncMember(group: Group, memberId: string): void {
    group.pendingSyncMembers.delete(memberId);
    this.maybeCompleteSyncExpiration(group);
  }

  private removeSyncExpiration(group: Group): void {
    group.pendingSyncMembers.clear();
    this.maybeCompleteSyncExpiration(group);
  }

  /** DelayedSync#tryComplete: done once every member has synced (or the group moved on). */
  private maybeCompleteSyncExpiration(group: Group): void {
    if (group.syncTimer && group.hasReceivedSyncFromAllMembers) {
      group.syncTimer.cancel();
      group.syncTimer = null;
    }
  }

  private schedulePendingSync(group: Group): void {
    group.syncTimer?.cancel();
    const generationId = group.generationId;
    group.syncTimer = this.clock.setTimer(group.rebalanceTimeoutMs, () => {
      group.syncTimer = null;
      this.onExpirePendingSync(group, generationId);
    });
  }

  /** Members that never sent their SyncGroup within the rebalance timeout are removed, and the group rebalances. */
  private onExpirePendingSync(group: Group, generationId: number): void {
    if (generationId !== group.generationId) return;
    if (!group.is('CompletingRebalance') && !group.is('Stable')) return;
    if (group.hasReceivedSyncFromAllMembers) return;
    for (const memberId of [...group.pendingSyncMembers]) {
      const member = group.get(memberId);
      group.remove(memberId);
      this.emitRemoved(group, member, 'sync-timeout');
    }
    this.prepareRebalance(group);
  }

  // ---------------------------------------------------------------- Heartbeat and sessions

  handleHeartbeat(nodeId: number, groupId: string, memberId: string, groupInstanceId: string | null, generationId: number): ErrorName {
    const status = this.groupStatus(groupId, 'Heartbeat', nodeId);
    if (status) return status;
    const group = this.groups.get(groupId);
    if (!group) return 'UNKNOWN_MEMBER_ID';
    if (group.is('Dead')) return 'COORDINATOR_NOT_AVAILABLE';
    const error = this.validateCurrentMember(group, memberId, groupInstanceId);
    if (error) return error;
    if (generationId !== group.generationId) return 'ILLEGAL_GENERATION';
    switch (group.state) {
      case 'Empty':
        return 'UNKNOWN_MEMBER_ID';
      case 'CompletingRebalance':
      case 'Stable':
        this.completeAndScheduleNextHeartbeatExpiration(group, group.get(memberId));
        return 'NONE';
      case 'PreparingRebalance':
        // The session still counts: the member learns it must rejoin.
        this.completeAndScheduleNextHeartbeatExpiration(group, group.get(memberId));
        return 'REBALANCE_IN_PROGRESS';
      case 'Dead':
        throw new Error(`Reached unexpected condition for Dead group ${groupId}`);
    }
  }

  private completeAndScheduleNextHeartbeatExpiration(group: Group, member: Member): void {
    this.scheduleExpiration(group, member, member.sessionTimeoutMs);
  }

  private scheduleExpiration(group: Group, member: Member, timeoutMs: number): void {
    member.heartbeatTimer?.cancel();
    const memberId = member.memberId;
    const timer = this.clock.setTimer(timeoutMs, () => {
      if (member.heartbeatTimer === timer) member.heartbeatTimer = null;
      this.onExpireHeartbeat(group, memberId);
    });
    member.heartbeatTimer = timer;
  }

  private onExpireHeartbeat(group: Group, memberId: string): void {
    if (group.is('Dead') || !group.has(memberId)) return;
    const member = group.get(memberId);
    if (member.hasSatisfiedHeartbeat) return;
    this.cluster.log.info({ group: group.groupId, member: memberId }, 'member failed, removing it from the group');
    this.removeMemberAndUpdateGroup(group, member, member.isNew ? 'join-timeout' : 'session-timeout');
  }

  private removeMemberAndUpdateGroup(group: Group, member: Member, reason: MemberRemovalReason): void {
    // A new member may still wait for its JoinGroup: it is told to start over.
    group.maybeInvokeJoinCallback(member, joinError('', 'UNKNOWN_MEMBER_ID'));
    group.remove(member.memberId);
    this.emitRemoved(group, member, reason);
    switch (group.state) {
      case 'Stable':
      case 'CompletingRebalance':
        return this.maybePrepareRebalance(group);
      case 'PreparingRebalance':
        return this.tryCompleteJoin(group);
      default:
        return;
    }
  }

  private emitRemoved(group: Group, member: Member, reason: MemberRemovalReason): void {
    this.cluster.log.debug({ group: group.groupId, member: member.memberId, reason }, 'member removed');
    this.emit('member-removed', { groupId: group.groupId, memberId: member.memberId, groupInstanceId: member.groupInstanceId, reason });
  }

  // ---------------------------------------------------------------- LeaveGroup

  handleLeaveGroup(nodeId: number, groupId: string, leaving: readonly LeavingMember[]): LeaveGroupResult {
    const status = this.groupStatus(groupId, 'LeaveGroup', nodeId);
    if (status) return { error: status, members: [] };
    const answer = (m: LeavingMember, error: ErrorName) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, error });
    const group = this.groups.get(groupId);
    if (!group) return { error: 'NONE', members: leaving.map((m) => answer(m, 'UNKNOWN_MEMBER_ID')) };
    if (group.is('Dead')) return { error: 'COORDINATOR_NOT_AVAILABLE', members: [] };
    const members = leaving.map((m) => {
      if (m.memberId === '') {
        // Admin removal by group.instance.id (kafka-consumer-groups --delete-members).
        const current = m.groupInstanceId === null ? undefined : group.currentStaticMemberId(m.groupInstanceId);
        if (current === undefined) return answer(m, 'UNKNOWN_MEMBER_ID');
        this.removeMemberAndUpdateGroup(group, group.get(current), 'leave-group');
        return answer(m, 'NONE');
      }
      if (group.isPendingMember(m.memberId)) {
        this.removePendingMemberAndUpdateGroup(group, m.memberId);
        return answer(m, 'NONE');
      }
      const error = this.validateCurrentMember(group, m.memberId, m.groupInstanceId);
      if (error) return answer(m, error);
      this.removeMemberAndUpdateGroup(group, group.get(m.memberId), 'leave-group');
      return answer(m, 'NONE');
    });
    return { error: 'NONE', members };
  }

  // ---------------------------------------------------------------- offsets

  /** validateOffsetCommit of GroupCoordinator.scala; transactional commits skip the "members only" rule. */
  private validateOffsetCommit(group: Group, generationId: number, memberId: string, groupInstanceId: string | null, isTransactional: boolean): ErrorName | null {
    if (group.is('Dead')) return 'COORDINATOR_NOT_AVAILABLE';
    // Generation -1: the admin client or a consumer without group management; allowed while the group is Empty.
    if (generationId < 0 && group.is('Empty')) return null;
    if (generationId >= 0 || memberId !== '' || groupInstanceId !== null) {
      const error = this.validateCurrentMember(group, memberId, groupInstanceId);
      if (error) return error;
      return generationId !== group.generationId ? 'ILLEGAL_GENERATION' : null;
    }
    if (!isTransactional && !group.is('Empty')) return 'UNKNOWN_MEMBER_ID';
    return null;
  }

  /** OffsetCommit: an error per offset, in request order. The caller has checked the topics exist. */
  handleCommitOffsets(nodeId: number, req: OffsetCommitParams): ErrorName[] {
    const all = (e: ErrorName) => req.offsets.map(() => e);
    const status = this.groupStatus(req.groupId, 'OffsetCommit', nodeId);
    if (status) return all(status);
    // ShareGroup#validateOffsetCommit: a share group commits no offsets.
    if (this.shareGroups.has(req.groupId)) return all('GROUP_ID_NOT_FOUND');
    const consumerGroup = this.consumerGroups.get(req.groupId);
    if (consumerGroup) {
      const invalid = this.consumerGroups.validateOffsetCommit(consumerGroup, req.memberId, req.generationId, false, req.apiVersion ?? 9);
      return invalid ? all(invalid.error) : this.storeOffsets(consumerGroup, req.offsets);
    }
    let group = this.groups.get(req.groupId);
    if (!group) {
      // A group that does not exist takes commits only from groupless consumers (generation < 0).
      if (req.generationId >= 0) return all('ILLEGAL_GENERATION');
      group = this.addGroup(req.groupId);
    }
    const error = this.validateOffsetCommit(group, req.generationId, req.memberId, req.groupInstanceId, false);
    if (error) return all(error);
    switch (group.state) {
      case 'Empty':
        return this.storeOffsets(group, req.offsets);
      case 'Stable':
      case 'PreparingRebalance':
        // A commit is a sign of life; during PreparingRebalance the heartbeat answer tells the member to rejoin.
        this.completeAndScheduleNextHeartbeatExpiration(group, group.get(req.memberId));
        return this.storeOffsets(group, req.offsets);
      case 'CompletingRebalance':
        return all('REBALANCE_IN_PROGRESS');
      case 'Dead':
        throw new Error(`Logic error: unexpected group state ${group.state}`);
    }
  }

  /** offset.metadata.max.bytes (4096) exceeded: OFFSET_METADATA_TOO_LARGE. */
  metadataTooLarge(metadata: string | null): boolean {
    return metadata !== null && metadata.length > this.config['offset.metadata.max.bytes'];
  }

  private storeOffsets(group: { readonly groupId: string; readonly offsets: OffsetStore }, offsets: readonly CommitOffset[]): ErrorName[] {
    const now = this.clock.now();
    const stored: TopicPartitionOffset[] = [];
    const errors = offsets.map((o): ErrorName => {
      if (this.metadataTooLarge(o.metadata)) return 'OFFSET_METADATA_TOO_LARGE';
      const value = {
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata ?? '',
        commitTimestamp: o.commitTimestamp === undefined || o.commitTimestamp === -1 ? now : o.commitTimestamp,
        expireTimestamp: o.expireTimestamp ?? null,
        recordSeq: ++this.commitSeq,
      };
      group.offsets.commit(o.topic, o.partition, value);
      stored.push({ topic: o.topic, partition: o.partition, ...value });
      return 'NONE';
    });
    if (stored.length) this.emit('offsets-committed', { groupId: group.groupId, offsets: stored });
    return errors;
  }

  /**
   * OffsetFetch for one group: no membership or state check. partitions null
   * means every partition with a committed offset; a partition without one
   * (or an unknown group) answers offset -1.
   */
  handleFetchOffsets(
    nodeId: number,
    groupId: string,
    requireStable: boolean,
    partitions: readonly { topic: string; partition: number }[] | null,
    member: { memberId: string | null; memberEpoch: number } = { memberId: null, memberEpoch: -1 },
  ): { error: ErrorName; offsets: FetchedOffset[] } {
    const status = this.groupStatus(groupId, 'OffsetFetch', nodeId);
    if (status) return { error: status, offsets: [] };
    const none = (topic: string, partition: number, error: ErrorName = 'NONE'): FetchedOffset => ({ topic, partition, offset: -1, leaderEpoch: -1, metadata: '', error });
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup) {
      // OffsetFetch v9+ names the member: ConsumerGroup#validateOffsetFetch.
      const error = this.consumerGroups.validateOffsetFetch(consumerGroup, member.memberId, member.memberEpoch);
      if (error !== 'NONE') return { error, offsets: [] };
    }
    const group = consumerGroup ?? this.groups.get(groupId);
    if (!group || (!consumerGroup && (group as Group).is('Dead'))) return { error: 'NONE', offsets: (partitions ?? []).map((p) => none(p.topic, p.partition)) };
    const wanted = partitions ?? group.offsets.all();
    return {
      error: 'NONE',
      offsets: wanted.map(({ topic, partition }) => {
        if (requireStable && group.offsets.hasPending(topic, partition)) return none(topic, partition, 'UNSTABLE_OFFSET_COMMIT');
        const o = group.offsets.get(topic, partition);
        return o ? { topic, partition, offset: o.offset, leaderEpoch: o.leaderEpoch, metadata: o.metadata, error: 'NONE' } : none(topic, partition);
      }),
    };
  }

  /** OffsetDelete: a group error, or an error per partition. */
  handleDeleteOffsets(nodeId: number, groupId: string, partitions: readonly { topic: string; partition: number }[]): { error: ErrorName; partitions: ErrorName[] } {
    const status = this.groupStatus(groupId, 'OffsetDelete', nodeId);
    if (status) return { error: status, partitions: [] };
    if (this.shareGroups.has(groupId)) return { error: 'GROUP_ID_NOT_FOUND', partitions: [] };
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup) {
      // ConsumerGroup#validateDeleteGroup/isSubscribedToTopic: offsets of subscribed topics stay.
      const subscribed = consumerGroup.subscribedTopicNames();
      return {
        error: 'NONE',
        partitions: partitions.map((p) => {
          if (subscribed.has(p.topic)) return 'GROUP_SUBSCRIBED_TO_TOPIC';
          consumerGroup.offsets.remove(p.topic, p.partition);
          return 'NONE';
        }),
      };
    }
    const group = this.groups.get(groupId);
    if (!group || group.is('Dead')) return { error: 'GROUP_ID_NOT_FOUND', partitions: [] };
    let deletable: (p: { topic: string }) => boolean;
    if (group.is('Empty')) deletable = () => true;
    // A consumer group keeps the offsets of topics its members subscribe to.
    else if (group.isConsumerGroup) deletable = (p) => !group.isSubscribedToTopic(p.topic);
    else return { error: 'NON_EMPTY_GROUP', partitions: [] };
    return {
      error: 'NONE',
      partitions: partitions.map((p) => {
        if (!deletable(p)) return 'GROUP_SUBSCRIBED_TO_TOPIC';
        group.offsets.remove(p.topic, p.partition);
        return 'NONE';
      }),
    };
  }

  // ---------------------------------------------------------------- admin

  /** DescribeGroups for one group: an unknown group is described as Dead, without error. */
  handleDescribeGroup(nodeId: number, groupId: string): { error: ErrorName; summary: GroupSummary } {
    const status = this.groupStatus(groupId, 'DescribeGroups', nodeId);
    if (status) return { error: status, summary: { state: '', protocolType: '', protocol: '', members: [] } };
    // GroupMetadataManager#describeGroups (4.x) up to v5: a group that is not classic is described as Dead.
    if (this.consumerGroups.has(groupId) || this.shareGroups.has(groupId)) return { error: 'NONE', summary: { state: 'Dead', protocolType: '', protocol: '', members: [] } };
    const group = this.groups.get(groupId);
    if (!group) return { error: 'NONE', summary: { state: 'Dead', protocolType: '', protocol: '', members: [] } };
    return { error: 'NONE', summary: group.summary() };
  }

  /** ListGroups on one node: the groups it coordinates, filtered by state (case-insensitive) and type. */
  handleListGroups(nodeId: number, statesFilter: readonly string[], typesFilter: readonly string[]): { error: ErrorName; groups: GroupOverview[] } {
    const states = new Set(statesFilter.map((s) => s.toLowerCase()));
    const types = new Set(typesFilter.map((t) => t.toLowerCase()));
    const groups: GroupOverview[] = [];
    const wanted = (groupId: string, state: string, type: string) => this.coordinatorFor(0, groupId) === nodeId && (states.size === 0 || states.has(state.toLowerCase())) && (types.size === 0 || types.has(type));
    for (const g of this.groups.values()) {
      if (wanted(g.groupId, g.state, 'classic')) groups.push({ groupId: g.groupId, protocolType: g.protocolType ?? '', state: g.state, groupType: 'classic' });
    }
    // ConsumerGroup#protocolType is always "consumer".
    for (const g of this.consumerGroups.all()) {
      if (wanted(g.groupId, g.state, 'consumer')) groups.push({ groupId: g.groupId, protocolType: 'consumer', state: g.state, groupType: 'consumer' });
    }
    // ShareGroup#protocolType is "share".
    for (const g of this.shareGroups.all()) {
      if (wanted(g.groupId, g.state, 'share')) groups.push({ groupId: g.groupId, protocolType: 'share', state: g.state, groupType: 'share' });
    }
    return { error: 'NONE', groups };
  }

  /** DeleteGroups: only Empty groups go, with their offsets. Names are deduplicated. */
  handleDeleteGroups(nodeId: number, groupIds: readonly string[]): Map<string, ErrorName> {
    const out = new Map<string, ErrorName>();
    for (const groupId of new Set(groupIds)) {
      const status = this.groupStatus(groupId, 'DeleteGroups', nodeId);
      if (status) {
        out.set(groupId, status);
        continue;
      }
      if (this.consumerGroups.has(groupId)) {
        out.set(groupId, this.consumerGroups.deleteGroup(groupId));
        continue;
      }
      if (this.shareGroups.has(groupId)) {
        // An Empty share group goes with its share-partition state (GroupCoordinatorShard#sharePartitionDeleteRequests).
        const error = this.shareGroups.deleteGroup(groupId);
        if (error === 'NONE') this.cluster.shares.dropGroup(groupId);
        out.set(groupId, error);
        continue;
      }
      const group = this.groups.get(groupId);
      if (!group || group.is('Dead')) out.set(groupId, 'GROUP_ID_NOT_FOUND');
      else if (!group.is('Empty')) out.set(groupId, 'NON_EMPTY_GROUP');
      else {
        group.transitionTo('Dead');
        this.cancelTimers(group);
        this.groups.delete(groupId);
        out.set(groupId, 'NONE');
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- transactional offsets (TxnOffsetCommit, markers)

  /**
   * TxnOffsetCommit's member check (validateOffsetCommit with
   * isTransactional): Dead gives COORDINATOR_NOT_AVAILABLE; generation -1
   * without member or instance id is accepted in any state; otherwise the
   * member must exist and the generation match. There is no
   * REBALANCE_IN_PROGRESS for transactional commits. An absent group is
   * created Empty, as Kafka does before verifying the transaction.
   */
  validateTxnOffsetCommitMember(groupId: string, memberId: string, generationId: number, groupInstanceId: string | null): ErrorName {
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup) {
      // OffsetMetadataManager#validateTransactionalOffsetCommit answers a stale member epoch as ILLEGAL_GENERATION.
      const invalid = this.consumerGroups.validateOffsetCommit(consumerGroup, memberId, generationId, true, 0);
      return !invalid ? 'NONE' : invalid.error === 'STALE_MEMBER_EPOCH' ? 'ILLEGAL_GENERATION' : invalid.error;
    }
    const group = this.groups.get(groupId) ?? this.addGroup(groupId);
    if (this.cluster.profile.txnOffsetCommitMemberCheck === 'zookeeper') return this.validateTxnOffsetCommitMember28(group, memberId, generationId, groupInstanceId);
    return this.validateOffsetCommit(group, generationId, memberId, groupInstanceId, true) ?? 'NONE';
  }

  /**
   * 2.x's checks (GroupCoordinator#doTxnCommitOffsets, 2.8.2), each only when
   * its field is set: a static member replaced by another member id is
   * FENCED_INSTANCE_ID, a member id the group does not know UNKNOWN_MEMBER_ID,
   * a generation (>= 0) that is not the group's ILLEGAL_GENERATION.
   */
  private validateTxnOffsetCommitMember28(group: Group, memberId: string, generationId: number, groupInstanceId: string | null): ErrorName {
    if (group.is('Dead')) return 'COORDINATOR_NOT_AVAILABLE';
    const staticMemberId = groupInstanceId === null ? undefined : group.currentStaticMemberId(groupInstanceId);
    if (staticMemberId !== undefined && staticMemberId !== memberId) return 'FENCED_INSTANCE_ID';
    if (memberId !== '' && !group.has(memberId)) return 'UNKNOWN_MEMBER_ID';
    if (generationId >= 0 && generationId !== group.generationId) return 'ILLEGAL_GENERATION';
    return 'NONE';
  }

  /**
   * Stores a transaction's offsets as pending: invisible to OffsetFetch until
   * completePendingTxnOffsets(producerId, true). Returns an error per offset
   * (OFFSET_METADATA_TOO_LARGE for metadata over offset.metadata.max.bytes).
   */
  addPendingTxnOffsets(groupId: string, producerId: number, offsets: readonly TxnOffset[]): ErrorName[] {
    const group = this.offsetsHolder(groupId) ?? this.addGroup(groupId);
    const now = this.clock.now();
    return offsets.map((o) => {
      if (this.metadataTooLarge(o.metadata)) return 'OFFSET_METADATA_TOO_LARGE';
      group.offsets.addPending(producerId, o.topic, o.partition, {
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata ?? '',
        commitTimestamp: now,
        expireTimestamp: null,
        recordSeq: ++this.commitSeq,
      });
      return 'NONE';
    });
  }

  /** A transaction marker: commit materialises the producer's pending offsets in every group, abort drops them. */
  completePendingTxnOffsets(producerId: number, commit: boolean): void {
    for (const group of [...this.groups.values(), ...this.consumerGroups.all()]) {
      if (!group.offsets.hasPendingFrom(producerId)) continue;
      const materialised = group.offsets.completePending(producerId, commit);
      if (materialised.length) this.emit('offsets-committed', { groupId: group.groupId, offsets: materialised });
    }
  }

  /** For OffsetFetch require_stable (v7+): a transactional offset for this partition is still pending. */
  hasPendingOffsets(groupId: string, topic: string, partition: number): boolean {
    return this.offsetsHolder(groupId)?.offsets.hasPending(topic, partition) ?? false;
  }

  // ---------------------------------------------------------------- inspection (library API)

  /** Committed offsets of a group (pending transactional ones excluded). */
  committedOffsets(groupId: string): TopicPartitionOffset[] {
    return this.offsetsHolder(groupId)?.offsets.all() ?? [];
  }

  /** One committed offset, or undefined. */
  committedOffset(groupId: string, topic: string, partition: number): number | undefined {
    return this.offsetsHolder(groupId)?.offsets.get(topic, partition)?.offset;
  }

  /** The group holding a group id's offsets: its consumer group, else its classic group. */
  private offsetsHolder(groupId: string): { readonly groupId: string; readonly offsets: OffsetStore } | undefined {
    return this.consumerGroups.get(groupId) ?? this.groups.get(groupId);
  }

  groupIds(): string[] {
    return [...this.groups.keys(), ...[...this.consumerGroups.all(), ...this.shareGroups.all()].map((g) => g.groupId)];
  }

  // ---------------------------------------------------------------- faults (chaos actions)

  /**
   * Overwrites committed offsets whatever the group's state and members (an
   * admin offset reset would need an Empty group; a fault does not). Stored
   * as a commit, with the `offsets-committed` event. False for an unknown or
   * Dead group.
   */
  setCommittedOffsets(groupId: string, offsets: readonly { topic: string; partition: number; offset: number }[]): boolean {
    const group = this.offsetsHolder(groupId);
    if (!group || (group instanceof Group && group.is('Dead'))) return false;
    if (offsets.length === 0) return true;
    const previous = new Map(offsets.map((o) => [`${o.topic}\0${o.partition}`, group.offsets.get(o.topic, o.partition)]));
    this.storeOffsets(
      group,
      offsets.map((o) => {
        const old = previous.get(`${o.topic}\0${o.partition}`);
        return { topic: o.topic, partition: o.partition, offset: o.offset, leaderEpoch: -1, metadata: old?.metadata ?? '' };
      }),
    );
    return true;
  }

  /**
   * Makes a Stable or CompletingRebalance group rebalance now, as a new
   * member's JoinGroup would: every member learns it from its next Heartbeat
   * (REBALANCE_IN_PROGRESS) and rejoins. Returns what it found: 'rebalancing'
   * (started now), 'already-rebalancing', 'empty' (no members), or 'unknown'.
   */
  forceRebalance(groupId: string): 'rebalancing' | 'already-rebalancing' | 'empty' | 'unknown' {
    if (this.consumerGroups.has(groupId)) return this.consumerGroups.forceRebalance(groupId);
    if (this.shareGroups.has(groupId)) return this.shareGroups.forceRebalance(groupId);
    const group = this.groups.get(groupId);
    if (!group || group.is('Dead')) return 'unknown';
    if (group.is('PreparingRebalance')) return 'already-rebalancing';
    if (group.is('Empty')) return 'empty';
    this.prepareRebalance(group);
    return 'rebalancing';
  }

  /**
   * Removes a member as an expired session would ('session-timeout'): the
   * group rebalances without it, and its next request meets
   * UNKNOWN_MEMBER_ID. False when there is no such member.
   */
  expireMember(groupId: string, memberId: string): boolean {
    if (this.consumerGroups.has(groupId)) return this.consumerGroups.expireMember(groupId, memberId);
    if (this.shareGroups.has(groupId)) return this.shareGroups.expireMember(groupId, memberId);
    const group = this.groups.get(groupId);
    if (!group || group.is('Dead') || !group.has(memberId)) return false;
    const member = group.get(memberId);
    member.heartbeatTimer?.cancel();
    member.heartbeatTimer = null;
    this.removeMemberAndUpdateGroup(group, member, 'session-timeout');
    return true;
  }

  describe(groupId: string): GroupDescription | undefined {
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup) return this.describeConsumerGroup(consumerGroup);
    const shareGroup = this.shareGroups.get(groupId);
    if (shareGroup) return this.describeShareGroup(shareGroup);
    const g = this.groups.get(groupId);
    if (!g) return undefined;
    return {
      groupId,
      groupType: 'classic',
      state: g.state,
      generationId: g.generationId,
      protocolType: g.protocolType,
      protocolName: g.protocolName,
      leaderId: g.leaderId,
      coordinator: this.coordinatorFor(0, groupId),
      members: [...g.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        sessionTimeoutMs: m.sessionTimeoutMs,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        assignment: g.isConsumerGroup ? assignedPartitions(m.assignment) : null,
      })),
      offsets: g.offsets.all(),
    };
  }

  /** A KIP-848 group in the library's terms: the group epoch as generation, no leader, each member's current assignment by topic name. */
  private describeConsumerGroup(g: ConsumerGroup): GroupDescription {
    const named = (a: Assignment): TopicPartitions[] => [...a].map(([id, ps]) => ({ topic: this.cluster.topicById(id)?.name ?? id, partitions: [...ps].sort((x, y) => x - y) }));
    return {
      groupId: g.groupId,
      groupType: 'consumer',
      state: g.state,
      generationId: g.groupEpoch,
      protocolType: 'consumer',
      protocolName: g.preferredServerAssignor(this.consumerGroups.config['group.consumer.assignors'][0]!),
      leaderId: null,
      coordinator: this.coordinatorFor(0, g.groupId),
      members: [...g.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.instanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        sessionTimeoutMs: this.consumerGroups.groupConfig(g.groupId, 'consumer.session.timeout.ms'),
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        assignment: named(m.assignedPartitions),
      })),
      offsets: g.offsets.all(),
    };
  }

  /** A KIP-932 group in the library's terms: the group epoch as generation, each member's assignment (shared partitions appear under several members). */
  private describeShareGroup(g: ShareGroup): GroupDescription {
    const named = (a: Assignment): TopicPartitions[] => [...a].map(([id, ps]) => ({ topic: this.cluster.topicById(id)?.name ?? id, partitions: [...ps].sort((x, y) => x - y) }));
    return {
      groupId: g.groupId,
      groupType: 'share',
      state: g.state,
      generationId: g.groupEpoch,
      protocolType: 'share',
      protocolName: SIMPLE_ASSIGNOR,
      leaderId: null,
      coordinator: this.coordinatorFor(0, g.groupId),
      members: [...g.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: null,
        clientId: m.clientId,
        clientHost: m.clientHost,
        sessionTimeoutMs: this.cluster.groupConfigs.share(g.groupId).sessionTimeoutMs,
        rebalanceTimeoutMs: -1,
        assignment: named(m.assignedPartitions),
      })),
      offsets: [],
    };
  }

  /** Cancels every timer (the cluster is stopping). */
  shutdown(): void {
    for (const g of this.groups.values()) this.cancelTimers(g);
    this.consumerGroups.shutdown();
    this.shareGroups.shutdown();
  }

  /** Forgets every group and its offsets (the control API's reset); parked JoinGroup/SyncGroup requests get NOT_COORDINATOR. Returns how many groups there were. */
  reset(): number {
    const count = this.groups.size + this.consumerGroups.reset() + this.shareGroups.reset();
    this.cluster.shares.reset();
    for (const g of this.groups.values()) if (!g.is('Dead')) this.unload(g);
    this.groups.clear();
    this.zookeeperOffsets.clear();
    return count;
  }

  // ---------------------------------------------------------------- persistence and coordinator moves

  /** GroupMetadataManager#storeGroup: what a new coordinator will load. Never fails here. */
  private storeGroup(group: Group, assignment: ReadonlyMap<string, Buffer>): void {
    group.snapshot = group.takeSnapshot(assignment);
  }

  private cancelTimers(group: Group): void {
    group.joinTimer?.cancel();
    group.joinTimer = null;
    group.syncTimer?.cancel();
    group.syncTimer = null;
    for (const t of group.pendingMembers.values()) t?.cancel();
    for (const m of group.members.values()) {
      m.heartbeatTimer?.cancel();
      m.heartbeatTimer = null;
    }
  }

  /** onGroupUnloaded: the group is Dead here; whoever waits is told NOT_COORDINATOR. */
  private unload(group: Group): void {
    const previous = group.state;
    this.cancelTimers(group);
    group.transitionTo('Dead');
    if (previous === 'PreparingRebalance') {
      for (const m of group.members.values()) group.maybeInvokeJoinCallback(m, joinError(m.memberId, 'NOT_COORDINATOR'));
    } else if (previous === 'Stable' || previous === 'CompletingRebalance') {
      for (const m of group.members.values()) group.maybeInvokeSyncCallback(m, syncError('NOT_COORDINATOR'));
    }
    group.pendingSyncMembers.clear();
  }

  /** onGroupLoaded: Stable (or Empty) as last stored, every session starting now. */
  private load(old: Group): void {
    if (!old.snapshot && !old.offsets.hasOffsets) {
      this.groups.delete(old.groupId);
      return;
    }
    const group = Group.load(old.groupId, old.snapshot, old.offsets, () => this.clock.now(), (g, from) => this.onTransition(g, from));
    this.groups.set(group.groupId, group);
    if (group.size > this.config['group.max.size']) this.prepareRebalance(group);
    for (const m of group.members.values()) this.completeAndScheduleNextHeartbeatExpiration(group, m);
    this.emit('state-changed', { groupId: group.groupId, from: 'Dead', to: group.state, generationId: group.generationId });
  }

  private onLeaderChanged(change: LeaderChange): void {
    if (change.topic !== GROUP_METADATA_TOPIC) return;
    const before = this.owners.get(change.partition);
    this.owners.set(change.partition, change.leader);
    if (before === change.leader) return;
    for (const group of [...this.groups.values()]) {
      if (partitionFor(group.groupId, COORDINATOR_TOPIC_PARTITIONS) !== change.partition) continue;
      this.cluster.log.info({ group: group.groupId, from: before, to: change.leader }, 'group coordinator moved');
      if (!group.is('Dead')) this.unload(group);
      if (change.leader >= 0) this.load(group);
    }
  }

  private onTopicDeleted(name: string): void {
    if (name === GROUP_METADATA_TOPIC) {
      // Its log held every group and offset.
      for (const g of this.groups.values()) if (!g.is('Dead')) this.unload(g);
      this.groups.clear();
      this.consumerGroups.reset();
      this.owners.clear();
      return;
    }
    // GroupCoordinator#handleDeletedPartitions.
    for (const g of [...this.groups.values(), ...this.consumerGroups.all()]) g.offsets.removeTopic(name);
  }
}
