// rewind: moves a group's committed offsets back (cluster.groups
// .setCommittedOffsets) and makes the group rebalance (forceRebalance), so
// its members rejoin, fetch their committed offsets again and resume from
// there: records already processed are delivered again, as after a crash
// between processing and committing. `to` is an offset or 'earliest' (the
// partition's log start); `by: n` moves n offsets back from the committed
// one (not before the log start). Only partitions with a committed offset
// move, narrowed by `topic` and `partition`. Then forwards the request.
// Without `groupId`, the group the matched request names.
import { FORWARD, defineAction } from './action.js';
import { requestGroup } from './rebalance.js';
import { describe, fail, integer, optionalInteger, optionalString } from '../validate.js';

type Target = { to: number | 'earliest' } | { by: number };

function target(to: unknown, by: unknown): Target {
  if (to !== undefined && by !== undefined) fail('action.by', 'give either action.to or action.by, not both');
  if (by !== undefined) return { by: integer(by, 'action.by', { min: 1 }) };
  if (to === undefined) fail('action.to', "is required (an offset or 'earliest'), unless action.by is given");
  if (to === 'earliest') return { to };
  if (typeof to !== 'number') fail('action.to', `must be an offset or 'earliest', got ${describe(to)}`);
  return { to: integer(to, 'action.to', { min: 0 }) };
}

export default defineAction({
  type: 'rewind',
  layer: 'frame',
  needsCluster: true,
  summary: "Moves a group's committed offsets back (to an offset, 'earliest', or by n) and makes the group rebalance, then forwards the request",
  params: ['groupId', 'topic', 'partition', 'to', 'by'],
  parse: (raw) => {
    const topic = optionalString(raw.topic, 'action.topic');
    const partition = optionalInteger(raw.partition, 'action.partition', { min: 0 });
    if (partition !== undefined && topic === undefined) fail('action.partition', 'needs action.topic');
    return { groupId: optionalString(raw.groupId, 'action.groupId'), topic, partition, ...target(raw.to, raw.by) };
  },
  fire: (p, ctx) => {
    const { groups } = ctx.cluster;
    const groupId = requestGroup(p.groupId, ctx);
    if (groupId === undefined) return { outcome: FORWARD, detail: { result: 'no-group' } };
    const moved: { topic: string; partition: number; from: number; to: number }[] = [];
    for (const c of groups.committedOffsets(groupId)) {
      if ((p.topic !== undefined && c.topic !== p.topic) || (p.partition !== undefined && c.partition !== p.partition)) continue;
      const logStart = ctx.cluster.partition(c.topic, c.partition)?.logStartOffset ?? 0;
      const to = 'by' in p ? Math.max(logStart, c.offset - p.by) : p.to === 'earliest' ? logStart : p.to;
      if (to !== c.offset) moved.push({ topic: c.topic, partition: c.partition, from: c.offset, to });
    }
    groups.setCommittedOffsets(groupId, moved.map((m) => ({ topic: m.topic, partition: m.partition, offset: m.to })));
    const rebalance = groups.forceRebalance(groupId);
    return { outcome: FORWARD, detail: { groupId, offsets: moved, rebalance } };
  },
});
