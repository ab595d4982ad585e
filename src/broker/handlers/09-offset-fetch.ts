// OffsetFetch (9), v0-9. Committed offsets of a group (v8+: of several
// groups, each with its own error), for the listed partitions or, with
// topics null (v2+), every partition that has one. A partition without an
// offset, or a group that does not exist, answers offset -1 with no error.
// No membership check, but v9+ may name a member of a KIP-848 group: it must
// be one at that member epoch (UNKNOWN_MEMBER_ID, STALE_MEMBER_EPOCH; Kafka's
// ConsumerGroup#validateOffsetFetch). require_stable (v7+) answers UNSTABLE_OFFSET_COMMIT
// for a partition whose transactional offset is still pending.
// v0 read ZooKeeper: on the ZooKeeper-era profile the offsets OffsetCommit v0
// stored (-1 where none, or for an unknown partition), else
// UNSUPPORTED_VERSION per partition, as on a KRaft broker.
// v0-1 have no top-level error: a group error is copied onto each requested
// partition (as OffsetFetchResponse intends; a 3.9 broker's coordinator path
// drops the partitions instead, so a v1 client would see no error at all).
import { OffsetFetchApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { FetchedOffset } from '../groups/group-coordinator.js';
import type { Cluster } from '../cluster.js';
import { defineHandler, type RequestContext } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';

interface Wanted {
  name: string;
  partitionIndexes: number[];
}

interface PartitionAnswer {
  partitionIndex: number;
  committedOffset: number;
  committedLeaderEpoch: number;
  metadata: string;
  errorCode: number;
}

/** Groups offsets by topic, topics in first-seen order. */
function byTopic(offsets: readonly FetchedOffset[]) {
  const topics = new Map<string, { name: string; partitions: PartitionAnswer[] }>();
  for (const o of offsets) {
    let t = topics.get(o.topic);
    if (!t) topics.set(o.topic, (t = { name: o.topic, partitions: [] }));
    t.partitions.push({ partitionIndex: o.partition, committedOffset: o.offset, committedLeaderEpoch: o.leaderEpoch, metadata: o.metadata, errorCode: ErrorCode[o.error] });
  }
  return [...topics.values()];
}

const asPartitions = (topics: readonly Wanted[] | null) => topics?.flatMap((t) => t.partitionIndexes.map((partition) => ({ topic: t.name, partition }))) ?? null;

const failed = (topics: readonly Wanted[], error: ErrorName): FetchedOffset[] =>
  topics.flatMap((t) => t.partitionIndexes.map((partition) => ({ topic: t.name, partition, offset: -1, leaderEpoch: -1, metadata: '', error })));

/**
 * One group's offsets as KafkaApis serves them: DESCRIBE on the group, else
 * GROUP_AUTHORIZATION_FAILED; topics the principal may not DESCRIBE are left
 * out of an all-topics fetch, and named ones answer TOPIC_AUTHORIZATION_FAILED
 * after the others (handleOffsetFetchRequestFromCoordinator).
 */
function fetchGroup(
  ctx: RequestContext,
  groupId: string,
  requireStable: boolean,
  topics: readonly Wanted[] | null,
  member?: { memberId: string | null; memberEpoch: number },
): { error: ErrorName; offsets: FetchedOffset[] } {
  if (!authorize(ctx, 'DESCRIBE', 'GROUP', groupId)) return { error: 'GROUP_AUTHORIZATION_FAILED', offsets: [] };
  const groups = ctx.cluster.groups;
  if (topics === null) {
    const r = groups.handleFetchOffsets(ctx.nodeId, groupId, requireStable, null, member);
    if (r.error !== 'NONE' || !ctx.cluster.authorizer) return r;
    const describable = authorizedNames(ctx, 'DESCRIBE', 'TOPIC', r.offsets.map((o) => o.topic));
    return { error: r.error, offsets: r.offsets.filter((o) => describable.has(o.topic)) };
  }
  const describable = authorizedNames(ctx, 'DESCRIBE', 'TOPIC', topics.map((t) => t.name));
  const allowed = topics.filter((t) => describable.has(t.name));
  const r = groups.handleFetchOffsets(ctx.nodeId, groupId, requireStable, asPartitions(allowed), member);
  if (r.error !== 'NONE' || allowed.length === topics.length) return r;
  return { error: r.error, offsets: [...r.offsets, ...failed(topics.filter((t) => !describable.has(t.name)), 'TOPIC_AUTHORIZATION_FAILED')] };
}

/** KafkaApis#handleOffsetFetchRequest (2.8.2), "version 0 reads offsets from ZK": an unknown partition, or one with no offset, is UNKNOWN_PARTITION (-1, no error). */
const fromZooKeeper = (cluster: Cluster, groupId: string, topics: readonly Wanted[]): FetchedOffset[] =>
  topics.flatMap((t) =>
    t.partitionIndexes.map((partition) => ({
      topic: t.name,
      partition,
      offset: cluster.partition(t.name, partition) ? cluster.groups.zookeeperOffsets.get(groupId, t.name, partition) : -1,
      leaderEpoch: -1,
      metadata: '',
      error: 'NONE' as const,
    })),
  );

// Served up to v9: v10 (topic ids, KIP-848) is in the codecs, not served yet.
export default defineHandler(OffsetFetchApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const requireStable = version >= 7 && req.requireStable;
  if (version === 0 && cluster.profile.metadataMode === 'zookeeper') return { throttleTimeMs: 0, topics: byTopic(fromZooKeeper(cluster, req.groupId, req.topics ?? [])) };
  if (version === 0) return { throttleTimeMs: 0, topics: byTopic(failed(req.topics ?? [], 'UNSUPPORTED_VERSION')) };
  if (version >= 8) {
    return {
      throttleTimeMs: 0,
      groups: req.groups.map((g) => {
        const r = fetchGroup(ctx, g.groupId, requireStable, g.topics, version >= 9 ? { memberId: g.memberId, memberEpoch: g.memberEpoch } : undefined);
        return { groupId: g.groupId, errorCode: ErrorCode[r.error], topics: byTopic(r.offsets) };
      }),
    };
  }
  const r = fetchGroup(ctx, req.groupId, requireStable, req.topics);
  if (version === 1 && r.error !== 'NONE') return { throttleTimeMs: 0, topics: byTopic(failed(req.topics ?? [], r.error)) };
  return { throttleTimeMs: 0, errorCode: ErrorCode[r.error], topics: byTopic(r.offsets) };
}, { max: 9 });
