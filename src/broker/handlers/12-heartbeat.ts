// Heartbeat (12), v0-4. Refreshes the member's session; REBALANCE_IN_PROGRESS
// while the group is PreparingRebalance (the session is still refreshed), so
// the member knows to rejoin. Member and generation checks are Kafka's
// (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID from v3, ILLEGAL_GENERATION).
import { HeartbeatApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(HeartbeatApi, (req, ctx) => ({
  throttleTimeMs: 0,
  errorCode: authorize(ctx, 'READ', 'GROUP', req.groupId)
    ? ErrorCode[ctx.cluster.groups.handleHeartbeat(ctx.nodeId, req.groupId, req.memberId, req.groupInstanceId, req.generationId)]
    : ErrorCode.GROUP_AUTHORIZATION_FAILED,
}));
