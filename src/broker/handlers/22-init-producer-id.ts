// InitProducerId (22), v0-5. Without a transactional id: a new producer id
// at epoch 0, from any node. With one: the same producer id with its epoch
// bumped (a new id when the epoch is exhausted), aborting a transaction the
// previous instance left open (CONCURRENT_TRANSACTIONS until the abort is
// done). Below v4, PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.
import { InitProducerIdApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizeByResourceType, authorizeCluster } from './authorize.js';
import { fencedAs, notTxnCoordinator } from './txn-shared.js';

// Served up to v5: v6 (two-phase commit, KIP-939) is in the codecs, not served yet.
export default defineHandler(InitProducerIdApi, (req, ctx) => {
  // KafkaApis.handleInitProducerIdRequest: WRITE on the transactional id; an idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic (KIP-679).
  const refused = (error: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED' | 'CLUSTER_AUTHORIZATION_FAILED') => ({ throttleTimeMs: 0, errorCode: ErrorCode[error], producerId: -1, producerEpoch: -1 });
  if (req.transactionalId !== null) {
    if (!authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)) return refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
  } else if (!authorizeCluster(ctx, 'IDEMPOTENT_WRITE') && !authorizeByResourceType(ctx, 'WRITE', 'TOPIC')) return refused('CLUSTER_AUTHORIZATION_FAILED');
  if (req.transactionalId !== null && req.transactionalId !== '') {
    const wrongNode = notTxnCoordinator(ctx, req.transactionalId);
    if (wrongNode) return { errorCode: ErrorCode[wrongNode], producerId: -1, producerEpoch: -1 };
  }
  const r = ctx.cluster.transactions.initProducerId(req.transactionalId, req.transactionTimeoutMs, req.producerId, req.producerEpoch);
  return { throttleTimeMs: 0, errorCode: ErrorCode[fencedAs(r.error, ctx.apiVersion, 4)], producerId: r.producerId, producerEpoch: r.producerEpoch };
}, { max: 5 });
