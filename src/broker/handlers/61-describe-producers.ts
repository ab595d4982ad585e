// DescribeProducers (61), v0: the producer ids a partition leader knows,
// with epoch, last sequence, last timestamp, coordinator epoch and the start
// of an open transaction. Expired producer ids are not listed.
import { DescribeProducersApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(DescribeProducersApi, (req, ctx) => ({
  throttleTimeMs: 0,
  topics: req.topics.map((t) => ({
    name: t.name,
    partitions: t.partitionIndexes.map((index) => {
      const p = ctx.cluster.partition(t.name, index);
      const fail = (e: keyof typeof ErrorCode) => ({ partitionIndex: index, errorCode: ErrorCode[e], errorMessage: null, activeProducers: [] });
      // KafkaApis.handleDescribeProducersRequest: READ on the topic, before it is looked up.
      if (!authorize(ctx, 'READ', 'TOPIC', t.name)) return fail('TOPIC_AUTHORIZATION_FAILED');
      if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION');
      if (p.leader !== ctx.nodeId) return fail('NOT_LEADER_OR_FOLLOWER');
      return {
        partitionIndex: index,
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        activeProducers: p.producers.producers().map((e) => ({
          producerId: e.producerId,
          producerEpoch: e.producerEpoch,
          lastSequence: e.batches.at(-1)?.lastSeq ?? -1,
          lastTimestamp: e.lastTimestamp,
          coordinatorEpoch: e.coordinatorEpoch,
          currentTxnStartOffset: e.currentTxnFirstOffset ?? -1,
        })),
      };
    }),
  })),
}));
