// DescribeTransactions (65), v0: state, timeout, start time, producer id
// and epoch, and the partitions of each transactional id, from its
// coordinator (NOT_COORDINATOR elsewhere; TRANSACTIONAL_ID_NOT_FOUND if unknown).
import { DescribeTransactionsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';
import { notTxnCoordinator } from './txn-shared.js';

export default defineHandler(DescribeTransactionsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  transactionStates: req.transactionalIds.map((id) => {
    // KafkaApis.handleDescribeTransactionsRequest: DESCRIBE on the id; partitions of topics not describable are left out.
    if (!authorize(ctx, 'DESCRIBE', 'TRANSACTIONAL_ID', id)) return { errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, transactionalId: id, transactionState: '', transactionTimeoutMs: 0, transactionStartTimeMs: -1, producerId: -1, producerEpoch: -1, topics: [] };
    const wrongNode = notTxnCoordinator(ctx, id);
    const txn = ctx.cluster.transactions.get(id);
    if (wrongNode || !txn) return { errorCode: ErrorCode[wrongNode ?? 'TRANSACTIONAL_ID_NOT_FOUND'], transactionalId: id, transactionState: '', transactionTimeoutMs: 0, transactionStartTimeMs: -1, producerId: -1, producerEpoch: -1, topics: [] };
    const byTopic = new Map<string, number[]>();
    for (const p of txn.partitions.values()) if (authorize(ctx, 'DESCRIBE', 'TOPIC', p.topic)) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
    return {
      errorCode: ErrorCode.NONE,
      transactionalId: id,
      transactionState: txn.state,
      transactionTimeoutMs: txn.txnTimeoutMs,
      transactionStartTimeMs: txn.txnStartTimestamp,
      producerId: txn.producerId,
      producerEpoch: txn.producerEpoch,
      topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
    };
  }),
}));
