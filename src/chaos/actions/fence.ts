// fence: does to a transactional id what a new producer instance with the
// same id would (cluster.transactions.fence): the epoch is bumped and an
// open transaction aborted, so the old instance's next request is refused
// (PRODUCER_FENCED / INVALID_PRODUCER_EPOCH). Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { string } from '../validate.js';

export default defineAction({
  type: 'fence',
  layer: 'frame',
  needsCluster: true,
  summary: 'Fences a transactional id (epoch bump, open transaction aborted), then forwards the request',
  params: ['transactionalId'],
  parse: (raw) => ({ transactionalId: string(raw.transactionalId, 'action.transactionalId') }),
  fire: (p, ctx) => ({ outcome: FORWARD, detail: { transactionalId: p.transactionalId, result: ctx.cluster.transactions.fence(p.transactionalId) } }),
});
