// ConsumerGroupDescribe (69), v0-1: KIP-848 groups as their coordinator keeps
// them: state, group epoch, target assignment epoch, the assignor, and each
// member's epoch, subscription (names and regex), current and target
// assignment (topic ids with names), and from v1 its type (1, a consumer).
// A group id that is not a consumer group gets GROUP_ID_NOT_FOUND ("Group … not found.", or "… is not a consumer group"
// for a classic one), as GroupMetadataManager#consumerGroupDescribe answers.
// Authorization (KafkaApis#handleConsumerGroupDescribe): DESCRIBE on the
// group, else GROUP_AUTHORIZATION_FAILED; authorized operations when asked.
import { ConsumerGroupDescribeApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { AUTHORIZED_OPERATIONS_OMITTED, authorize, authorizedOperations } from './authorize.js';

export default defineHandler(ConsumerGroupDescribeApi, (req, ctx) => ({
  throttleTimeMs: 0,
  groups: req.groupIds.map((groupId) => {
    if (!authorize(ctx, 'DESCRIBE', 'GROUP', groupId)) {
      return { errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, errorMessage: null, groupId, groupState: '', groupEpoch: 0, assignmentEpoch: 0, assignorName: '', members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED };
    }
    const { error, ...d } = ctx.cluster.groups.consumerGroups.handleDescribe(ctx.nodeId, groupId);
    return {
      ...d,
      errorCode: ErrorCode[error],
      authorizedOperations: error === 'NONE' && req.includeAuthorizedOperations ? authorizedOperations(ctx, 'GROUP', groupId) : AUTHORIZED_OPERATIONS_OMITTED,
    };
  }),
}));
