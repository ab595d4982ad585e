// ShareGroupHeartbeat (76), v1: KIP-932 share groups, served where the Kafka
// version profile finalizes share.version (4.4). Joins (member epoch 0),
// heartbeats, and leaves (-1) a share group; the coordinator
// (groups/share-group-coordinator.ts) bumps epochs and runs the `simple`
// assignor, which may give one partition to several members.
// Checks in KafkaApis#handleShareGroupHeartbeat's order: READ on the group
// (GROUP_AUTHORIZATION_FAILED), a member id of 1 to 36 characters, made by
// the client (INVALID_REQUEST), DESCRIBE on every subscribed topic
// (TOPIC_AUTHORIZATION_FAILED). Those answers carry no message, as Kafka's
// getErrorResponse does not.
import { ShareGroupHeartbeatApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';
import { isShareMemberIdValid } from './share-shared.js';

export default defineHandler(ShareGroupHeartbeatApi, (req, ctx) => {
  const failed = (error: ErrorName) => ({ throttleTimeMs: 0, errorCode: ErrorCode[error], errorMessage: null, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null });
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return failed('GROUP_AUTHORIZATION_FAILED');
  if (!isShareMemberIdValid(req.memberId)) return failed('INVALID_REQUEST');
  const subscribed = req.subscribedTopicNames ?? [];
  if (subscribed.length > 0 && authorizedNames(ctx, 'DESCRIBE', 'TOPIC', subscribed).size < new Set(subscribed).size) return failed('TOPIC_AUTHORIZATION_FAILED');
  const r = ctx.cluster.groups.shareGroups.handleHeartbeat(ctx.nodeId, {
    groupId: req.groupId,
    memberId: req.memberId,
    memberEpoch: req.memberEpoch,
    rackId: req.rackId,
    subscribedTopicNames: req.subscribedTopicNames,
    clientId: ctx.clientId ?? '',
    clientHost: ctx.clientHost,
  });
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode[r.error],
    errorMessage: r.errorMessage,
    memberId: r.memberId,
    memberEpoch: r.memberEpoch,
    heartbeatIntervalMs: r.heartbeatIntervalMs,
    assignment: r.assignment === null ? null : { topicPartitions: r.assignment },
  };
});
