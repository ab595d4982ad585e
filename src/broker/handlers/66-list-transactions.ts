// ListTransactions (66), v0-1: the transactional ids this node coordinates,
// filtered by state, producer id and (v1) by running longer than a duration.
// Unknown state names come back in unknown_state_filters.
import { ListTransactionsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { TRANSACTION_KEY_TYPE, coordinatorFor } from '../coordinators.js';
import { validPreviousStates } from '../transactions/transaction-metadata.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

// Served up to v1: v2 (a transactional id pattern, KIP-1152) is in the codecs, not served yet.
export default defineHandler(ListTransactionsApi, (req, ctx) => {
  const { cluster } = ctx;
  const known = new Set(Object.keys(validPreviousStates));
  const states = new Set(req.stateFilters.filter((s) => known.has(s)));
  const pids = new Set(req.producerIdFilters);
  const now = cluster.clock.now();
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    unknownStateFilters: req.stateFilters.filter((s) => !known.has(s)),
    transactionStates: cluster.transactions
      .all()
      .filter((t) => coordinatorFor(cluster, TRANSACTION_KEY_TYPE, t.transactionalId) === ctx.nodeId)
      // Only ids the principal may DESCRIBE (KafkaApis.handleListTransactionsRequest).
      .filter((t) => authorize(ctx, 'DESCRIBE', 'TRANSACTIONAL_ID', t.transactionalId))
      .filter((t) => req.stateFilters.length === 0 || states.has(t.state))
      .filter((t) => pids.size === 0 || pids.has(t.producerId))
      .filter((t) => ctx.apiVersion < 1 || req.durationFilter < 0 || (t.state === 'Ongoing' && now - t.txnStartTimestamp >= req.durationFilter))
      .map((t) => ({ transactionalId: t.transactionalId, producerId: t.producerId, transactionState: t.state })),
  };
}, { max: 1 });
