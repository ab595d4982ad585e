// OffsetCommit (8), v0-9. A KIP-848 group's commit (v9+) carries the member
// epoch as generation: STALE_MEMBER_EPOCH when it is not the member's, and
// UNSUPPORTED_VERSION below v9 (ConsumerGroup#validateOffsetCommit). Unknown topics and partitions get
// UNKNOWN_TOPIC_OR_PARTITION; the rest go to the group coordinator, which
// checks the member and generation (generation -1 without a member: a
// groupless consumer, accepted while the group is Empty or absent) and stores
// them. Metadata over offset.metadata.max.bytes (4096) gets
// OFFSET_METADATA_TOO_LARGE for that partition alone. v1's commit timestamp
// and v2-4's retention time are kept but nothing expires.
// v0 stored offsets in ZooKeeper: on the ZooKeeper-era profile they go to
// the ZooKeeper offsets (no group or member check, as 2.x's KafkaApis); a
// KRaft broker, and the other profiles, answer UNSUPPORTED_VERSION for it.
// Authorization (KafkaApis.handleOffsetCommitRequest): READ on the group, else
// GROUP_AUTHORIZATION_FAILED on every partition; READ on each topic, else
// TOPIC_AUTHORIZATION_FAILED for its partitions.
import { OffsetCommitApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { CommitOffset } from '../groups/group-coordinator.js';
import { defineHandler } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';

// Served up to v9: v10 (topic ids, KIP-848) is in the codecs, not served yet.
export default defineHandler(OffsetCommitApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const now = cluster.clock.now();
  // One error slot per requested partition, in request order.
  const errors: ErrorName[][] = req.topics.map((t) => t.partitions.map(() => 'NONE' as ErrorName));
  const answer = () => ({
    throttleTimeMs: 0,
    topics: req.topics.map((t, ti) => ({
      name: t.name,
      partitions: t.partitions.map((p, pi) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode[errors[ti]![pi]!] })),
    })),
  });
  // OffsetCommitRequest.getErrorResponse: the group's error on every partition.
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) {
    for (const row of errors) row.fill('GROUP_AUTHORIZATION_FAILED');
    return answer();
  }
  const readable = authorizedNames(ctx, 'READ', 'TOPIC', req.topics.map((t) => t.name));
  const valid: { t: number; p: number; offset: CommitOffset }[] = [];
  req.topics.forEach((t, ti) => {
    const topic = cluster.topic(t.name);
    t.partitions.forEach((p, pi) => {
      if (!readable.has(t.name)) {
        errors[ti]![pi] = 'TOPIC_AUTHORIZATION_FAILED';
        return;
      }
      if (!topic?.partitions[p.partitionIndex]) {
        errors[ti]![pi] = 'UNKNOWN_TOPIC_OR_PARTITION';
        return;
      }
      valid.push({
        t: ti,
        p: pi,
        offset: {
          topic: t.name,
          partition: p.partitionIndex,
          offset: p.committedOffset,
          leaderEpoch: p.committedLeaderEpoch,
          metadata: p.committedMetadata,
          // One clock read for both, as KafkaApis takes currentTimestamp once: expire = commit + retention exactly.
          commitTimestamp: version === 1 ? p.commitTimestamp : now,
          expireTimestamp: version >= 2 && version <= 4 && req.retentionTimeMs !== -1 ? now + req.retentionTimeMs : null,
        },
      });
    });
  });
  if (valid.length > 0) {
    if (version === 0 && cluster.profile.metadataMode === 'zookeeper') {
      // KafkaApis#handleOffsetCommitRequest (2.8.2): "for version 0 always store offsets to ZK".
      for (const v of valid) {
        if (cluster.groups.metadataTooLarge(v.offset.metadata)) errors[v.t]![v.p] = 'OFFSET_METADATA_TOO_LARGE';
        else cluster.groups.zookeeperOffsets.set(req.groupId, v.offset.topic, v.offset.partition, v.offset.offset);
      }
    } else if (version === 0) {
      // The whole request fails, as the exception from KafkaApis#commitOffsetsToZookeeper does.
      for (const row of errors) row.fill('UNSUPPORTED_VERSION');
    } else {
      const results = cluster.groups.handleCommitOffsets(ctx.nodeId, {
        groupId: req.groupId,
        memberId: req.memberId,
        groupInstanceId: req.groupInstanceId,
        generationId: req.generationIdOrMemberEpoch,
        offsets: valid.map((v) => v.offset),
        apiVersion: version,
      });
      valid.forEach((v, i) => (errors[v.t]![v.p] = results[i]!));
    }
  }
  return answer();
}, { max: 9 });
