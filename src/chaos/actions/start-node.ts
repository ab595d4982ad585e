// start-node: starts a stopped broker node again (default: the one the
// request was sent to, which is a no-op). Its listeners come back on their
// old ports a moment later; then the request is forwarded.
import { FORWARD, defineAction } from './action.js';
import { nodeParam } from './stop-node.js';

export default defineAction({
  type: 'start-node',
  layer: 'frame',
  needsCluster: true,
  summary: 'Starts a stopped broker node (default: the one the request was sent to)',
  params: ['nodeId'],
  parse: (raw, env) => ({ nodeId: nodeParam(raw.nodeId, env.nodeIds) }),
  fire: (p, ctx) => {
    const nodeId = p.nodeId ?? ctx.request.nodeId;
    const r = ctx.cluster.startNode(nodeId);
    return { outcome: FORWARD, detail: r.ok ? { nodeId } : { nodeId, error: r.error, message: r.message } };
  },
});
