// OffsetForLeaderEpoch (23), v0-4: the end offset of a leader epoch, from
// the partition's epoch history, so clients can detect log truncation after
// an unclean leader change. Answered by the leader only.
import { OffsetForLeaderEpochApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizeCluster } from './authorize.js';

export default defineHandler(OffsetForLeaderEpochApi, (req, ctx) => ({
  throttleTimeMs: 0,
  topics: req.topics.map((t) => ({
    topic: t.topic,
    partitions: t.partitions.map((rp) => {
      const fail = (e: keyof typeof ErrorCode) => ({ errorCode: ErrorCode[e], partition: rp.partition, leaderEpoch: -1, endOffset: -1 });
      const p = ctx.cluster.partition(t.topic, rp.partition);
      // KafkaApis.handleOffsetForLeaderEpochRequest: CLUSTER_ACTION (followers) or DESCRIBE on the topic.
      if (!authorizeCluster(ctx, 'CLUSTER_ACTION') && !authorize(ctx, 'DESCRIBE', 'TOPIC', t.topic)) return fail('TOPIC_AUTHORIZATION_FAILED');
      // ReplicaManager.lastOffsetForLeaderEpoch: not hosted, NOT_LEADER_OR_FOLLOWER if cached, else UNKNOWN_TOPIC_OR_PARTITION; on this node's metadata (metadata-lag).
      const lag = ctx.cluster.laggedPartition(ctx, t.topic, rp.partition);
      if (lag) return fail(lag.error);
      if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION');
      if (p.leader !== ctx.nodeId) return fail('NOT_LEADER_OR_FOLLOWER');
      if (ctx.apiVersion >= 2 && rp.currentLeaderEpoch >= 0) {
        if (rp.currentLeaderEpoch < p.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
        if (rp.currentLeaderEpoch > p.leaderEpoch) return fail('UNKNOWN_LEADER_EPOCH');
      }
      const { leaderEpoch, endOffset } = p.endOffsetForEpoch(rp.leaderEpoch);
      return { errorCode: ErrorCode.NONE, partition: rp.partition, leaderEpoch, endOffset };
    }),
  })),
}));
