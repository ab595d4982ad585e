// What the transaction handlers share: the coordinator-node check and the
// version-dependent name of PRODUCER_FENCED.
import type { ErrorName } from '../../protocol/errors.js';
import { TRANSACTION_KEY_TYPE, coordinatorFor } from '../coordinators.js';
import type { RequestContext } from './handler.js';

/** NOT_COORDINATOR unless this node leads the transactional id's __transaction_state partition. */
export function notTxnCoordinator(ctx: RequestContext, transactionalId: string): ErrorName | null {
  return coordinatorFor(ctx.cluster, TRANSACTION_KEY_TYPE, transactionalId) === ctx.nodeId ? null : 'NOT_COORDINATOR';
}

/** Versions before `sinceVersion` know PRODUCER_FENCED only as INVALID_PRODUCER_EPOCH. */
export function fencedAs(error: ErrorName, version: number, sinceVersion: number): ErrorName {
  return error === 'PRODUCER_FENCED' && version < sinceVersion ? 'INVALID_PRODUCER_EPOCH' : error;
}
