// move-leader: elects a new leader for a partition (cluster.electLeader),
// then forwards the request, so the request itself meets the new leadership
// (a Produce to the old leader gets NOT_LEADER_OR_FOLLOWER). `to` picks the
// node (default: the first other in-sync replica); `unclean: true` allows a
// replica outside the ISR, truncating the log to what it has. Without
// `topic`, the partition the request names first (a preset aimed at
// whatever topic the application writes).
import { FORWARD, defineAction } from './action.js';
import { fail, optionalBoolean, optionalInteger, optionalString } from '../validate.js';

export default defineAction({
  type: 'move-leader',
  layer: 'frame',
  needsCluster: true,
  summary: "Moves the leadership of topic/partition (default: the request's first partition) to a node, optionally unclean, then forwards the request",
  needsBody: true,
  params: ['topic', 'partition', 'to', 'unclean'],
  parse: (raw, env) => {
    const to = optionalInteger(raw.to, 'action.to', { min: 0 });
    if (to !== undefined && !env.nodeIds.includes(to)) fail('action.to', `no node ${to} in this cluster (nodes: ${env.nodeIds.join(', ')})`);
    const topic = optionalString(raw.topic, 'action.topic');
    const partition = optionalInteger(raw.partition, 'action.partition', { min: 0 });
    if ((topic === undefined) !== (partition === undefined)) fail(topic === undefined ? 'action.topic' : 'action.partition', 'give action.topic and action.partition together, or neither (the request\'s partition)');
    return {
      topic,
      partition,
      to,
      unclean: optionalBoolean(raw.unclean, 'action.unclean') ?? false,
    };
  },
  fire: (p, ctx) => {
    const named = ctx.request.scope().topics.find((t) => t.partitions?.length);
    const topic = p.topic ?? named?.topic;
    const partition = p.partition ?? named?.partitions?.[0];
    if (topic === undefined || partition === undefined) return { outcome: FORWARD, detail: { result: 'no-partition' } };
    const r = ctx.cluster.electLeader(topic, partition, { nodeId: p.to, unclean: p.unclean });
    const detail = r.ok
      ? { topic, partition, leader: r.value.leader, leaderEpoch: r.value.leaderEpoch, unclean: r.value.unclean, truncatedFrom: r.value.truncatedFrom }
      : { topic, partition, error: r.error, message: r.message };
    return { outcome: FORWARD, detail };
  },
});
