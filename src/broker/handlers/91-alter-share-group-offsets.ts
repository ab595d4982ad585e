// AlterShareGroupOffsets (91), v0: sets share partitions' start offsets of a
// share group that has no members (NON_EMPTY_GROUP otherwise), making an
// Empty share group when there is none, as Kafka 4.4's
// GroupMetadataManager#alterShareGroupOffsets does. What was in flight is
// forgotten: the partition starts again at that offset; -1 is "not started",
// share.auto.offset.reset applies again at the next fetch.
// Authorization: READ on the group (top level), READ on each topic.
import { AlterShareGroupOffsetsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

const NOT_HOSTED = 'This server does not host this topic-partition.';

export default defineHandler(AlterShareGroupOffsetsApi, (req, ctx) => {
  const top = (errorCode: number, errorMessage: string | null) => ({ throttleTimeMs: 0, errorCode, errorMessage, responses: [] });
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return top(ErrorCode.GROUP_AUTHORIZATION_FAILED, 'Not authorized to access group: Group authorization failed.');
  if (req.groupId.trim() === '') return top(ErrorCode.INVALID_GROUP_ID, 'The configured groupId is invalid.');
  const rows = [];
  const valid: { topic: NonNullable<ReturnType<typeof ctx.cluster.topic>>; partitions: { partitionIndex: number; startOffset: number }[] }[] = [];
  for (const rt of req.topics) {
    const t = ctx.cluster.topic(rt.topicName);
    if (!authorize(ctx, 'READ', 'TOPIC', rt.topicName)) {
      rows.push({ topicName: rt.topicName, topicId: t?.topicId ?? ZERO_UUID, partitions: rt.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: 'Topic authorization failed.' })) });
    } else if (!t) {
      rows.push({ topicName: rt.topicName, topicId: ZERO_UUID, partitions: rt.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: NOT_HOSTED })) });
    } else {
      valid.push({ topic: t, partitions: rt.partitions });
    }
  }
  if (valid.length > 0) {
    const g = ctx.cluster.groups.shareGroups.emptyGroupForOffsets(ctx.nodeId, req.groupId, true);
    if (g.error !== 'NONE') return top(ErrorCode[g.error], g.message);
    for (const { topic, partitions } of valid) {
      rows.push({
        topicName: topic.name,
        topicId: topic.topicId,
        partitions: partitions.map((rp) => {
          const p = topic.partitions[rp.partitionIndex];
          if (!p) return { partitionIndex: rp.partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: NOT_HOSTED };
          ctx.cluster.shares.alterStartOffset(req.groupId, topic, p, rp.startOffset);
          return { partitionIndex: rp.partitionIndex, errorCode: ErrorCode.NONE, errorMessage: null };
        }),
      });
    }
  }
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, responses: rows };
});
