// AddOffsetsToTxn (25), v0-4: the group's __consumer_offsets partition joins
// the transaction, so TxnOffsetCommit may write to it. Errors as
// AddPartitionsToTxn; below v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.
import { AddOffsetsToTxnApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

export default defineHandler(AddOffsetsToTxnApi, (req, ctx) => {
  // KafkaApis.handleAddOffsetsToTxnRequest: WRITE on the transactional id, then READ on the group.
  if (!authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)) return { throttleTimeMs: 0, errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED };
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return { throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED };
  const error = notTxnCoordinator(ctx, req.transactionalId) ?? ctx.cluster.transactions.addOffsets(req.transactionalId, req.producerId, req.producerEpoch, req.groupId);
  return { throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(error, ctx.apiVersion, 2)] };
});
