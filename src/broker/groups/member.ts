// One member of a classic group, as Kafka's MemberMetadata: its protocols in
// preference order, timeouts, assignment, and the JoinGroup / SyncGroup
// answers it is waiting for. A parked request is a callback; answering it
// clears it.
import type { Timer } from '../clock.js';
import type { ErrorName } from '../../protocol/errors.js';

const EMPTY = Buffer.alloc(0);

export interface GroupProtocol {
  name: string;
  metadata: Buffer;
}

export interface JoinGroupResult {
  error: ErrorName;
  memberId: string;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leaderId: string;
  skipAssignment: boolean;
  /** Only the leader gets the members, with their metadata for the chosen protocol. */
  members: { memberId: string; groupInstanceId: string | null; metadata: Buffer }[];
}

export interface SyncGroupResult {
  error: ErrorName;
  protocolType: string | null;
  protocolName: string | null;
  assignment: Buffer;
}

export type JoinCallback = (result: JoinGroupResult) => void;
export type SyncCallback = (result: SyncGroupResult) => void;

/** JoinGroupResult(memberId, error) of GroupCoordinator.scala: an error answer. */
export function joinError(memberId: string, error: ErrorName): JoinGroupResult {
  return { error, memberId, generationId: -1, protocolType: null, protocolName: null, leaderId: '', skipAssignment: false, members: [] };
}

export function syncError(error: ErrorName): SyncGroupResult {
  return { error, protocolType: null, protocolName: null, assignment: EMPTY };
}

export class Member {
  assignment: Buffer = EMPTY;
  awaitingJoin: JoinCallback | null = null;
  awaitingSync: SyncCallback | null = null;
  /** Added in the current rebalance and not yet through a join completion: only a heartbeat satisfies it. */
  isNew = false;
  /** The pending session (or new-member join) expiry. */
  heartbeatTimer: Timer | null = null;

  constructor(
    public memberId: string,
    readonly groupInstanceId: string | null,
    readonly clientId: string,
    readonly clientHost: string,
    public rebalanceTimeoutMs: number,
    public sessionTimeoutMs: number,
    readonly protocolType: string,
    public protocols: GroupProtocol[],
  ) {}

  get isStatic(): boolean {
    return this.groupInstanceId !== null;
  }

  get isAwaitingJoin(): boolean {
    return this.awaitingJoin !== null;
  }

  get isAwaitingSync(): boolean {
    return this.awaitingSync !== null;
  }

  /** The member's metadata for a protocol it supports. */
  metadata(protocol: string): Buffer {
    const p = this.protocols.find((x) => x.name === protocol);
    if (!p) throw new Error(`member ${this.memberId} does not support protocol ${protocol}`);
    return p.metadata;
  }

  /** Same protocols, in the same order, with byte-identical metadata. */
  matches(protocols: readonly GroupProtocol[]): boolean {
    if (protocols.length !== this.protocols.length) return false;
    return protocols.every((p, i) => p.name === this.protocols[i]!.name && p.metadata.equals(this.protocols[i]!.metadata));
  }

  /** The member's most preferred protocol among the candidates. */
  vote(candidates: ReadonlySet<string>): string {
    const p = this.protocols.find((x) => candidates.has(x.name));
    if (!p) throw new Error(`member ${this.memberId} supports none of the candidate protocols`);
    return p.name;
  }

  /**
   * MemberMetadata#hasSatisfiedHeartbeat at the moment a session deadline
   * passes: a new member must have heartbeated (it never has), a member
   * waiting for a JoinGroup or SyncGroup answer is alive by definition.
   */
  get hasSatisfiedHeartbeat(): boolean {
    if (this.isNew) return false;
    return this.isAwaitingJoin || this.isAwaitingSync;
  }
}
