// OffsetDelete (47), v0. Deletes a group's committed offsets: all of the
// listed ones in an Empty group; in a live consumer group only those of
// topics no member subscribes to (GROUP_SUBSCRIBED_TO_TOPIC otherwise); a
// live group of another protocol type gets NON_EMPTY_GROUP. Unknown topics
// and partitions get UNKNOWN_TOPIC_OR_PARTITION; an unknown group
// GROUP_ID_NOT_FOUND, as a top-level error.
import { OffsetDeleteApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';

export default defineHandler(OffsetDeleteApi, (req, ctx) => {
  const { cluster } = ctx;
  // KafkaApis.handleOffsetDeleteRequest: DELETE on the group, then READ on each topic.
  if (!authorize(ctx, 'DELETE', 'GROUP', req.groupId)) return { errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, throttleTimeMs: 0, topics: [] };
  const readable = authorizedNames(ctx, 'READ', 'TOPIC', req.topics.map((t) => t.name));
  const errors: ErrorName[][] = req.topics.map((t) => t.partitions.map(() => (readable.has(t.name) ? 'NONE' : 'TOPIC_AUTHORIZATION_FAILED') as ErrorName));
  const valid: { t: number; p: number; topic: string; partition: number }[] = [];
  req.topics.forEach((t, ti) => {
    const topic = cluster.topic(t.name);
    t.partitions.forEach((p, pi) => {
      if (!readable.has(t.name)) return;
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
