// The KIP-848 group coordinator: ConsumerGroupHeartbeat and
// ConsumerGroupDescribe for groups of the "consumer" protocol, following
// Kafka's GroupMetadataManager#consumerGroupHeartbeat (group-coordinator):
// 1. the member is created or updated; a changed subscription (or member set,
//    or subscribed topics' metadata) bumps the group epoch;
// 2. a group epoch above the target assignment epoch makes the server-side
//    assignor (`uniform` by default, or `range`) compute a new target;
// 3. the member reconciles one step towards its target
//    (current-assignment-builder.ts): revocation before assignment.
// Session timeouts (group.consumer.session.timeout.ms) and rebalance
// timeouts (a member that does not revoke in time is fenced) are timers on
// the cluster clock. Regex subscriptions (v1) are resolved as Kafka resolves
// them: after the heartbeat that brings one, off the request path, at most
// once per 10 s per group, and again when topics were created since. The classic coordinator keeps serving the offset and
// admin APIs and asks this one for the groups it holds.
//
// Differences from Kafka: groups of both protocols share no member (no
// upgrade or downgrade between classic and consumer groups, no classic
// members in a consumer group); an Empty classic group becomes a consumer
// group on a first heartbeat, keeping its offsets, as Kafka does; no rack-aware assignment, no
// per-group configs (IncrementalAlterConfigs on GROUP); a coordinator move
// keeps the groups as they are (no reload from __consumer_offsets).
import { randomBytes } from 'node:crypto';
import type { Cluster } from '../cluster.js';
import { subscriptionMetadata, toTopicPartitions } from './modern-group.js';
import type { ErrorName } from '../../protocol/errors.js';
import { ConsumerGroup, ConsumerGroupMember, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH, type ConsumerGroupState } from './consumer-group.js';
import { ConsumerGroupError, FencedMemberEpoch, groupError } from './consumer-group-errors.js';
import { reconcile, type OwnedTopicPartitions } from './current-assignment-builder.js';
import { sameAssignment, type Assignment, type AssignorTopic, type ConsumerGroupPartitionAssignor } from './assignors/assignor.js';
import { uniformAssignor } from './assignors/uniform-assignor.js';
import { rangeAssignor } from './assignors/range-assignor.js';
import type { OffsetStore } from './offsets.js';
import type { ConsumerGroupHeartbeatRequest } from '../../protocol/messages/consumer-group-heartbeat.js';
import type { ConsumerGroupDescribeResponseDescribedGroup } from '../../protocol/messages/consumer-group-describe.js';
import { compileTopicRegex, InvalidTopicRegex } from './topic-regex.js';

/** Broker configs of KIP-848 groups, by their Kafka names, with Kafka 4.x's defaults (GroupCoordinatorConfig). */
export interface ConsumerGroupConfig {
  'group.consumer.heartbeat.interval.ms': number;
  'group.consumer.session.timeout.ms': number;
  'group.consumer.max.size': number;
  /** The first is the default (Kafka: uniform, range). */
  'group.consumer.assignors': readonly string[];
}

export const defaultConsumerGroupConfig: Readonly<ConsumerGroupConfig> = Object.freeze({
  'group.consumer.heartbeat.interval.ms': 5000,
  'group.consumer.session.timeout.ms': 45000,
  'group.consumer.max.size': 2_147_483_647,
  'group.consumer.assignors': ['uniform', 'range'],
});

const ASSIGNORS: ReadonlyMap<string, ConsumerGroupPartitionAssignor> = new Map([uniformAssignor, rangeAssignor].map((a) => [a.name, a]));

/** The request's fields (ConsumerGroupHeartbeatRequest), with who sent it at which version. */
export type ConsumerGroupHeartbeatParams = Omit<ConsumerGroupHeartbeatRequest, 'topicPartitions'> & {
  topicPartitions: OwnedTopicPartitions;
  clientId: string;
  clientHost: string;
  apiVersion: number;
  /** Of these topic names, those the sender may DESCRIBE (regex resolution keeps only those); all when absent. */
  describableTopics?: (names: string[]) => ReadonlySet<string>;
};

/** GroupMetadataManager.REGEX_BATCH_REFRESH_MIN_INTERVAL_MS: a group's regexes are resolved at most this often. */
export const REGEX_BATCH_REFRESH_MIN_INTERVAL_MS = 10_000;

export interface ConsumerGroupHeartbeatResult {
  error: ErrorName;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  /** Sent on a full request or when the member's assignment changed; null otherwise. */
  assignment: { topicId: string; partitions: number[] }[] | null;
}

/** One group as ConsumerGroupDescribe answers it, its members in the response's own shape. */
export type DescribedConsumerGroup = Omit<ConsumerGroupDescribeResponseDescribedGroup, 'errorCode' | 'authorizedOperations'> & { error: ErrorName };

/** What this coordinator needs from the classic one: the group events, coordinator lookup, and its groups of the same id. */
export interface SharedGroupState {
  emitStateChanged(groupId: string, from: ConsumerGroupState, to: ConsumerGroupState, generationId: number): void;
  emitMemberRemoved(groupId: string, memberId: string, groupInstanceId: string | null, reason: 'leave-group' | 'session-timeout' | 'rebalance-timeout'): void;
  /** Status of a group id on a node: NOT_COORDINATOR, or null. */
  coordinatorStatus(groupId: string, nodeId: number): ErrorName | null;
  /** Whether a share group holds the id. */
  shareGroup(groupId: string): boolean;
  /** Whether a classic group of that id exists, and whether it is Empty. */
  classicGroup(groupId: string): 'absent' | 'empty' | 'non-empty';
  /** Drops an Empty classic group, handing over its committed offsets (Kafka keeps offsets apart from groups). */
  takeEmptyClassicGroup(groupId: string): OffsetStore | undefined;
}

/** Kafka's Uuid#toString: 16 random bytes, URL-safe base64 without padding. */
function newMemberId(): string {
  return randomBytes(16).toString('base64url');
}

export class ConsumerGroupCoordinator {
  readonly config: ConsumerGroupConfig = { ...defaultConsumerGroupConfig };
  private readonly groups = new Map<string, ConsumerGroup>();
  /** Bumped when a topic is created: Kafka's lastMetadataImageWithNewTopics, which makes regexes resolve again. */
  private topicsVersion = 0;
  private readonly pendingRefreshes = new Set<NodeJS.Immediate>();

  constructor(
    private readonly cluster: Cluster,
    private readonly shared: SharedGroupState,
  ) {
    cluster.on('topic-created', () => this.topicsVersion++);
  }

  has(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  get(groupId: string): ConsumerGroup | undefined {
    return this.groups.get(groupId);
  }

  all(): IterableIterator<ConsumerGroup> {
    return this.groups.values();
  }

  // ---------------------------------------------------------------- ConsumerGroupHeartbeat

  handleHeartbeat(nodeId: number, req: ConsumerGroupHeartbeatParams): ConsumerGroupHeartbeatResult {
    const fail = (e: ConsumerGroupError): ConsumerGroupHeartbeatResult => ({ error: e.error, errorMessage: e.message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null });
    try {
      // GroupCoordinatorService#consumerGroupHeartbeat: the request is checked before the coordinator.
      this.throwIfRequestIsInvalid(req);
      const status = this.shared.coordinatorStatus(req.groupId, nodeId);
      if (status) return { ...fail(groupError(status, '')), errorMessage: null };
      if (req.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH || req.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) return this.consumerGroupLeave(req);
      return this.consumerGroupHeartbeat(req);
    } catch (e) {
      if (e instanceof ConsumerGroupError) return fail(e);
      throw e;
    }
  }

  /** GroupCoordinatorService#throwIfConsumerGroupHeartbeatRequestIsInvalid (4.x). */
  private throwIfRequestIsInvalid(req: ConsumerGroupHeartbeatParams): void {
    const invalid = (message: string) => groupError('INVALID_REQUEST', message);
    // CONSUMER_GENERATED_MEMBER_ID_REQUIRED_VERSION is 1: from v1 the client makes its member id (KIP-1082).
    if ((req.apiVersion >= 1 || req.memberEpoch > 0 || req.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH) && req.memberId === '') throw invalid("MemberId can't be empty.");
    if (req.groupId === '') throw invalid("GroupId can't be empty.");
    if (req.instanceId === '') throw invalid("InstanceId can't be empty.");
    if (req.rackId === '') throw invalid("RackId can't be empty.");
    if (req.memberEpoch === 0) {
      if (req.rebalanceTimeoutMs === -1) throw invalid('RebalanceTimeoutMs must be provided in first request.');
      if (req.topicPartitions === null || req.topicPartitions.length > 0) throw invalid('TopicPartitions must be empty when (re-)joining.');
      // An empty list of names or an empty regex is a member subscribed to nothing.
      if (req.subscribedTopicNames === null && req.subscribedTopicRegex === null) throw invalid('Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.');
    } else if (req.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      if (req.instanceId === null) throw invalid("InstanceId can't be null.");
    } else if (req.memberEpoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      throw invalid('MemberEpoch is invalid.');
    }
    const assignors = this.config['group.consumer.assignors'];
    if (req.serverAssignor !== null && !assignors.includes(req.serverAssignor)) {
      throw groupError('UNSUPPORTED_ASSIGNOR', `ServerAssignor ${req.serverAssignor} is not supported. Supported assignors: ${assignors.join(', ')}.`);
    }
  }

  /** GroupMetadataManager#getOrMaybeCreateConsumerGroup. */
  private getOrMaybeCreateConsumerGroup(groupId: string, createIfNotExists: boolean): ConsumerGroup {
    const group = this.groups.get(groupId);
    if (group) return group;
    if (this.shared.shareGroup(groupId)) throw groupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a consumer group.`);
    const classic = this.shared.classicGroup(groupId);
    // A classic group that is not Empty stays classic (no online upgrade); neither does any when not joining.
    if (classic === 'non-empty' || (classic === 'empty' && !createIfNotExists)) throw groupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a consumer group`);
    if (!createIfNotExists) throw groupError('GROUP_ID_NOT_FOUND', `Consumer group ${groupId} not found.`);
    const created = new ConsumerGroup(groupId, classic === 'empty' ? this.shared.takeEmptyClassicGroup(groupId) : undefined);
    this.groups.set(groupId, created);
    return created;
  }

  private consumerGroup(groupId: string): ConsumerGroup {
    const group = this.groups.get(groupId);
    if (!group) throw groupError('GROUP_ID_NOT_FOUND', `Consumer group ${groupId} not found.`);
    return group;
  }

  private member(group: ConsumerGroup, memberId: string): ConsumerGroupMember {
    const m = group.members.get(memberId);
    if (!m) throw groupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
    return m;
  }

  private consumerGroupHeartbeat(req: ConsumerGroupHeartbeatParams): ConsumerGroupHeartbeatResult {
    const createIfNotExists = req.memberEpoch === 0;
    const existed = this.groups.has(req.groupId);
    const group = this.getOrMaybeCreateConsumerGroup(req.groupId, createIfNotExists);
    try {
      return this.heartbeatInGroup(group, req, createIfNotExists);
    } finally {
      // A group made by a heartbeat that then failed is not kept (Kafka's records are not written).
      if (!existed && group.members.size === 0 && group.groupEpoch === 0 && !group.offsets.hasOffsets) this.groups.delete(group.groupId);
    }
  }

  private heartbeatInGroup(group: ConsumerGroup, req: ConsumerGroupHeartbeatParams, createIfNotExists: boolean): ConsumerGroupHeartbeatResult {
    const max = this.config['group.consumer.max.size'];
    // throwIfConsumerGroupIsFull.
    if (group.members.size >= max && (req.memberId === '' || !group.members.has(req.memberId))) {
      throw groupError('GROUP_MAX_SIZE_REACHED', `The consumer group has reached its maximum capacity of ${max} members.`);
    }
    const memberId = req.memberId === '' ? newMemberId() : req.memberId;
    const member =
      req.instanceId === null
        ? this.getOrMaybeSubscribeDynamicMember(group, memberId, req.memberEpoch, req.topicPartitions, createIfNotExists)
        : this.getOrMaybeSubscribeStaticMember(group, memberId, req.memberEpoch, req.instanceId, req.topicPartitions, createIfNotExists);

    // 1. The member as this request updates it.
    const updated = member.copyAs(member.memberId);
    updated.sessionTimer = member.sessionTimer;
    updated.rebalanceTimer = member.rebalanceTimer;
    if (req.instanceId !== null) updated.instanceId = req.instanceId;
    if (req.rackId !== null) updated.rackId = req.rackId;
    if (req.rebalanceTimeoutMs !== -1) updated.rebalanceTimeoutMs = req.rebalanceTimeoutMs;
    if (req.serverAssignor !== null) updated.serverAssignorName = req.serverAssignor;
    if (req.subscribedTopicNames !== null) updated.subscribedTopicNames = [...req.subscribedTopicNames];
    if (req.subscribedTopicRegex !== null) updated.subscribedTopicRegex = req.subscribedTopicRegex;
    updated.clientId = req.clientId;
    updated.clientHost = req.clientHost;
    const isNew = !group.members.has(member.memberId);
    let bumpGroupEpoch = isNew || !sameNames(member.subscribedTopicNames, updated.subscribedTopicNames);
    // Before the member changes: the counts of who subscribes to which regex are the group's as it was.
    if (this.maybeUpdateRegularExpressions(group, member, updated, req.describableTopics)) bumpGroupEpoch = true;
    group.updateMember(updated);
    // The subscribed topics' metadata (names, partition counts) changed: a new epoch (4.x's metadata hash).
    const metadata = subscriptionMetadata(this.cluster, group.subscribedTopicNames());
    if (metadata !== group.subscriptionMetadata) {
      group.subscriptionMetadata = metadata;
      bumpGroupEpoch = true;
    }
    if (bumpGroupEpoch) {
      group.groupEpoch += 1;
      this.cluster.log.info({ group: group.groupId, epoch: group.groupEpoch }, 'bumped group epoch');
    }

    // 2. A new target assignment when the group epoch moved on.
    if (group.groupEpoch > group.assignmentEpoch) this.updateTargetAssignment(group);

    // 3. One reconciliation step.
    const reconciled = this.maybeReconcile(group, updated, req.topicPartitions);
    this.scheduleSessionTimeout(group, reconciled.memberId);
    this.emitTransition(group);

    // A full request (joining, or after an error) gets the assignment, as does a changed one.
    const isFullRequest = req.memberEpoch === 0 || (req.rebalanceTimeoutMs !== -1 && (req.subscribedTopicNames !== null || req.subscribedTopicRegex !== null) && req.topicPartitions !== null);
    return {
      error: 'NONE',
      errorMessage: null,
      memberId: reconciled.memberId,
      memberEpoch: reconciled.memberEpoch,
      heartbeatIntervalMs: this.groupConfig(group.groupId, 'consumer.heartbeat.interval.ms'),
      assignment: isFullRequest || !sameAssignment(member.assignedPartitions, reconciled.assignedPartitions) ? toTopicPartitions(reconciled.assignedPartitions) : null,
    };
  }

  /** getOrMaybeSubscribeDynamicConsumerGroupMember. */
  private getOrMaybeSubscribeDynamicMember(group: ConsumerGroup, memberId: string, memberEpoch: number, owned: OwnedTopicPartitions, createIfNotExists: boolean): ConsumerGroupMember {
    let member = group.members.get(memberId);
    if (!member) {
      if (!createIfNotExists) throw groupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
      member = new ConsumerGroupMember(memberId, null);
      this.cluster.log.info({ group: group.groupId, member: memberId }, 'member joins the consumer group');
    }
    throwIfMemberEpochIsInvalid(member, memberEpoch, owned);
    return member;
  }

  /** getOrMaybeSubscribeStaticConsumerGroupMember. */
  private getOrMaybeSubscribeStaticMember(group: ConsumerGroup, memberId: string, memberEpoch: number, instanceId: string, owned: OwnedTopicPartitions, createIfNotExists: boolean): ConsumerGroupMember {
    const existing = group.staticMember(instanceId);
    if (createIfNotExists) {
      if (!existing) {
        const m = group.members.get(memberId) ?? new ConsumerGroupMember(memberId, instanceId);
        throwIfMemberEpochIsInvalid(m, memberEpoch, owned);
        return m;
      }
      // The instance id may be taken over only once its previous member left with epoch -2 (throwIfInstanceIdIsUnreleased).
      if (existing.memberEpoch !== LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
        throw groupError('UNRELEASED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} cannot join the group because the instance id is owned by ${existing.memberId} member.`);
      }
      // The new member takes the old one's place, assignment and target, at epoch 0 (replaceMember).
      const replacement = existing.copyAs(memberId);
      replacement.memberEpoch = 0;
      replacement.previousMemberEpoch = 0;
      const target = group.targetAssignment.get(existing.memberId);
      this.cancelTimers(existing);
      group.removeMember(existing.memberId);
      if (target) group.targetAssignment.set(memberId, target);
      group.updateMember(replacement);
      this.cluster.log.info({ group: group.groupId, instanceId, member: memberId, replaced: existing.memberId }, 'static member rejoins the consumer group');
      return replacement;
    }
    if (!existing) throw groupError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);
    if (existing.memberId !== memberId) throw groupError('FENCED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} was fenced by member ${existing.memberId}.`);
    throwIfMemberEpochIsInvalid(existing, memberEpoch, owned);
    return existing;
  }


  /** updateTargetAssignment: the preferred assignor over every member; the target epoch becomes the group epoch. */
  private updateTargetAssignment(group: ConsumerGroup): void {
    const assignor = ASSIGNORS.get(group.preferredServerAssignor(this.config['group.consumer.assignors'][0]!))!;
    const topics = new Map<string, AssignorTopic>();
    for (const name of group.subscribedTopicNames()) {
      const t = this.cluster.topic(name);
      if (t) topics.set(t.topicId, { topicId: t.topicId, name, partitions: t.partitions.length });
    }
    const members = [...group.members.values()].map((m) => ({
      memberId: m.memberId,
      instanceId: m.instanceId,
      subscribedTopicIds: group.memberSubscribedTopicNames(m).map((n) => this.cluster.topic(n)?.topicId).filter((id): id is string => id !== undefined),
      currentTarget: group.targetAssignment.get(m.memberId) ?? new Map(),
    }));
    const target = assignor.assign(members, topics);
    group.targetAssignment.clear();
    for (const [memberId, a] of target) group.targetAssignment.set(memberId, a);
    group.assignmentEpoch = group.groupEpoch;
    this.cluster.log.info({ group: group.groupId, epoch: group.assignmentEpoch, assignor: assignor.name }, 'computed new target assignment');
    this.emitTransition(group);
  }

  /** maybeReconcile, with the rebalance timeout armed while the member has partitions to revoke. */
  private maybeReconcile(group: ConsumerGroup, member: ConsumerGroupMember, owned: OwnedTopicPartitions): ConsumerGroupMember {
    if (member.isReconciledTo(group.assignmentEpoch)) return member;
    const updated = reconcile(member, {
      targetAssignmentEpoch: group.assignmentEpoch,
      targetAssignment: group.targetAssignment.get(member.memberId) ?? new Map(),
      currentPartitionEpoch: (t, p) => {
        // The member's own partitions do not hold it back.
        const epoch = group.currentPartitionEpoch(t, p);
        return epoch !== -1 && (member.assignedPartitions.get(t)?.has(p) || member.partitionsPendingRevocation.get(t)?.has(p)) ? -1 : epoch;
      },
      ownedTopicPartitions: owned,
    });
    if (updated === member) return member;
    group.updateMember(updated);
    if (updated.state === 'UNREVOKED_PARTITIONS') this.scheduleRebalanceTimeout(group, updated.memberId, updated.memberEpoch, updated.rebalanceTimeoutMs);
    else this.cancelRebalanceTimeout(updated);
    return updated;
  }

  // ---------------------------------------------------------------- regular expressions

  /**
   * GroupMetadataManager#maybeUpdateRegularExpressions: a new regex is
   * checked (INVALID_REGULAR_EXPRESSION) and starts a resolution; one other
   * members already resolved bumps the epoch at once. A resolution also starts
   * when some regex is unresolved or topics were created since the last one,
   * at most every 10 s. True when the group epoch must be bumped now.
   */
  private maybeUpdateRegularExpressions(group: ConsumerGroup, member: ConsumerGroupMember, updated: ConsumerGroupMember, describable: ConsumerGroupHeartbeatParams['describableTopics']): boolean {
    const oldRegex = member.subscribedTopicRegex;
    const newRegex = updated.subscribedTopicRegex;
    let bumpGroupEpoch = false;
    let requireRefresh = false;
    if (oldRegex !== newRegex) {
      if (oldRegex !== '' && group.members.has(member.memberId) && group.numSubscribedMembers(oldRegex) === 1) group.resolvedRegularExpressions.delete(oldRegex);
      if (newRegex !== '') {
        if (group.numSubscribedMembers(newRegex) === 0) {
          try {
            compileTopicRegex(newRegex);
          } catch (e) {
            if (!(e instanceof InvalidTopicRegex)) throw e;
            throw groupError('INVALID_REGULAR_EXPRESSION', `SubscribedTopicRegex \`${newRegex}\` is not a valid regular expression: ${e.message}.`);
          }
          requireRefresh = true;
        } else {
          bumpGroupEpoch = group.resolvedRegularExpressions.has(newRegex);
        }
      }
    }
    const subscribed = group.subscribedRegularExpressions();
    if (!requireRefresh && subscribed.size === 0) return bumpGroupEpoch;
    if (group.regexRefreshScheduled) return bumpGroupEpoch;
    const last = group.lastResolvedRegularExpression();
    if (this.cluster.clock.now() <= last.timestampMs + REGEX_BATCH_REFRESH_MIN_INTERVAL_MS) return bumpGroupEpoch;
    // The regexes as they will be once this member is updated.
    if (oldRegex !== '' && group.members.has(member.memberId)) {
      const n = (subscribed.get(oldRegex) ?? 0) - 1;
      if (n > 0) subscribed.set(oldRegex, n);
      else subscribed.delete(oldRegex);
    }
    if (newRegex !== '') subscribed.set(newRegex, (subscribed.get(newRegex) ?? 0) + 1);
    requireRefresh ||= subscribed.size !== group.resolvedRegularExpressions.size;
    requireRefresh ||= last.version < this.topicsVersion;
    if (requireRefresh && subscribed.size > 0) this.scheduleRegexRefresh(group, [...subscribed.keys()], describable);
    return bumpGroupEpoch;
  }

  /**
   * Kafka runs refreshRegularExpressions on its executor, off the request,
   * and applies the result as a later event: so here, once the heartbeat has
   * been answered (setImmediate, whatever the cluster clock: the executor
   * does not wait on time).
   */
  private scheduleRegexRefresh(group: ConsumerGroup, regexes: string[], describable: ConsumerGroupHeartbeatParams['describableTopics']): void {
    group.regexRefreshScheduled = true;
    const refresh = setImmediate(() => {
      this.pendingRefreshes.delete(refresh);
      group.regexRefreshScheduled = false;
      if (this.groups.get(group.groupId) !== group) return;
      this.handleRegularExpressionsResult(group, this.refreshRegularExpressions(regexes, describable));
    });
    this.pendingRefreshes.add(refresh);
  }

  /** refreshRegularExpressions: every topic whose whole name a regex matches and that the member may describe. */
  private refreshRegularExpressions(regexes: string[], describable: ConsumerGroupHeartbeatParams['describableTopics']): Map<string, Set<string>> {
    const names = [...this.cluster.topics.keys()];
    const resolved = new Map<string, Set<string>>();
    for (const regex of regexes) {
      let compiled: RegExp;
      try {
        compiled = compileTopicRegex(regex);
      } catch {
        resolved.set(regex, new Set());
        continue;
      }
      resolved.set(regex, new Set(names.filter((n) => compiled.test(n))));
    }
    if (describable) {
      const all = [...new Set([...resolved.values()].flatMap((s) => [...s]))];
      const allowed = describable(all);
      for (const topics of resolved.values()) for (const t of topics) if (!allowed.has(t)) topics.delete(t);
    }
    return resolved;
  }

  /** handleRegularExpressionsResult: new resolutions, and a new group epoch when they or the subscribed topics' metadata changed. */
  private handleRegularExpressionsResult(group: ConsumerGroup, resolved: Map<string, Set<string>>): void {
    let bumpGroupEpoch = false;
    const now = this.cluster.clock.now();
    for (const [regex, topics] of resolved) {
      if (group.numSubscribedMembers(regex) === 0) continue;
      const old = group.resolvedRegularExpressions.get(regex)?.topics ?? new Set<string>();
      if (old.size !== topics.size || [...topics].some((t) => !old.has(t))) bumpGroupEpoch = true;
      group.resolvedRegularExpressions.set(regex, { topics, version: this.topicsVersion, timestampMs: now });
    }
    const metadata = subscriptionMetadata(this.cluster, group.subscribedTopicNames());
    if (metadata !== group.subscriptionMetadata) {
      group.subscriptionMetadata = metadata;
      bumpGroupEpoch = true;
    }
    if (!bumpGroupEpoch) return;
    group.groupEpoch += 1;
    this.cluster.log.info({ group: group.groupId, epoch: group.groupEpoch, regexes: [...resolved.keys()] }, 'resolved regular expressions; bumped group epoch');
    this.emitTransition(group);
  }

  // ---------------------------------------------------------------- leaving and fencing

  /** consumerGroupLeave: -1 leaves for good, -2 (static) keeps the member's place until its session runs out. */
  private consumerGroupLeave(req: ConsumerGroupHeartbeatParams): ConsumerGroupHeartbeatResult {
    const group = this.consumerGroup(req.groupId);
    const answer = (memberId: string, memberEpoch: number): ConsumerGroupHeartbeatResult => ({ error: 'NONE', errorMessage: null, memberId, memberEpoch, heartbeatIntervalMs: 0, assignment: null });
    if (req.instanceId === null) {
      const member = this.member(group, req.memberId);
      this.fenceMember(group, member, 'leave-group');
      return answer(req.memberId, req.memberEpoch);
    }
    const member = group.staticMember(req.instanceId);
    if (!member) throw groupError('UNKNOWN_MEMBER_ID', `Instance id ${req.instanceId} is unknown.`);
    if (member.memberId !== req.memberId) throw groupError('FENCED_INSTANCE_ID', `Static member ${req.memberId} with instance id ${req.instanceId} was fenced by member ${member.memberId}.`);
    if (req.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH) {
      this.fenceMember(group, member, 'leave-group');
      return answer(req.memberId, req.memberEpoch);
    }
    // consumerGroupStaticMemberGroupLeave: epoch -2, nothing pending revocation; the assignment stays its own.
    const leaving = member.copyAs(member.memberId);
    leaving.sessionTimer = member.sessionTimer;
    leaving.memberEpoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
    leaving.partitionsPendingRevocation = new Map();
    this.cancelRebalanceTimeout(member);
    group.updateMember(leaving);
    this.emitTransition(group);
    return answer(member.memberId, LEAVE_GROUP_STATIC_MEMBER_EPOCH);
  }

  /** consumerGroupFenceMember: the member goes with its partitions, and the group epoch is bumped for the others to rebalance. */
  private fenceMember(group: ConsumerGroup, member: ConsumerGroupMember, reason: 'leave-group' | 'session-timeout' | 'rebalance-timeout'): void {
    this.cancelTimers(group.members.get(member.memberId) ?? member);
    group.removeMember(member.memberId);
    // The last member of a regex takes its resolution with it (the ConsumerGroupRegularExpression tombstone).
    const regex = member.subscribedTopicRegex;
    if (regex !== '' && group.numSubscribedMembers(regex) === 0) group.resolvedRegularExpressions.delete(regex);
    group.subscriptionMetadata = subscriptionMetadata(this.cluster, group.subscribedTopicNames());
    group.groupEpoch += 1;
    this.cluster.log.info({ group: group.groupId, member: member.memberId, reason, epoch: group.groupEpoch }, 'member fenced from the consumer group');
    this.shared.emitMemberRemoved(group.groupId, member.memberId, member.instanceId, reason);
    this.emitTransition(group);
  }

  private cancelTimers(member: ConsumerGroupMember): void {
    member.sessionTimer?.cancel();
    member.sessionTimer = null;
    this.cancelRebalanceTimeout(member);
  }

  private cancelRebalanceTimeout(member: ConsumerGroupMember): void {
    member.rebalanceTimer?.cancel();
    member.rebalanceTimer = null;
  }

  /**
   * consumerGroupHeartbeatIntervalMs / consumerGroupSessionTimeoutMs
   * (GroupMetadataManager): the group's own config where set, read at each
   * use, else the broker's.
   */
  groupConfig(groupId: string, name: 'consumer.heartbeat.interval.ms' | 'consumer.session.timeout.ms'): number {
    return this.cluster.groupConfigs.intValue(groupId, name, this.config[`group.${name}`]);
  }

  /** scheduleConsumerGroupSessionTimeout: every heartbeat starts the member's session again. */
  private scheduleSessionTimeout(group: ConsumerGroup, memberId: string): void {
    const member = group.members.get(memberId)!;
    member.sessionTimer?.cancel();
    const timer = this.cluster.clock.setTimer(this.groupConfig(group.groupId, 'consumer.session.timeout.ms'), () => {
      const current = group.members.get(memberId);
      if (this.groups.get(group.groupId) !== group || !current || current.sessionTimer !== timer) return;
      current.sessionTimer = null;
      this.fenceMember(group, current, 'session-timeout');
    });
    member.sessionTimer = timer;
  }

  /** scheduleConsumerGroupRebalanceTimeout: still at that epoch when it fires, the member is fenced. */
  private scheduleRebalanceTimeout(group: ConsumerGroup, memberId: string, memberEpoch: number, rebalanceTimeoutMs: number): void {
    const member = group.members.get(memberId)!;
    member.rebalanceTimer?.cancel();
    const timer = this.cluster.clock.setTimer(rebalanceTimeoutMs, () => {
      const current = group.members.get(memberId);
      if (this.groups.get(group.groupId) !== group || !current || current.rebalanceTimer !== timer) return;
      current.rebalanceTimer = null;
      if (current.memberEpoch === memberEpoch) this.fenceMember(group, current, 'rebalance-timeout');
    });
    member.rebalanceTimer = timer;
  }

  private emitTransition(group: ConsumerGroup): void {
    const t = group.takeTransition();
    if (!t) return;
    this.cluster.log.debug({ group: group.groupId, from: t.from, to: t.to, epoch: group.groupEpoch }, 'consumer group state');
    this.shared.emitStateChanged(group.groupId, t.from, t.to, group.groupEpoch);
  }

  // ---------------------------------------------------------------- ConsumerGroupDescribe

  /** GroupMetadataManager#consumerGroupDescribe for one group id. */
  handleDescribe(nodeId: number, groupId: string): DescribedConsumerGroup {
    const empty = { groupState: '', groupEpoch: 0, assignmentEpoch: 0, assignorName: '', members: [] };
    const status = this.shared.coordinatorStatus(groupId, nodeId);
    if (status) return { error: status, errorMessage: null, groupId, ...empty };
    const group = this.groups.get(groupId);
    if (!group) {
      if (this.shared.shareGroup(groupId)) return { error: 'GROUP_ID_NOT_FOUND', errorMessage: `Group ${groupId} is not a consumer group.`, groupId, ...empty };
      const classic = this.shared.classicGroup(groupId) !== 'absent';
      return { error: 'GROUP_ID_NOT_FOUND', errorMessage: classic ? `Group ${groupId} is not a consumer group` : `Group ${groupId} not found.`, groupId, ...empty };
    }
    const named = (a: Assignment) => ({
      topicPartitions: [...a].map(([topicId, ps]) => ({ topicId, topicName: this.cluster.topicById(topicId)?.name ?? '', partitions: [...ps].sort((x, y) => x - y) })),
    });
    return {
      error: 'NONE',
      errorMessage: null,
      groupId,
      groupState: group.state,
      groupEpoch: group.groupEpoch,
      assignmentEpoch: group.assignmentEpoch,
      assignorName: group.preferredServerAssignor(this.config['group.consumer.assignors'][0]!),
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        // v1+ (ConsumerGroupMember#asConsumerGroupDescribeMember): 1 is a consumer-protocol member, 0 a classic one.
        memberType: 1,
        instanceId: m.instanceId,
        rackId: m.rackId,
        memberEpoch: m.memberEpoch,
        clientId: m.clientId,
        clientHost: m.clientHost,
        subscribedTopicNames: m.subscribedTopicNames,
        // ConsumerGroupMember keeps "" for no regex, and describes it so (a real 4.0.2 broker, test/conformance).
        subscribedTopicRegex: m.subscribedTopicRegex,
        assignment: named(m.assignedPartitions),
        targetAssignment: named(group.targetAssignment.get(m.memberId) ?? new Map()),
      })),
    };
  }

  // ---------------------------------------------------------------- offsets (ConsumerGroup#validateOffsetCommit, #validateOffsetFetch)

  /** OffsetCommit's check against a consumer group: null when the commit may be stored. */
  validateOffsetCommit(group: ConsumerGroup, memberId: string, memberEpoch: number, isTransactional: boolean, apiVersion: number): ConsumerGroupError | null {
    // Epoch -1: the admin client or a consumer without group management, accepted while the group has no members.
    if (memberEpoch < 0 && group.members.size === 0) return null;
    const member = group.members.get(memberId);
    if (!member) return groupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
    if (!isTransactional && apiVersion < 9) return groupError('UNSUPPORTED_VERSION', 'OffsetCommit version 9 or above must be used by members using the modern group protocol');
    if (memberEpoch !== member.memberEpoch) return groupError('STALE_MEMBER_EPOCH', `The received member epoch ${memberEpoch} does not match the expected member epoch ${member.memberEpoch}.`);
    return null;
  }

  /** OffsetFetch v9+ with a member id: the member must exist at that epoch. */
  validateOffsetFetch(group: ConsumerGroup, memberId: string | null, memberEpoch: number): ErrorName {
    if (memberId === null && memberEpoch < 0) return 'NONE';
    const member = memberId === null ? undefined : group.members.get(memberId);
    if (!member) return 'UNKNOWN_MEMBER_ID';
    return memberEpoch === member.memberEpoch ? 'NONE' : 'STALE_MEMBER_EPOCH';
  }

  // ---------------------------------------------------------------- admin, faults, inspection

  /** DeleteGroups: only an Empty group goes. */
  deleteGroup(groupId: string): ErrorName {
    const group = this.groups.get(groupId);
    if (!group) return 'GROUP_ID_NOT_FOUND';
    if (group.members.size > 0) return 'NON_EMPTY_GROUP';
    this.groups.delete(groupId);
    this.shared.emitStateChanged(groupId, group.state, 'Dead', group.groupEpoch);
    return 'NONE';
  }

  /**
   * Makes the group rebalance now (a fault). KIP-848 has no group-wide
   * rebalance a member must rejoin for: a bumped epoch moves nothing when the
   * target stays the same. So every member is fenced, as expired sessions
   * would: its next heartbeat meets UNKNOWN_MEMBER_ID, the client drops its
   * partitions (Java: onPartitionsLost) and rejoins at epoch 0, and each
   * partition's new owner starts from the committed offset, as after a
   * classic rebalance. 'empty' when the group has no member.
   */
  forceRebalance(groupId: string): 'rebalancing' | 'empty' | 'unknown' {
    const group = this.groups.get(groupId);
    if (!group) return 'unknown';
    if (group.members.size === 0) return 'empty';
    for (const m of [...group.members.values()]) this.fenceMember(group, m, 'session-timeout');
    return 'rebalancing';
  }

  /** Fences a member as an expired session would. False when there is no such member. */
  expireMember(groupId: string, memberId: string): boolean {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    if (!group || !member) return false;
    this.fenceMember(group, member, 'session-timeout');
    return true;
  }

  /** Cancels every timer (the cluster is stopping). */
  shutdown(): void {
    for (const r of this.pendingRefreshes) clearImmediate(r);
    this.pendingRefreshes.clear();
    for (const g of this.groups.values()) {
      g.regexRefreshScheduled = false;
      for (const m of g.members.values()) this.cancelTimers(m);
    }
  }

  /** Forgets every group (the control API's reset); returns how many there were. */
  reset(): number {
    const n = this.groups.size;
    this.shutdown();
    this.groups.clear();
    return n;
  }

  /** The __consumer_offsets topic was deleted: every group goes. */
  dropAll(): void {
    this.reset();
  }

  state(groupId: string): ConsumerGroupState | undefined {
    return this.groups.get(groupId)?.state;
  }
}

/** throwIfConsumerGroupMemberEpochIsInvalid: an epoch ahead is fenced; one behind only when it is the previous epoch and the owned partitions are a subset of the assigned (a lost response). */
function throwIfMemberEpochIsInvalid(member: ConsumerGroupMember, receivedMemberEpoch: number, owned: OwnedTopicPartitions): void {
  if (receivedMemberEpoch > member.memberEpoch) {
    throw new FencedMemberEpoch(`The consumer group member has a greater member epoch (${receivedMemberEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
  if (receivedMemberEpoch < member.memberEpoch && (receivedMemberEpoch !== member.previousMemberEpoch || !isSubset(owned, member.assignedPartitions))) {
    throw new FencedMemberEpoch(`The consumer group member has a smaller member epoch (${receivedMemberEpoch}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`);
  }
}

function isSubset(owned: OwnedTopicPartitions, target: Assignment): boolean {
  if (owned === null) return false;
  return owned.every((tp) => {
    const ps = target.get(tp.topicId);
    return ps !== undefined && tp.partitions.every((p) => ps.has(p));
  });
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
