// DeleteShareGroupOffsets (92), v0: forgets a share group's state of whole
// topics, so that the group starts them again from share.auto.offset.reset,
// as Kafka 4.4's GroupCoordinatorShard#initiateDeleteShareGroupOffsets does.
// Only a share group without members (NON_EMPTY_GROUP otherwise); a topic
// the group holds no state for is UNKNOWN_TOPIC_OR_PARTITION.
// Authorization: DELETE on the group (top level), READ on each topic.
// Differs from Kafka: a group's share state starts at its first fetch or
// AlterShareGroupOffsets (Kafka's at the heartbeat that subscribes it), so a
// group whose members only heartbeated answers no topic.
import { DeleteShareGroupOffsetsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(DeleteShareGroupOffsetsApi, (req, ctx) => {
  const top = (errorCode: number, errorMessage: string | null) => ({ throttleTimeMs: 0, errorCode, errorMessage, responses: [] });
  if (!authorize(ctx, 'DELETE', 'GROUP', req.groupId)) return top(ErrorCode.GROUP_AUTHORIZATION_FAILED, 'Not authorized to access group: Group authorization failed.');
  if (req.groupId.trim() === '') return top(ErrorCode.INVALID_GROUP_ID, 'The configured groupId is invalid.');
  const denied = req.topics.filter((t) => !authorize(ctx, 'READ', 'TOPIC', t.topicName));
  const rest = req.topics.filter((t) => !denied.includes(t));
  const authRows = denied.map((t) => ({ topicName: t.topicName, topicId: ZERO_UUID, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: 'Topic authorization failed.' }));
  const g = ctx.cluster.groups.shareGroups.emptyGroupForOffsets(ctx.nodeId, req.groupId, false);
  if (g.error !== 'NONE') return top(ErrorCode[g.error], g.message);
  // A group that never had share state answers no topic; one whose state was deleted answers each (GroupMetadataManager#sharePartitionsEligibleForOffsetDeletion).
  if (!ctx.cluster.shares.hasHadState(req.groupId)) return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, responses: authRows };
  const done = [];
  const failed = [];
  for (const rt of rest) {
    const t = ctx.cluster.topic(rt.topicName);
    if (!t) failed.push({ topicName: rt.topicName, topicId: ZERO_UUID, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'This server does not host this topic-partition.' });
    else if (ctx.cluster.shares.dropTopic(req.groupId, t.topicId)) done.push({ topicName: t.name, topicId: t.topicId, errorCode: ErrorCode.NONE, errorMessage: null });
    else failed.push({ topicName: t.name, topicId: t.topicId, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'There is no offset information to delete.' });
  }
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, responses: [...authRows, ...done, ...failed] };
});
