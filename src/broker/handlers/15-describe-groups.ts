// DescribeGroups (15), v0-5. State, protocol type, protocol (when Stable)
// and members with client id, host ("/127.0.0.1"), and, when Stable, their
// metadata and assignment. An unknown group is described as Dead without an
// error, as Kafka does. Authorized operations (v3+) when asked, else
// -2147483648.
import { DescribeGroupsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { AUTHORIZED_OPERATIONS_OMITTED, authorize, authorizedOperations } from './authorize.js';

// Served up to v5: v6 (an error message per group) is in the codecs, not served yet.
export default defineHandler(DescribeGroupsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  groups: req.groups.map((groupId) => {
    // KafkaApis.handleDescribeGroupsRequest: DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED and nothing else.
    if (!authorize(ctx, 'DESCRIBE', 'GROUP', groupId)) return { errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, groupId, groupState: '', protocolType: '', protocolData: '', members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED };
    const { error, summary } = ctx.cluster.groups.handleDescribeGroup(ctx.nodeId, groupId);
    return {
      errorCode: ErrorCode[error],
      groupId,
      groupState: summary.state,
      protocolType: summary.protocolType,
      protocolData: summary.protocol,
      members: summary.members.map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        memberMetadata: m.metadata,
        memberAssignment: m.assignment,
      })),
      authorizedOperations: ctx.apiVersion >= 3 && req.includeAuthorizedOperations ? authorizedOperations(ctx, 'GROUP', groupId) : AUTHORIZED_OPERATIONS_OMITTED,
    };
  }),
}), { max: 5 });
