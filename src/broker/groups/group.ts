// One classic group, as Kafka's GroupMetadata (core, 3.9): its state,
// generation, protocol, leader, members (dynamic and static), members that
// were told MEMBER_ID_REQUIRED, members still owing a SyncGroup, and its
// offsets. The transitions are Kafka's; anything else throws, because it is a
// bug in the coordinator. Timers and answers to parked requests are the
// coordinator's business (group-coordinator.ts).
import { randomUUID } from 'node:crypto';
import type { Timer } from '../clock.js';
import { Member, type GroupProtocol, type JoinCallback, type JoinGroupResult, type SyncGroupResult } from './member.js';
import { OffsetStore } from './offsets.js';
import { CONSUMER_PROTOCOL_TYPE, subscriptionTopics } from './consumer-protocol.js';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/** GroupState#validPreviousStates. */
const VALID_PREVIOUS_STATES: Record<GroupState, readonly GroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead'],
};

/** What the group metadata record in __consumer_offsets holds: what a new coordinator loads. */
export interface GroupSnapshot {
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leaderId: string | null;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    rebalanceTimeoutMs: number;
    sessionTimeoutMs: number;
    /** The member's metadata for the chosen protocol. */
    subscription: Buffer;
    assignment: Buffer;
  }[];
}

export interface MemberSummary {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  metadata: Buffer;
  assignment: Buffer;
}

export interface GroupSummary {
  state: string;
  protocolType: string;
  protocol: string;
  members: MemberSummary[];
}

const EMPTY = Buffer.alloc(0);

export class Group {
  private stateValue: GroupState;
  currentStateTimestamp: number;
  protocolType: string | null = null;
  protocolName: string | null = null;
  generationId = 0;
  leaderId: string | null = null;
  /** By member id, in the order they were added (the leader falls to the next one). */
  readonly members = new Map<string, Member>();
  /** group.instance.id → member id. */
  private readonly staticMembers = new Map<string, string>();
  /** Members told MEMBER_ID_REQUIRED, with the timer that forgets them. */
  readonly pendingMembers = new Map<string, Timer | null>();
  readonly pendingSyncMembers = new Set<string>();
  /** Topics the members subscribe to (consumer protocol); null = unknown, so treated as subscribed to all. */
  subscribedTopics: Set<string> | null = null;
  /** A member joined during the initial delay of generation 0: the delay is extended. */
  newMemberAdded = false;
  /** The delayed join (initial delay or rebalance timeout) and the pending-sync expiry. */
  joinTimer: Timer | null = null;
  /** The join timer is the initial delay (never completes early), not a rebalance timeout. */
  joinIsInitialDelay = false;
  syncTimer: Timer | null = null;
  /** What was last "written" to __consumer_offsets for this group's membership. */
  snapshot: GroupSnapshot | null = null;

  constructor(
    readonly groupId: string,
    initialState: GroupState,
    private readonly now: () => number,
    readonly offsets = new OffsetStore(),
    private readonly onTransition: (group: Group, from: GroupState) => void = () => {},
  ) {
    this.stateValue = initialState;
    this.currentStateTimestamp = now();
  }

  get state(): GroupState {
    return this.stateValue;
  }

  is(state: GroupState): boolean {
    return this.stateValue === state;
  }

  transitionTo(target: GroupState): void {
    if (!VALID_PREVIOUS_STATES[target].includes(this.stateValue)) {
      throw new Error(`Group ${this.groupId} should be in the ${VALID_PREVIOUS_STATES[target].join(',')} states before moving to ${target} state. Instead it is in ${this.stateValue} state`);
    }
    const from = this.stateValue;
    this.stateValue = target;
    this.currentStateTimestamp = this.now();
    this.onTransition(this, from);
  }

  /** PreparingRebalance can be entered from here. */
  get canRebalance(): boolean {
    return VALID_PREVIOUS_STATES.PreparingRebalance.includes(this.stateValue);
  }

  has(memberId: string): boolean {
    return this.members.has(memberId);
  }

  get(memberId: string): Member {
    const m = this.members.get(memberId);
    if (!m) throw new Error(`group ${this.groupId} has no member ${memberId}`);
    return m;
  }

  get size(): number {
    return this.members.size;
  }

  isLeader(memberId: string): boolean {
    return this.leaderId === memberId;
  }

  get isConsumerGroup(): boolean {
    return this.protocolType === CONSUMER_PROTOCOL_TYPE;
  }

  add(member: Member, callback: JoinCallback | null = null): void {
    if (member.groupInstanceId !== null) {
      if (this.staticMembers.has(member.groupInstanceId)) throw new Error(`Static member with groupInstanceId=${member.groupInstanceId} cannot be added to group ${this.groupId} since it is already a member`);
      this.staticMembers.set(member.groupInstanceId, member.memberId);
    }
    if (this.members.size === 0) this.protocolType = member.protocolType;
    if (this.leaderId === null) this.leaderId = member.memberId;
    this.members.set(member.memberId, member);
    member.awaitingJoin = callback;
    this.forgetPending(member.memberId);
  }

  remove(memberId: string): void {
    const member = this.members.get(memberId);
    if (member) {
      this.members.delete(memberId);
      member.heartbeatTimer?.cancel();
      member.heartbeatTimer = null;
      if (member.groupInstanceId !== null) this.staticMembers.delete(member.groupInstanceId);
    }
    if (this.isLeader(memberId)) this.leaderId = this.members.keys().next().value ?? null;
    this.forgetPending(memberId);
    this.pendingSyncMembers.delete(memberId);
  }

  private forgetPending(memberId: string): void {
    this.pendingMembers.get(memberId)?.cancel();
    this.pendingMembers.delete(memberId);
  }

  /** If the leader did not rejoin, a member that did takes over; false when nobody rejoined (or there is no leader). */
  maybeElectNewJoinedLeader(): boolean {
    if (this.leaderId === null) return false;
    const leader = this.get(this.leaderId);
    if (leader.isAwaitingJoin) return true;
    for (const m of this.members.values()) {
      if (m.isAwaitingJoin) {
        this.leaderId = m.memberId;
        return true;
      }
    }
    return false;
  }

  /** A static member rejoining with a new member id: the old id's parked requests are fenced. */
  replaceStaticMember(groupInstanceId: string, oldMemberId: string, newMemberId: string): Member {
    const member = this.members.get(oldMemberId);
    if (!member) throw new Error(`Cannot replace non-existing member id ${oldMemberId}`);
    this.members.delete(oldMemberId);
    this.maybeInvokeJoinCallback(member, { error: 'FENCED_INSTANCE_ID', memberId: oldMemberId, generationId: -1, protocolType: null, protocolName: null, leaderId: '', skipAssignment: false, members: [] });
    this.maybeInvokeSyncCallback(member, { error: 'FENCED_INSTANCE_ID', protocolType: null, protocolName: null, assignment: EMPTY });
    member.memberId = newMemberId;
    this.members.set(newMemberId, member);
    if (this.isLeader(oldMemberId)) this.leaderId = newMemberId;
    this.staticMembers.set(groupInstanceId, newMemberId);
    return member;
  }

  isPendingMember(memberId: string): boolean {
    return this.pendingMembers.has(memberId);
  }

  addPendingMember(memberId: string, timer: Timer | null): void {
    if (this.has(memberId)) throw new Error(`Attempt to add pending member ${memberId} which is already a stable member of the group`);
    this.pendingMembers.set(memberId, timer);
  }

  currentStaticMemberId(groupInstanceId: string): string | undefined {
    return this.staticMembers.get(groupInstanceId);
  }

  get numAwaiting(): number {
    let n = 0;
    for (const m of this.members.values()) if (m.isAwaitingJoin) n++;
    return n;
  }

  get hasAllMembersJoined(): boolean {
    return this.members.size === this.numAwaiting && this.pendingMembers.size === 0;
  }

  get hasReceivedSyncFromAllMembers(): boolean {
    return this.pendingSyncMembers.size === 0;
  }

  /** The largest rebalance timeout among the members (0 without members). */
  get rebalanceTimeoutMs(): number {
    let t = 0;
    for (const m of this.members.values()) t = Math.max(t, m.rebalanceTimeoutMs);
    return t;
  }

  generateMemberId(clientId: string, groupInstanceId: string | null): string {
    return `${groupInstanceId ?? clientId}-${randomUUID()}`;
  }

  /** Protocols every member supports. */
  private candidateProtocols(): Set<string> {
    const counts = new Map<string, number>();
    for (const m of this.members.values()) for (const p of new Set(m.protocols.map((x) => x.name))) counts.set(p, (counts.get(p) ?? 0) + 1);
    return new Set([...counts].filter(([, n]) => n === this.members.size).map(([p]) => p));
  }

  /** Each member votes for its preferred candidate; the most votes wins (ties: the first voted for). */
  selectProtocol(): string {
    if (this.members.size === 0) throw new Error('Cannot select protocol for empty group');
    const candidates = this.candidateProtocols();
    const votes = new Map<string, number>();
    for (const m of this.members.values()) {
      const v = m.vote(candidates);
      votes.set(v, (votes.get(v) ?? 0) + 1);
    }
    let best = '';
    let most = -1;
    for (const [p, n] of votes) if (n > most) [best, most] = [p, n];
    return best;
  }

  /** GroupMetadata#supportsProtocols: an Empty group takes any non-empty type and list; otherwise one protocol every member supports. */
  supportsProtocols(memberProtocolType: string, memberProtocols: ReadonlySet<string>): boolean {
    if (this.is('Empty')) return memberProtocolType.length > 0 && memberProtocols.size > 0;
    if (this.protocolType !== memberProtocolType) return false;
    const counts = new Map<string, number>();
    for (const m of this.members.values()) for (const p of new Set(m.protocols.map((x) => x.name))) counts.set(p, (counts.get(p) ?? 0) + 1);
    return [...memberProtocols].some((p) => counts.get(p) === this.members.size);
  }

  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopics === null || this.subscribedTopics.has(topic);
  }

  private computeSubscribedTopics(): Set<string> | null {
    if (!this.isConsumerGroup) return null;
    if (this.members.size === 0) return new Set();
    if (this.protocolName === null) return null;
    const topics = new Set<string>();
    for (const m of this.members.values()) {
      const t = subscriptionTopics(m.metadata(this.protocolName));
      if (t === null) return null;
      for (const x of t) topics.add(x);
    }
    return topics;
  }

  updateMember(member: Member, protocols: GroupProtocol[], rebalanceTimeoutMs: number, sessionTimeoutMs: number, callback: JoinCallback | null): void {
    member.protocols = protocols;
    member.rebalanceTimeoutMs = rebalanceTimeoutMs;
    member.sessionTimeoutMs = sessionTimeoutMs;
    member.awaitingJoin = callback;
  }

  maybeInvokeJoinCallback(member: Member, result: JoinGroupResult): void {
    const cb = member.awaitingJoin;
    if (!cb) return;
    member.awaitingJoin = null;
    cb(result);
  }

  /** True if the member was waiting for its SyncGroup answer. */
  maybeInvokeSyncCallback(member: Member, result: SyncGroupResult): boolean {
    const cb = member.awaitingSync;
    if (!cb) return false;
    member.awaitingSync = null;
    cb(result);
    return true;
  }

  initNextGeneration(): void {
    this.generationId += 1;
    if (this.members.size > 0) {
      this.protocolName = this.selectProtocol();
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('CompletingRebalance');
    } else {
      this.protocolName = null;
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('Empty');
    }
    this.pendingSyncMembers.clear();
  }

  /** The members list a leader gets: metadata for the chosen protocol. */
  currentMemberMetadata(): JoinGroupResult['members'] {
    if (this.is('Dead') || this.is('PreparingRebalance')) throw new Error(`Cannot obtain member metadata for group in state ${this.state}`);
    return [...this.members.values()].map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata: m.metadata(this.protocolName!) }));
  }

  /** DescribeGroups: metadata and assignments only when Stable. */
  summary(): GroupSummary {
    const stable = this.is('Stable');
    return {
      state: this.state,
      protocolType: this.protocolType ?? '',
      protocol: stable ? this.protocolName ?? '' : '',
      members: [...this.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata: stable ? m.metadata(this.protocolName!) : EMPTY,
        assignment: stable ? m.assignment : EMPTY,
      })),
    };
  }

  /** What GroupMetadataManager#storeGroup writes: membership with the given assignments. */
  takeSnapshot(assignment: ReadonlyMap<string, Buffer>): GroupSnapshot {
    return {
      generationId: this.generationId,
      protocolType: this.protocolType,
      protocolName: this.protocolName,
      leaderId: this.leaderId,
      members: [...this.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        sessionTimeoutMs: m.sessionTimeoutMs,
        subscription: this.protocolName === null ? EMPTY : m.metadata(this.protocolName),
        assignment: assignment.get(m.memberId) ?? EMPTY,
      })),
    };
  }

  /** GroupMetadata.loadGroup: Stable with the stored members, or Empty without any. */
  static load(
    groupId: string,
    snapshot: GroupSnapshot | null,
    offsets: OffsetStore,
    now: () => number,
    onTransition: (group: Group, from: GroupState) => void,
  ): Group {
    const members = snapshot?.members ?? [];
    const group = new Group(groupId, members.length ? 'Stable' : 'Empty', now, offsets, onTransition);
    group.snapshot = snapshot;
    if (!snapshot) return group;
    group.generationId = snapshot.generationId;
    group.protocolType = snapshot.protocolType;
    group.protocolName = snapshot.protocolName;
    for (const s of members) {
      const m = new Member(s.memberId, s.groupInstanceId, s.clientId, s.clientHost, s.rebalanceTimeoutMs, s.sessionTimeoutMs, snapshot.protocolType ?? '', [
        { name: snapshot.protocolName ?? '', metadata: s.subscription },
      ]);
      m.assignment = s.assignment;
      group.add(m);
    }
    group.leaderId = snapshot.leaderId;
    group.subscribedTopics = group.computeSubscribedTopics();
    return group;
  }
}
