// JoinGroup (11), v0-9. Parks until the rebalance completes (the connection
// reads no request behind it until it is answered, as Kafka's muted
// channel). Rules and errors are Kafka 3.9's (group-coordinator.ts):
// MEMBER_ID_REQUIRED for dynamic members from v4, static members from v5
// (FENCED_INSTANCE_ID), skip_assignment for a static leader rejoining a
// Stable group from v9. v0 has no rebalance timeout: the session timeout
// stands in for it. protocol_name is "" below v7 and null from v7 when there
// is none; only the leader gets the member list. READ on the group, else
// GROUP_AUTHORIZATION_FAILED (KafkaApis.handleJoinGroupRequest); so for
// Heartbeat, LeaveGroup and SyncGroup.
import { JoinGroupApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(JoinGroupApi, (req, ctx) => {
  const version = ctx.apiVersion;
  // JoinGroupRequest.getErrorResponse: member id "", generation -1, no members.
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) {
    return { throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, generationId: -1, protocolType: null, protocolName: version >= 7 ? null : '', leader: '', skipAssignment: false, memberId: '', members: [] };
  }
  return new Promise((resolve) => {
    ctx.cluster.groups.handleJoinGroup(
      ctx.nodeId,
      {
        groupId: req.groupId,
        memberId: req.memberId,
        groupInstanceId: req.groupInstanceId,
        requireKnownMemberId: version >= 4 && req.groupInstanceId === null,
        supportSkippingAssignment: version >= 9,
        clientId: ctx.clientId ?? '',
        clientHost: ctx.clientHost,
        rebalanceTimeoutMs: version === 0 ? req.sessionTimeoutMs : req.rebalanceTimeoutMs,
        sessionTimeoutMs: req.sessionTimeoutMs,
        protocolType: req.protocolType,
        protocols: req.protocols.map((p) => ({ name: p.name, metadata: p.metadata })),
        reason: req.reason,
      },
      (r) =>
        resolve({
          throttleTimeMs: 0,
          errorCode: ErrorCode[r.error],
          generationId: r.generationId,
          protocolType: r.protocolType,
          protocolName: version >= 7 ? r.protocolName || null : (r.protocolName ?? ''),
          leader: r.leaderId,
          skipAssignment: r.skipAssignment,
          memberId: r.memberId,
          members: r.members,
        }),
    );
  });
});
