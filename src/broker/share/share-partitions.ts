// The share partitions of every share group, and their sessions (Kafka
// 4.4's SharePartitionManager): a share partition is made when its group
// first fetches it and lives as long as the group and the topic. When a
// session ends (epoch -1, or its connection closed) the member's acquired
// records go back for the others. A leader move releases every acquired
// record of the partition: the new leader reads the share state back, and
// what was only acquired was never written there. Records archived by a
// REJECT or by the delivery count limit go to the group's dead-letter topic
// when it has one (KIP-1191, share.version 2).
import type { Cluster, Topic } from '../cluster.js';
import type { Partition } from '../partition.js';
import { SharePartition, type ArchivedForDeadLetter } from './share-partition.js';
import { ShareSessionCache, type ShareSession } from './share-sessions.js';
import type { ShareGroupConfigValues } from '../groups/group-configs.js';
import { writeDeadLetters } from './dead-letter.js';

const spKey = (groupId: string, topicId: string, partition: number) => `${groupId}\u0000${topicId}:${partition}`;

export class SharePartitions {
  private readonly partitions = new Map<string, SharePartition>();
  /** A share session cache per broker, as each Kafka broker has its own (BrokerServer's ShareSessionCache): a member has a session on every leader it fetches from. */
  private readonly sessionCaches = new Map<number, ShareSessionCache>();
  /** Groups that have had share state (Kafka's ShareGroupStatePartitionMetadata record): it outlives the state it lists, until the group goes. */
  private readonly groupsWithState = new Set<string>();
  /** Listeners for records becoming AVAILABLE, per share partition (waiting ShareFetches). */
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly cluster: Cluster) {
    cluster.on('leader-changed', (c) => {
      const t = cluster.topic(c.topic);
      if (t) this.releaseAllOn(t.topicId, c.partition);
    });
    cluster.on('topic-deleted', () => this.dropMissingTopics());
  }

  sessionsOn(nodeId: number): ShareSessionCache {
    let cache = this.sessionCaches.get(nodeId);
    if (!cache) this.sessionCaches.set(nodeId, (cache = new ShareSessionCache(nodeId)));
    return cache;
  }

  private config(groupId: string): ShareGroupConfigValues {
    return this.cluster.groupConfigs.share(groupId);
  }

  get(groupId: string, topicId: string, partition: number): SharePartition | undefined {
    return this.partitions.get(spKey(groupId, topicId, partition));
  }

  /** SharePartitionManager#getOrCreateSharePartition: made (and its start offset set) on the group's first fetch. */
  getOrCreate(groupId: string, topic: Topic, p: Partition): SharePartition {
    const key = spKey(groupId, topic.topicId, p.index);
    let sp = this.partitions.get(key);
    if (sp) return sp;
    sp = new SharePartition(groupId, p, () => this.config(groupId), {
      setTimer: (ms, fn) => this.cluster.clock.setTimer(ms, fn),
      now: () => this.cluster.clock.now(),
      onAvailable: () => this.notify(key),
      onDeadLetter: (records) => this.deadLetter(groupId, topic, p, records),
    });
    this.partitions.set(key, sp);
    this.groupsWithState.add(groupId);
    this.cluster.log.info({ group: groupId, topic: topic.name, partition: p.index, startOffset: sp.startOffset }, 'share partition initialized');
    return sp;
  }

  /** Every share partition of a group (DescribeShareGroupOffsets, inspection). */
  ofGroup(groupId: string): { topicId: string; partition: number; sharePartition: SharePartition }[] {
    const prefix = `${groupId}\u0000`;
    return [...this.partitions]
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, sharePartition]) => {
        const [topicId, partition] = k.slice(prefix.length).split(':') as [string, string];
        return { topicId, partition: Number(partition), sharePartition };
      });
  }

  /** Calls fn when records of the share partition become AVAILABLE; returns the unsubscribe function. */
  onAvailable(groupId: string, topicId: string, partition: number, fn: () => void): () => void {
    const key = spKey(groupId, topicId, partition);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  private notify(key: string): void {
    for (const fn of [...(this.listeners.get(key) ?? [])]) fn();
  }

  notifyAvailable(groupId: string, topicId: string, partition: number): void {
    this.notify(spKey(groupId, topicId, partition));
  }

  /** SharePartitionManager#releaseSession: the session goes, and its member's records on its partitions go back. */
  releaseSession(session: ShareSession): number {
    if (!this.sessionsOn(session.nodeId).remove(session)) return 0;
    let released = 0;
    for (const s of session.partitions.values()) {
      // Only the share partitions the session's broker leads: another broker's are not in its SharePartitionManager.
      const sp = this.get(session.groupId, s.topicId, s.partition);
      if (sp && sp.partition.leader === session.nodeId) released += sp.releaseAcquiredRecords(session.memberId);
    }
    if (released > 0) this.cluster.log.info({ group: session.groupId, member: session.memberId, released }, 'share session closed; acquired records released');
    return released;
  }

  /** A leader move: every acquired record of the partition, in every group, goes back. */
  private releaseAllOn(topicId: string, partition: number): void {
    for (const [key, sp] of this.partitions) if (key.endsWith(`\u0000${topicId}:${partition}`)) sp.expireLocks();
  }

  /** Expires acquisition locks now (the fault of a lock that runs out early): a group's, optionally one member's. */
  expireLocks(groupId: string, memberId?: string): number {
    let n = 0;
    for (const { sharePartition } of this.ofGroup(groupId)) n += sharePartition.expireLocks(memberId);
    return n;
  }

  /**
   * DescribeShareGroupOffsets for one partition (ShareCoordinatorShard#readStateSummary):
   * the state as last written (share-partition.ts: its start offset lags the
   * live one by a write), its leader epoch, and the lag (high watermark -
   * start offset - records after it already done); -1, 0, -1 for a
   * partition whose state was never written (not read yet, or only acquired).
   */
  offsetSummary(groupId: string, topicId: string, partition: number): { startOffset: number; leaderEpoch: number; lag: number } {
    const w = this.get(groupId, topicId, partition)?.written;
    if (!w) return { startOffset: -1, leaderEpoch: 0, lag: -1 };
    const hwm = this.get(groupId, topicId, partition)!.partition.highWatermark;
    return { startOffset: w.startOffset, leaderEpoch: w.leaderEpoch, lag: w.startOffset < 0 ? -1 : hwm - w.startOffset - w.deliveryComplete };
  }

  /** Whether the group has had share state: DeleteShareGroupOffsets answers its topics one by one, else none (GroupMetadataManager#sharePartitionsEligibleForOffsetDeletion). */
  hasHadState(groupId: string): boolean {
    return this.groupsWithState.has(groupId);
  }

  /** AlterShareGroupOffsets: the partition starts again at the offset, nothing in flight; -1 is "not started" (share.auto.offset.reset applies again). */
  alterStartOffset(groupId: string, topic: Topic, p: Partition, startOffset: number): void {
    this.groupsWithState.add(groupId);
    const key = spKey(groupId, topic.topicId, p.index);
    const existing = this.partitions.get(key);
    if (startOffset < 0) {
      existing?.cancelLocks();
      this.partitions.delete(key);
      return;
    }
    (existing ?? this.getOrCreate(groupId, topic, p)).resetTo(startOffset);
  }

  /** DeleteShareGroupOffsets for one topic: false when the group holds no state for it. */
  dropTopic(groupId: string, topicId: string): boolean {
    const mine = this.ofGroup(groupId).filter((x) => x.topicId === topicId);
    for (const { partition, sharePartition } of mine) {
      sharePartition.cancelLocks();
      this.partitions.delete(spKey(groupId, topicId, partition));
    }
    return mine.length > 0;
  }

  /** A deleted share group takes its share partitions and sessions with it. */
  dropGroup(groupId: string): void {
    for (const { topicId, partition, sharePartition } of this.ofGroup(groupId)) {
      sharePartition.cancelLocks();
      this.partitions.delete(spKey(groupId, topicId, partition));
    }
    for (const cache of this.sessionCaches.values()) for (const s of cache.ofGroup(groupId)) cache.remove(s);
    this.groupsWithState.delete(groupId);
  }

  private dropMissingTopics(): void {
    for (const [key, sp] of this.partitions) {
      const topicId = key.slice(key.indexOf('\u0000') + 1, key.lastIndexOf(':'));
      if (!this.cluster.topicById(topicId)) {
        sp.cancelLocks();
        this.partitions.delete(key);
      }
    }
  }

  private deadLetter(groupId: string, topic: Topic, p: Partition, records: ArchivedForDeadLetter[]): void {
    const cfg = this.config(groupId);
    if (cfg.deadLetterTopic === '' || this.cluster.profile.features.finalized.every(([name, level]) => name !== 'share.version' || level < 2)) return;
    writeDeadLetters(this.cluster, { groupId, topic: topic.name, partition: p, dlqTopic: cfg.deadLetterTopic, copyRecord: cfg.deadLetterCopyRecord, records });
  }

  shutdown(): void {
    for (const sp of this.partitions.values()) sp.cancelLocks();
  }

  reset(): void {
    this.shutdown();
    this.partitions.clear();
    this.sessionCaches.clear();
    this.groupsWithState.clear();
  }
}
