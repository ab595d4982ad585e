// Share sessions (KIP-932; Kafka 4.4's ShareSessionCache and ShareSession):
// each broker has its own cache (BrokerServer makes one per broker), one
// session per (group, member) in it, made by a ShareFetch at epoch 0, each later
// ShareFetch or ShareAcknowledge naming the next epoch, closed at epoch -1 or
// when the connection that made it closes. A session remembers its
// partitions, so a later fetch reads all of them and answers only those with
// news (records, an error, or newly added).
import type { ErrorName } from '../../protocol/errors.js';

export const INITIAL_SHARE_SESSION_EPOCH = 0;
export const FINAL_SHARE_SESSION_EPOCH = -1;

/** ShareRequestMetadata#nextEpoch. */
export function nextEpoch(epoch: number): number {
  if (epoch < 0) return FINAL_SHARE_SESSION_EPOCH;
  return epoch === 0x7fffffff ? 1 : epoch + 1;
}

export interface SessionPartition {
  readonly topicId: string;
  readonly partition: number;
  /** Newly added: the next answer includes it even with nothing to say (CachedSharePartition's requiresUpdateInResponse). */
  reportPending: boolean;
}

export class ShareSession {
  epoch = 1;
  readonly partitions = new Map<string, SessionPartition>();

  constructor(
    readonly groupId: string,
    readonly memberId: string,
    readonly connectionId: number,
    /** The broker whose cache holds it. */
    readonly nodeId: number,
  ) {}

  add(topicId: string, partition: number): void {
    const key = partitionKey(topicId, partition);
    if (!this.partitions.has(key)) this.partitions.set(key, { topicId, partition, reportPending: true });
  }

  forget(topicId: string, partition: number): void {
    this.partitions.delete(partitionKey(topicId, partition));
  }
}

export const partitionKey = (topicId: string, partition: number) => `${topicId}:${partition}`;

export class ShareSessionError extends Error {
  constructor(readonly error: ErrorName) {
    super(error);
  }
}

export class ShareSessionCache {
  private readonly sessions = new Map<string, ShareSession>();

  /** group.share.max.share.sessions. */
  constructor(
    readonly nodeId: number,
    readonly maxEntries = 2000,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(groupId: string, memberId: string): ShareSession | undefined {
    return this.sessions.get(sessionKey(groupId, memberId));
  }

  /** Epoch 0: a new session, replacing the member's old one (whose records are not released). */
  open(groupId: string, memberId: string, connectionId: number): ShareSession {
    const key = sessionKey(groupId, memberId);
    this.sessions.delete(key);
    if (this.sessions.size >= this.maxEntries) throw new ShareSessionError('SHARE_SESSION_LIMIT_REACHED');
    const s = new ShareSession(groupId, memberId, connectionId, this.nodeId);
    this.sessions.set(key, s);
    return s;
  }

  /** A later request at `epoch`: the session must exist at that epoch, and moves to the next. -1 is checked only for existence. */
  advance(groupId: string, memberId: string, epoch: number): ShareSession {
    const s = this.get(groupId, memberId);
    if (!s) throw new ShareSessionError('SHARE_SESSION_NOT_FOUND');
    if (epoch === FINAL_SHARE_SESSION_EPOCH) return s;
    if (s.epoch !== epoch) throw new ShareSessionError('INVALID_SHARE_SESSION_EPOCH');
    s.epoch = nextEpoch(s.epoch);
    return s;
  }

  remove(session: ShareSession): boolean {
    const key = sessionKey(session.groupId, session.memberId);
    if (this.sessions.get(key) !== session) return false;
    this.sessions.delete(key);
    return true;
  }

  /** The sessions of a group (to drop them with it). */
  ofGroup(groupId: string): ShareSession[] {
    return [...this.sessions.values()].filter((s) => s.groupId === groupId);
  }

  all(): IterableIterator<ShareSession> {
    return this.sessions.values();
  }

  clear(): void {
    this.sessions.clear();
  }
}

const sessionKey = (groupId: string, memberId: string) => `${groupId}\u0000${memberId}`;
