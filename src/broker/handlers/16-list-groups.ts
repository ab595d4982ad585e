// ListGroups (16), v0-5. The groups this node coordinates (clients ask every
// broker and merge), with their protocol type, state (v4+, filterable by
// state, case-insensitively) and type (v5+, filterable by type): "classic",
// or "consumer" for KIP-848 groups, whose protocol type is "consumer" and
// whose states are ConsumerGroup's (Empty, Assigning, Reconciling, Stable).
import { ListGroupsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizeCluster } from './authorize.js';

export default defineHandler(ListGroupsApi, (req, ctx) => {
  const version = ctx.apiVersion;
  const { error, groups } = ctx.cluster.groups.handleListGroups(ctx.nodeId, version >= 4 ? req.statesFilter : [], version >= 5 ? req.typesFilter : []);
  // KafkaApis.handleListGroupsRequest: DESCRIBE on the cluster lists every group; otherwise only those the principal may DESCRIBE.
  const visible = authorizeCluster(ctx, 'DESCRIBE') ? groups : groups.filter((g) => authorize(ctx, 'DESCRIBE', 'GROUP', g.groupId));
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode[error],
    groups: visible.map((g) => ({ groupId: g.groupId, protocolType: g.protocolType, groupState: g.state, groupType: g.groupType })),
  };
});
