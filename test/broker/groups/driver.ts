// Drives the group coordinator directly (no sockets) on a manual clock, the
// way a client would: join, sync, heartbeat, leave, commit. Parked JoinGroup
// and SyncGroup answers land in a Reply whose `result` stays undefined until
// the coordinator answers.
import { modelCluster } from '../../support/cluster.js';
import { ensureCoordinatorTopic } from '../../../src/broker/coordinators.js';
import type { GroupCoordinator, GroupProtocol, JoinGroupResult, SyncGroupResult } from '../../../src/broker/groups/group-coordinator.js';
import type { ErrorName } from '../../../src/protocol/errors.js';
import { Writer } from '../../../src/protocol/primitives.js';
import { writeConsumerProtocolSubscription } from '../../../src/protocol/messages/consumer-protocol-subscription.js';
import { writeConsumerProtocolAssignment } from '../../../src/protocol/messages/consumer-protocol-assignment.js';

/** Consumer protocol subscription (version 0) for topics. */
export function subscription(topics: string[], userData: string | null = null): Buffer {
  const w = new Writer();
  w.int16(0);
  writeConsumerProtocolSubscription(w, { topics, userData: userData === null ? null : Buffer.from(userData) }, 0);
  return Buffer.concat(w.finish());
}

/** Consumer protocol assignment (version 0). */
export function assignment(parts: Record<string, number[]>): Buffer {
  const w = new Writer();
  w.int16(0);
  writeConsumerProtocolAssignment(w, { assignedPartitions: Object.entries(parts).map(([topic, partitions]) => ({ topic, partitions })), userData: null }, 0);
  return Buffer.concat(w.finish());
}

export interface Reply<T> {
  result: T | undefined;
  calls: number;
}

function reply<T>(): [Reply<T>, (r: T) => void] {
  const r: Reply<T> = { result: undefined, calls: 0 };
  return [
    r,
    (x) => {
      r.result = x;
      r.calls++;
    },
  ];
}

export interface JoinOptions {
  memberId?: string;
  instanceId?: string | null;
  sessionTimeoutMs?: number;
  rebalanceTimeoutMs?: number;
  protocolType?: string;
  protocols?: GroupProtocol[];
  /** JoinGroup v4+ for a dynamic member (default true). */
  requireKnownMemberId?: boolean;
  /** JoinGroup v9+. */
  supportSkippingAssignment?: boolean;
  clientId?: string;
}

export const SESSION_MS = 10_000;
export const REBALANCE_MS = 20_000;

export class GroupDriver {
  constructor(
    readonly groups: GroupCoordinator,
    readonly groupId: string,
  ) {}

  get node(): number {
    return this.groups.coordinatorFor(0, this.groupId);
  }

  get state() {
    return this.groups.describe(this.groupId)?.state;
  }

  get generation() {
    return this.groups.describe(this.groupId)?.generationId;
  }

  join(o: JoinOptions = {}, node = this.node): Reply<JoinGroupResult> {
    const [r, cb] = reply<JoinGroupResult>();
    this.groups.handleJoinGroup(
      node,
      {
        groupId: this.groupId,
        memberId: o.memberId ?? '',
        groupInstanceId: o.instanceId ?? null,
        requireKnownMemberId: (o.requireKnownMemberId ?? true) && (o.instanceId ?? null) === null,
        supportSkippingAssignment: o.supportSkippingAssignment ?? false,
        clientId: o.clientId ?? 'client',
        clientHost: '/127.0.0.1',
        rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? REBALANCE_MS,
        sessionTimeoutMs: o.sessionTimeoutMs ?? SESSION_MS,
        protocolType: o.protocolType ?? 'consumer',
        protocols: o.protocols ?? [{ name: 'range', metadata: subscription(['t']) }],
      },
      cb,
    );
    return r;
  }

  /** A dynamic member's first JoinGroup (MEMBER_ID_REQUIRED) and its rejoin with the id; the rejoin may park. */
  newMember(o: JoinOptions = {}): { memberId: string; join: Reply<JoinGroupResult> } {
    const first = this.join({ ...o, memberId: '' });
    if (first.result?.error !== 'MEMBER_ID_REQUIRED') throw new Error(`expected MEMBER_ID_REQUIRED, got ${JSON.stringify(first.result)}`);
    const memberId = first.result.memberId;
    return { memberId, join: this.join({ ...o, memberId }) };
  }

  sync(memberId: string, generationId: number, assignments: Record<string, Buffer> = {}, o: { instanceId?: string | null; protocolType?: string | null; protocolName?: string | null } = {}, node = this.node): Reply<SyncGroupResult> {
    const [r, cb] = reply<SyncGroupResult>();
    this.groups.handleSyncGroup(
      node,
      {
        groupId: this.groupId,
        generationId,
        memberId,
        groupInstanceId: o.instanceId ?? null,
        protocolType: o.protocolType ?? null,
        protocolName: o.protocolName ?? null,
        assignments: new Map(Object.entries(assignments)),
      },
      cb,
    );
    return r;
  }

  heartbeat(memberId: string, generationId: number, instanceId: string | null = null, node = this.node): ErrorName {
    return this.groups.handleHeartbeat(node, this.groupId, memberId, instanceId, generationId);
  }

  leave(members: { memberId: string; groupInstanceId?: string | null }[], node = this.node) {
    return this.groups.handleLeaveGroup(
      node,
      this.groupId,
      members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId ?? null })),
    );
  }

  commit(memberId: string, generationId: number, offsets: { topic?: string; partition: number; offset: number; metadata?: string | null }[], instanceId: string | null = null, node = this.node): ErrorName[] {
    return this.groups.handleCommitOffsets(node, {
      groupId: this.groupId,
      memberId,
      generationId,
      groupInstanceId: instanceId,
      offsets: offsets.map((o) => ({ topic: o.topic ?? 't', partition: o.partition, offset: o.offset, leaderEpoch: -1, metadata: o.metadata ?? null })),
    });
  }

  fetch(partitions: { topic: string; partition: number }[] | null, requireStable = false, node = this.node) {
    return this.groups.handleFetchOffsets(node, this.groupId, requireStable, partitions);
  }
}

/** A model cluster on a manual clock whose __consumer_offsets exists (as after the first FindCoordinator). */
export function groupCluster(brokers = 1) {
  const { cluster, clock } = modelCluster({ brokers });
  ensureCoordinatorTopic(cluster, 0);
  cluster.createTopic('t', { numPartitions: 4, replicationFactor: 1 });
  return { cluster, clock, groups: cluster.groups };
}
