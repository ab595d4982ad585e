// metadata-lag: KRaft's metadata lag. A KRaft broker learns of the
// controller's changes only when it replays the metadata log into its
// KRaftMetadataCache (and ReplicaManager); until then it answers from the
// image it had (src/broker/metadata-lag.ts, Cluster.laggedPartition): a
// topic created stays unknown, new partitions (CreatePartitions) unknown, a
// deleted topic still answered, a moved leader answered as the old one with
// its epoch. From when the rule fires, every such change reaches the node
// `nodeId` (default: every node) `ms` later (cluster clock), or the node
// catches up after `requests` answers that showed the lag, whichever comes
// first. `ms: 0` without `requests` ends the lag for changes made later.
// Then forwards the request, so a rule on CreateTopics lags the very
// topics it creates.
import { FORWARD, defineAction } from './action.js';
import { fail, optionalInteger } from '../validate.js';
import { nodeParam } from './stop-node.js';

export default defineAction({
  type: 'metadata-lag',
  layer: 'frame',
  needsCluster: true,
  summary: "Makes the topic changes made from now on (creation, deletion, new partitions, leader moves) reach a node's metadata only after ms or after requests lagged answers (nodeId, default: every node), as a KRaft broker that has not caught up answers; then forwards the request",
  params: ['ms', 'requests', 'nodeId'],
  parse: (raw, env) => {
    const ms = optionalInteger(raw.ms, 'action.ms', { min: 0, max: 86_400_000 });
    const requests = optionalInteger(raw.requests, 'action.requests', { min: 1, max: 1_000_000 });
    if (ms === undefined && requests === undefined) fail('action.ms', 'required (0 to 86400000) unless action.requests is given');
    return { ms, requests, nodeId: nodeParam(raw.nodeId, env.nodeIds) };
  },
  fire: (p, ctx) => {
    const nodeIds = p.nodeId === undefined ? [...ctx.cluster.nodes.keys()] : [p.nodeId];
    ctx.cluster.setMetadataLag(nodeIds, { ...(p.ms !== undefined ? { ms: p.ms } : {}), ...(p.requests !== undefined ? { requests: p.requests } : {}) });
    return { outcome: FORWARD, detail: { ...(p.ms !== undefined ? { ms: p.ms } : {}), ...(p.requests !== undefined ? { requests: p.requests } : {}), nodeIds } };
  },
});
