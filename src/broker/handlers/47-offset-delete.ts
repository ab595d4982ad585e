// OffsetDelete (47), v0. Deletes a group's committed offsets: all of the
// listed ones in an Empty group; in a live consumer group only those of
// topics no member subscribes to (GROUP_SUBSCRIBED_TO_TOPIC otherwise); a
// live group of another protocol type gets NON_EMPTY_GROUP. Unknown topics
// and partitions get UNKNOWN_TOPIC_OR_PARTITION; an unknown group
// GROUP_ID_NOT_FOUND, as a top-level error.
import { OffsetDeleteApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';

export default defineHandler(OffsetDeleteApi, (req, ctx) => {
  const { cluster } = ctx;
  const errors: ErrorName[][] = req.topics.map((t) => t.partitions.map(() => 'NONE' as ErrorName));
  const valid: { t: number; p: number; topic: string; partition: number }[] = [];
  req.topics.forEach((t, ti) => {
    const topic = cluster.topic(t.name);
    t.partitions.forEach((p, pi) => {
      if (topic?.partitions[p.partitionIndex]) valid.push({ t: ti, p: pi, topic: t.name, partition: p.partitionIndex });
      else errors[ti]![pi] = 'UNKNOWN_TOPIC_OR_PARTITION';
    });
  });
  const result = cluster.groups.handleDeleteOffsets(ctx.nodeId, req.groupId, valid);
  if (result.error !== 'NONE') return { errorCode: ErrorCode[result.error], throttleTimeMs: 0, topics: [] };
  valid.forEach((v, i) => (errors[v.t]![v.p] = result.partitions[i]!));
  return {
    errorCode: ErrorCode.NONE,
    throttleTimeMs: 0,
    topics: req.topics.map((t, ti) => ({
      name: t.name,
      partitions: t.partitions.map((p, pi) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode[errors[ti]![pi]!] })),
    })),
  };
});
