// min-insync-replicas: sets a topic's min.insync.replicas (default topic:
// the request's first), as an operator's config change would: acks=all
// writes to a partition with fewer in-sync replicas are refused with
// NOT_ENOUGH_REPLICAS (acks=1 ones are not). Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { integer, optionalString } from '../validate.js';

export default defineAction({
  type: 'min-insync-replicas',
  layer: 'frame',
  needsCluster: true,
  needsBody: true,
  summary: "Sets a topic's min.insync.replicas (default topic: the request's), then forwards the request",
  params: ['topic', 'value'],
  parse: (raw) => ({ topic: optionalString(raw.topic, 'action.topic'), value: integer(raw.value, 'action.value', { min: 1, max: 32767 }) }),
  fire: (p, ctx) => {
    const topic = p.topic ?? ctx.request.scope().topics[0]?.topic;
    const t = topic === undefined ? undefined : ctx.cluster.topics.get(topic);
    if (!t) return { outcome: FORWARD, detail: { topic, result: 'no-topic' } };
    t.configs.set('min.insync.replicas', String(p.value));
    return { outcome: FORWARD, detail: { topic: t.name, value: p.value } };
  },
});
