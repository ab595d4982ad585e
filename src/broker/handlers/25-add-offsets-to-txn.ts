// AddOffsetsToTxn (25), v0-4: the group's __consumer_offsets partition joins
// the transaction, so TxnOffsetCommit may write to it. Errors as
// AddPartitionsToTxn; below v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.
import { AddOffsetsToTxnApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

export default defineHandler(AddOffsetsToTxnApi, (req, ctx) => {
  const error = notTxnCoordinator(ctx, req.transactionalId) ?? ctx.cluster.transactions.addOffsets(req.transactionalId, req.producerId, req.producerEpoch, req.groupId);
  return { throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(error, ctx.apiVersion, 2)] };
});
