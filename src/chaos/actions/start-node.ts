// start-node: starts a stopped broker node again (default: the one the
// request was sent to, which is a no-op). Its listeners come back on their
// old ports a moment later; then the request is forwarded. `stopped: true`
// starts every stopped node instead (a preset that stopped "the leader",
// whichever node that was, brings it back).
import { FORWARD, defineAction } from './action.js';
import { nodeParam } from './stop-node.js';
import { fail, optionalBoolean } from '../validate.js';

export default defineAction({
  type: 'start-node',
  layer: 'frame',
  needsCluster: true,
  summary: 'Starts a stopped broker node (default: the one the request was sent to), or every stopped node (stopped: true)',
  params: ['nodeId', 'stopped'],
  parse: (raw, env) => {
    const stopped = optionalBoolean(raw.stopped, 'action.stopped') ?? false;
    if (stopped && raw.nodeId !== undefined) fail('action.stopped', 'give either action.nodeId or action.stopped, not both');
    return { nodeId: nodeParam(raw.nodeId, env.nodeIds), stopped };
  },
  fire: (p, ctx) => {
    if (p.stopped) {
      const nodeIds = [...ctx.cluster.nodes.values()].filter((n) => !n.alive).map((n) => n.nodeId);
      for (const n of nodeIds) ctx.cluster.startNode(n);
      return { outcome: FORWARD, detail: { nodeIds } };
    }
    const nodeId = p.nodeId ?? ctx.request.nodeId;
    const r = ctx.cluster.startNode(nodeId);
    return { outcome: FORWARD, detail: r.ok ? { nodeId } : { nodeId, error: r.error, message: r.message } };
  },
});
