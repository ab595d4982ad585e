// DeleteRecords (21), v0-2: moves a partition's log start offset forward
// (offset -1 means the high watermark); answered by the leader only.
import { DeleteRecordsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(DeleteRecordsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  topics: req.topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((rp) => {
      const fail = (e: keyof typeof ErrorCode) => ({ partitionIndex: rp.partitionIndex, lowWatermark: -1, errorCode: ErrorCode[e] });
      // KafkaApis.handleDeleteRecordsRequest: DELETE on the topic, before it is looked up.
      if (!authorize(ctx, 'DELETE', 'TOPIC', t.name)) return fail('TOPIC_AUTHORIZATION_FAILED');
      // KafkaApis' metadataCache.contains, then ReplicaManager.getPartitionOrException, on what this node's metadata has (metadata-lag).
      const lag = ctx.cluster.laggedPartition(ctx, t.name, rp.partitionIndex);
      if (lag) return fail(lag.error);
      const p = ctx.cluster.partition(t.name, rp.partitionIndex);
      if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION');
      if (p.leader !== ctx.nodeId) return fail('NOT_LEADER_OR_FOLLOWER');
      const offset = rp.offset === -1 ? p.highWatermark : rp.offset;
      if (offset < 0 || offset > p.highWatermark) return fail('OFFSET_OUT_OF_RANGE');
      p.log.advanceStart(offset);
      p.notify();
      return { partitionIndex: rp.partitionIndex, lowWatermark: p.logStartOffset, errorCode: ErrorCode.NONE };
    }),
  })),
}));
