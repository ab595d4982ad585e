// InitProducerId (22), v0-5. Without a transactional id: a new producer id
// at epoch 0, from any node. With one: the same producer id with its epoch
// bumped (a new id when the epoch is exhausted), aborting a transaction the
// previous instance left open (CONCURRENT_TRANSACTIONS until the abort is
// done). Below v4, PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.
import { InitProducerIdApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

export default defineHandler(InitProducerIdApi, (req, ctx) => {
  if (req.transactionalId !== null && req.transactionalId !== '') {
    const wrongNode = notTxnCoordinator(ctx, req.transactionalId);
    if (wrongNode) return { errorCode: ErrorCode[wrongNode], producerId: -1, producerEpoch: -1 };
  }
  const r = ctx.cluster.transactions.initProducerId(req.transactionalId, req.transactionTimeoutMs, req.producerId, req.producerEpoch);
  return { throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(r.error, ctx.apiVersion, 4)], producerId: r.producerId, producerEpoch: r.producerEpoch };
});
