// EndTxn (26), v0-4: commit or abort. The answer comes once the transaction
// is prepared; markers then go to every partition in it (at once here,
// unless a partition has no leader, which holds the transaction in
// Prepare* with CONCURRENT_TRANSACTIONS for anything that meets it).
import { EndTxnApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

// Served up to v4: v5 (transactions v2, KIP-890 part 2) is in the codecs, not served yet.
export default defineHandler(EndTxnApi, (req, ctx) => {
  // KafkaApis.handleEndTxnRequest: WRITE on the transactional id.
  if (!authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)) return { throttleTimeMs: 0, errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED };
  const error = notTxnCoordinator(ctx, req.transactionalId) ?? ctx.cluster.transactions.endTxn(req.transactionalId, req.producerId, req.producerEpoch, req.committed);
  return { throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(error, ctx.apiVersion, 2)] };
}, { max: 4 });
