// shrink-isr: takes followers out of the ISR of a topic's partitions
// (cluster.shrinkIsr), as replica.lag.time.max.ms does to a follower that
// falls behind: the high watermark then needs only the leader (and any
// follower left), so acks=all is acknowledged by fewer replicas, and with
// fewer in-sync replicas than min.insync.replicas acks=all writes are
// refused with NOT_ENOUGH_REPLICAS. A follower that catches up rejoins the
// ISR (pause its replication to keep it out). `topic`: default the request's
// first; `partition`: default every partition; `nodeId`: default every follower.
// Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { fail, optionalInteger, optionalString } from '../validate.js';
import { nodeParam } from './stop-node.js';

export default defineAction({
  type: 'shrink-isr',
  layer: 'frame',
  needsCluster: true,
  needsBody: true,
  summary: "Takes followers (nodeId, default all) out of the ISR of a topic's partitions (default: the request's topic), then forwards the request",
  params: ['topic', 'partition', 'nodeId'],
  parse: (raw, env) => {
    const topic = optionalString(raw.topic, 'action.topic');
    const partition = optionalInteger(raw.partition, 'action.partition', { min: 0 });
    if (partition !== undefined && topic === undefined) fail('action.partition', 'needs action.topic');
    return { topic, partition, nodeId: nodeParam(raw.nodeId, env.nodeIds) };
  },
  fire: (p, ctx) => {
    const topic = p.topic ?? ctx.request.scope().topics[0]?.topic;
    const t = topic === undefined ? undefined : ctx.cluster.topics.get(topic);
    if (!t) return { outcome: FORWARD, detail: { topic, result: 'no-topic' } };
    const isr: Record<number, number[]> = {};
    for (const part of t.partitions) {
      if (p.partition !== undefined && part.index !== p.partition) continue;
      for (const r of part.replicas) if (r !== part.leader && (p.nodeId === undefined || r === p.nodeId)) ctx.cluster.shrinkIsr(t.name, part.index, r);
      isr[part.index] = [...part.isr];
    }
    return { outcome: FORWARD, detail: { topic: t.name, isr } };
  },
});
