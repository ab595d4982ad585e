// move-leader: elects a new leader for a partition (cluster.electLeader),
// then forwards the request, so the request itself meets the new leadership
// (a Produce to the old leader gets NOT_LEADER_OR_FOLLOWER). `to` picks the
// node (default: the first other in-sync replica); `unclean: true` allows a
// replica outside the ISR, truncating the log to what it has.
import { FORWARD, defineAction } from './action.js';
import { fail, integer, optionalBoolean, optionalInteger, string } from '../validate.js';

export default defineAction({
  type: 'move-leader',
  layer: 'frame',
  needsCluster: true,
  summary: 'Moves the leadership of topic/partition (to a node, optionally unclean), then forwards the request',
  params: ['topic', 'partition', 'to', 'unclean'],
  parse: (raw, env) => {
    const to = optionalInteger(raw.to, 'action.to', { min: 0 });
    if (to !== undefined && !env.nodeIds.includes(to)) fail('action.to', `no node ${to} in this cluster (nodes: ${env.nodeIds.join(', ')})`);
    return {
      topic: string(raw.topic, 'action.topic'),
      partition: integer(raw.partition, 'action.partition', { min: 0 }),
      to,
      unclean: optionalBoolean(raw.unclean, 'action.unclean') ?? false,
    };
  },
  fire: (p, ctx) => {
    const r = ctx.cluster.electLeader(p.topic, p.partition, { nodeId: p.to, unclean: p.unclean });
    const detail = r.ok
      ? { topic: p.topic, partition: p.partition, leader: r.value.leader, leaderEpoch: r.value.leaderEpoch, unclean: r.value.unclean, truncatedFrom: r.value.truncatedFrom }
      : { topic: p.topic, partition: p.partition, error: r.error, message: r.message };
    return { outcome: FORWARD, detail };
  },
});
