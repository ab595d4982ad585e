// SyncGroup (14), v0-5. Followers park until the leader's SyncGroup brings
// the assignment (members it leaves out get empty bytes); a member of a
// Stable group gets its current assignment at once. From v5 protocol_type
// and protocol_name are mandatory (INCONSISTENT_GROUP_PROTOCOL without them)
// and are echoed on success, null on error.
import { SyncGroupApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(SyncGroupApi, (req, ctx) => {
  if (ctx.apiVersion >= 5 && (req.protocolType === null || req.protocolName === null)) {
    return { throttleTimeMs: 0, errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL, protocolType: null, protocolName: null };
  }
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return { throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, protocolType: null, protocolName: null, assignment: Buffer.alloc(0) };
  const assignments = new Map(req.assignments.map((a) => [a.memberId, a.assignment]));
  return new Promise((resolve) => {
    ctx.cluster.groups.handleSyncGroup(
      ctx.nodeId,
      {
        groupId: req.groupId,
        generationId: req.generationId,
        memberId: req.memberId,
        groupInstanceId: req.groupInstanceId,
        protocolType: req.protocolType,
        protocolName: req.protocolName,
        assignments,
      },
      (r) => resolve({ throttleTimeMs: 0, errorCode: ErrorCode[r.error], protocolType: r.protocolType, protocolName: r.protocolName, assignment: r.assignment }),
    );
  });
});
