// stop-node: stops a broker node (default: the one the request was sent to).
// Its connections reset, its proxy listener refuses new ones, and its
// leaderships move. A request to the stopped node dies with its connection.
import { FORWARD, defineAction } from './action.js';
import { fail, optionalInteger } from '../validate.js';

export function nodeParam(raw: unknown, nodeIds: readonly number[]): number | undefined {
  const id = optionalInteger(raw, 'action.nodeId', { min: 0 });
  if (id !== undefined && !nodeIds.includes(id)) fail('action.nodeId', `no node ${id} in this cluster (nodes: ${nodeIds.join(', ')})`);
  return id;
}

export default defineAction({
  type: 'stop-node',
  layer: 'frame',
  needsCluster: true,
  summary: 'Stops a broker node (default: the one the request was sent to)',
  params: ['nodeId'],
  parse: (raw, env) => ({ nodeId: nodeParam(raw.nodeId, env.nodeIds) }),
  fire: (p, ctx) => {
    const nodeId = p.nodeId ?? ctx.request.nodeId;
    const r = ctx.cluster.stopNode(nodeId);
    const own = nodeId === ctx.request.nodeId;
    return { outcome: own ? { request: { kind: 'close' } } : FORWARD, detail: r.ok ? { nodeId } : { nodeId, error: r.error, message: r.message } };
  },
});
