// LeaveGroup (13), v0-5. v0-2 carry one member id, whose error becomes the
// top-level error; v3+ a batch of members (by member id, or by
// group.instance.id alone for an admin removal) with an error each. A member
// leaving a Stable or CompletingRebalance group starts a rebalance; the last
// one leaving makes the group Empty.
import { LeaveGroupApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(LeaveGroupApi, (req, ctx) => {
  const version = ctx.apiVersion;
  // LeaveGroupRequest.getErrorResponse: the top-level error, no members.
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return { throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, members: [] };
  const leaving = version >= 3 ? req.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, reason: m.reason })) : [{ memberId: req.memberId, groupInstanceId: null }];
  const result = ctx.cluster.groups.handleLeaveGroup(ctx.nodeId, req.groupId, leaving);
  if (version < 3) {
    const error = result.error !== 'NONE' ? result.error : (result.members[0]?.error ?? 'NONE');
    return { throttleTimeMs: 0, errorCode: ErrorCode[error] };
  }
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode[result.error],
    members: result.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, errorCode: ErrorCode[m.error] })),
  };
});
