// pause-replication: stops the followers on a node from copying anything
// (cluster.pauseReplication), or lets them catch up again (resume: true).
// Paused followers stay in the ISR, so acks=all writes wait for them (and
// time out) while acks=1 writes are acknowledged by the leader alone: if the
// leader then fails, a paused follower that takes over has lost them.
// Default node: every node but the one the request was sent to (the
// leader's followers). Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { optionalBoolean } from '../validate.js';
import { nodeParam } from './stop-node.js';

export default defineAction({
  type: 'pause-replication',
  layer: 'frame',
  needsCluster: true,
  summary: 'Pauses the followers on a node (default: every node but the one the request went to), or resumes them, then forwards the request',
  params: ['nodeId', 'resume'],
  parse: (raw, env) => ({ nodeId: nodeParam(raw.nodeId, env.nodeIds), resume: optionalBoolean(raw.resume, 'action.resume') ?? false }),
  fire: (p, ctx) => {
    const nodes = p.nodeId !== undefined ? [p.nodeId] : [...ctx.cluster.nodes.keys()].filter((n) => n !== ctx.request.nodeId);
    for (const n of nodes) (p.resume ? ctx.cluster.resumeReplication(n) : ctx.cluster.pauseReplication(n));
    return { outcome: FORWARD, detail: { nodeIds: nodes, resume: p.resume } };
  },
});
