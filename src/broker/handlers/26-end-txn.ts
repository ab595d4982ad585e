// EndTxn (26), v0-5: commit or abort. The answer comes once the transaction
// is prepared; markers then go to every partition in it (at once here,
// unless a partition has no leader, which holds the transaction in
// Prepare* with CONCURRENT_TRANSACTIONS for anything that meets it).
// v5 is transactions v2 (KIP-890 part 2; KafkaApis: version > 4 is
// TransactionVersion 2): every commit or abort bumps the epoch, and the
// answer carries the producer id and epoch to use next.
import { EndTxnApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { TRANSACTION_VERSION_2 } from '../transactions/transaction-metadata.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

export default defineHandler(EndTxnApi, (req, ctx) => {
  // KafkaApis.handleEndTxnRequest: WRITE on the transactional id.
  const failed = (error: ErrorName) => ({ throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(error, ctx.apiVersion, 2)], producerId: -1, producerEpoch: -1 });
  if (!authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)) return failed('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
  const notCoordinator = notTxnCoordinator(ctx, req.transactionalId);
  if (notCoordinator) return failed(notCoordinator);
  const r = ctx.cluster.transactions.endTxn(req.transactionalId, req.producerId, req.producerEpoch, req.committed, ctx.apiVersion > 4 ? TRANSACTION_VERSION_2 : 0);
  return r.error === 'NONE' ? { throttleTimeMs: 0, errorCode: 0, producerId: r.producerId, producerEpoch: r.producerEpoch } : failed(r.error);
});
