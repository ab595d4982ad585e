// metadata-lag: KRaft's metadata lag. A KRaft broker learns of a topic's
// creation only when it replays the controller's metadata log into its
// KRaftMetadataCache; until then it answers as if the topic did not exist:
// Metadata for it with UNKNOWN_TOPIC_OR_PARTITION (KafkaApis.getTopicMetadata;
// an all-topics Metadata leaves it out), Produce and Fetch to it with
// UNKNOWN_TOPIC_OR_PARTITION (ReplicaManager.getPartitionOrError: no hosted
// partition, none in the metadata cache), a Fetch by topic id with
// UNKNOWN_TOPIC_ID. From when the rule fires, every topic created stays
// unseen that long (`ms`, cluster clock) on the node `nodeId` (default:
// every node), then that node catches up. `ms: 0` ends the lag for topics
// created later. Then forwards the request, so a rule on CreateTopics lags
// the very topics it creates.
import { FORWARD, defineAction } from './action.js';
import { integer } from '../validate.js';
import { nodeParam } from './stop-node.js';

export default defineAction({
  type: 'metadata-lag',
  layer: 'frame',
  needsCluster: true,
  summary: "Makes topics created from now on unknown for ms on a node's metadata (nodeId, default: every node), as a KRaft broker that has not caught up answers; then forwards the request",
  params: ['ms', 'nodeId'],
  parse: (raw, env) => ({ ms: integer(raw.ms, 'action.ms', { min: 0, max: 86_400_000 }), nodeId: nodeParam(raw.nodeId, env.nodeIds) }),
  fire: (p, ctx) => {
    const nodeIds = p.nodeId === undefined ? [...ctx.cluster.nodes.keys()] : [p.nodeId];
    ctx.cluster.setMetadataLag(nodeIds, p.ms);
    return { outcome: FORWARD, detail: { ms: p.ms, nodeIds } };
  },
});
