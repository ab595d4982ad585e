// ShareGroupDescribe (77), v1: KIP-932 share groups as their coordinator
// keeps them: state (Empty or Stable), group epoch, target assignment epoch,
// the assignor ("simple"), and each member's epoch, subscription and current
// assignment (topic ids with names). A group id that is not a share group
// gets GROUP_ID_NOT_FOUND ("Group … not found." or "Group … is not a share
// group."), an empty one INVALID_GROUP_ID, as GroupCoordinatorService and
// GroupMetadataManager#shareGroupDescribe answer.
// Authorization (KafkaApis#handleShareGroupDescribe): DESCRIBE on the group,
// else GROUP_AUTHORIZATION_FAILED; authorized operations when asked.
import { ShareGroupDescribeApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { AUTHORIZED_OPERATIONS_OMITTED, authorize, authorizedOperations } from './authorize.js';

const empty = { groupState: '', groupEpoch: 0, assignmentEpoch: 0, assignorName: '', members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED };

export default defineHandler(ShareGroupDescribeApi, (req, ctx) => ({
  throttleTimeMs: 0,
  groups: req.groupIds.map((groupId) => {
    if (!authorize(ctx, 'DESCRIBE', 'GROUP', groupId)) return { errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, errorMessage: null, groupId, ...empty };
    if (groupId === '') return { errorCode: ErrorCode.INVALID_GROUP_ID, errorMessage: null, groupId, ...empty };
    const { error, ...d } = ctx.cluster.groups.shareGroups.handleDescribe(ctx.nodeId, groupId);
    return {
      ...d,
      errorCode: ErrorCode[error],
      authorizedOperations: error === 'NONE' && req.includeAuthorizedOperations ? authorizedOperations(ctx, 'GROUP', groupId) : AUTHORIZED_OPERATIONS_OMITTED,
    };
  }),
}));
