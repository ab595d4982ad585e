// AddPartitionsToTxn (24), v0-5. v0-3 (clients): one transaction, one
// verdict copied onto every partition; a partition that does not exist (or
// is internal) fails and the others get OPERATION_NOT_ATTEMPTED. v4+
// (broker-to-broker, KIP-890): several transactions, and verify_only asks
// whether the partitions are already in the transaction without adding them.
import { AddPartitionsToTxnApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { INTERNAL_TOPICS } from '../topic-names.js';
import type { TopicPartition } from '../transactions/transaction-metadata.js';
import { defineHandler, type RequestContext } from './handler.js';
import { authorize, authorizeCluster, authorizedNames } from './authorize.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

interface TxnInput {
  transactionalId: string;
  producerId: number;
  producerEpoch: number;
  verifyOnly: boolean;
  topics: readonly { name: string; partitions: readonly number[] }[];
}

function handleOne(ctx: RequestContext, t: TxnInput) {
  const partitions: TopicPartition[] = t.topics.flatMap((tp) => tp.partitions.map((partition) => ({ topic: tp.name, partition })));
  const verdicts = new Map<string, ErrorName>();
  const key = (p: TopicPartition) => `${p.topic}:${p.partition}`;
  // KafkaApis.handleAddPartitionsToTxnRequest: below v4 WRITE on the transactional id, for the whole transaction.
  if (ctx.apiVersion <= 3 && !authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', t.transactionalId)) {
    for (const p of partitions) verdicts.set(key(p), 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    partitions.length = 0;
  }
  // WRITE on each topic; internal topics are never authorized here.
  const writable = authorizedNames(ctx, 'WRITE', 'TOPIC', partitions.map((p) => p.topic).filter((n) => !INTERNAL_TOPICS.has(n)));
  for (const p of partitions) {
    if (INTERNAL_TOPICS.has(p.topic) || !writable.has(p.topic)) verdicts.set(key(p), 'TOPIC_AUTHORIZATION_FAILED');
    else if (!ctx.cluster.partition(p.topic, p.partition)) verdicts.set(key(p), 'UNKNOWN_TOPIC_OR_PARTITION');
  }
  if (partitions.length === 0) {
    // refused above
  } else if (verdicts.size > 0) {
    for (const p of partitions) if (!verdicts.has(key(p))) verdicts.set(key(p), 'OPERATION_NOT_ATTEMPTED');
  } else {
    const { transactions } = ctx.cluster;
    const wrongNode = notTxnCoordinator(ctx, t.transactionalId);
    // One verdict for the whole request when adding; one per partition when only verifying.
    const whole = wrongNode ?? (t.verifyOnly ? null : transactions.addPartitions(t.transactionalId, t.producerId, t.producerEpoch, partitions));
    for (const p of partitions) {
      const e = whole ?? transactions.verify(t.transactionalId, t.producerId, t.producerEpoch, p.topic, p.partition);
      verdicts.set(key(p), fencedAs(e, ctx.apiVersion, 2));
    }
  }
  return {
    transactionalId: t.transactionalId,
    topicResults: t.topics.map((tp) => ({
      name: tp.name,
      resultsByPartition: tp.partitions.map((partition) => ({ partitionIndex: partition, partitionErrorCode: ErrorCode[verdicts.get(`${tp.name}:${partition}`) ?? 'NONE'] })),
    })),
  };
}

export default defineHandler(AddPartitionsToTxnApi, (req, ctx) => {
  if (ctx.apiVersion <= 3) {
    const result = handleOne(ctx, {
      transactionalId: req.v3AndBelowTransactionalId,
      producerId: req.v3AndBelowProducerId,
      producerEpoch: req.v3AndBelowProducerEpoch,
      verifyOnly: false,
      topics: req.v3AndBelowTopics,
    });
    return { throttleTimeMs: 0, resultsByTopicV3AndBelow: result.topicResults };
  }
  // v4+ come from brokers: CLUSTER_ACTION, else the request's error (AuthHelper.authorizeClusterOperation).
  if (!authorizeCluster(ctx, 'CLUSTER_ACTION')) return { throttleTimeMs: 0, errorCode: ErrorCode.CLUSTER_AUTHORIZATION_FAILED, resultsByTransaction: [] };
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, resultsByTransaction: req.transactions.map((t) => handleOne(ctx, t)) };
});
