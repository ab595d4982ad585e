// A KIP-932 share group and its members, as Kafka 4.4 keeps them
// (group-coordinator's modern/share package): a group epoch and a target
// assignment with its epoch, as a consumer group has, but no revocation and
// no static members. A member moves straight to its target, and a partition
// may be assigned to several members at once: the share partition, not the
// assignment, decides who gets which record.
import type { Timer } from '../clock.js';
import { copyAssignment, type Assignment } from './assignors/assignor.js';

/** ShareGroup.ShareGroupState, as ListGroups and ShareGroupDescribe name them: Empty iff no members. */
export type ShareGroupState = 'Empty' | 'Stable' | 'Dead';

export const SHARE_GROUP_LEAVE_EPOCH = -1;

export class ShareGroupMember {
  memberEpoch = 0;
  previousMemberEpoch = -1;
  rackId: string | null = null;
  clientId = '';
  clientHost = '';
  subscribedTopicNames: string[] = [];
  assignedPartitions: Assignment = new Map();
  sessionTimer: Timer | null = null;

  constructor(readonly memberId: string) {}

  copy(): ShareGroupMember {
    const m = new ShareGroupMember(this.memberId);
    Object.assign(m, { ...this });
    m.subscribedTopicNames = [...this.subscribedTopicNames];
    m.assignedPartitions = copyAssignment(this.assignedPartitions);
    return m;
  }
}

export class ShareGroup {
  // ModernGroup in 4.4: a new group is at epoch 1 with its target assignment at 1, so the first member gets epoch 2.
  groupEpoch = 1;
  assignmentEpoch = 1;
  readonly members = new Map<string, ShareGroupMember>();
  /** member id → target assignment. */
  readonly targetAssignment = new Map<string, Assignment>();
  /** The subscribed topics' ids and partition counts as of the last epoch bump (Kafka's metadata hash). */
  subscriptionMetadata = '';
  private lastState: ShareGroupState = 'Empty';

  constructor(readonly groupId: string) {}

  get state(): ShareGroupState {
    return this.members.size === 0 ? 'Empty' : 'Stable';
  }

  /** The state before the last call, to tell a transition (for the group events). */
  takeTransition(): { from: ShareGroupState; to: ShareGroupState } | null {
    const to = this.state;
    const from = this.lastState;
    this.lastState = to;
    return from === to ? null : { from, to };
  }

  /** Every topic name some member subscribes to. */
  subscribedTopicNames(): Set<string> {
    const names = new Set<string>();
    for (const m of this.members.values()) for (const t of m.subscribedTopicNames) names.add(t);
    return names;
  }

  /** ModernGroup#subscriptionType: homogeneous when every member subscribes to the same names. */
  isHomogeneous(): boolean {
    const all = this.subscribedTopicNames();
    for (const m of this.members.values()) if (new Set(m.subscribedTopicNames).size !== all.size) return false;
    return true;
  }
}
