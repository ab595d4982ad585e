// DeleteGroups (42), v0-2. Deletes Empty groups with their offsets;
// NON_EMPTY_GROUP while members remain, GROUP_ID_NOT_FOUND for an unknown
// group, NOT_COORDINATOR on a node that does not coordinate it. Duplicate
// names are answered once.
import { DeleteGroupsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorizedNames } from './authorize.js';

// DELETE on each group, else GROUP_AUTHORIZATION_FAILED (KafkaApis.handleDeleteGroupsRequest).
// Served up to v2: v3 (an error message per group) is in the codecs, not served yet.
export default defineHandler(DeleteGroupsApi, (req, ctx) => {
  const deletable = authorizedNames(ctx, 'DELETE', 'GROUP', req.groupsNames);
  const refused = [...new Set(req.groupsNames.filter((g) => !deletable.has(g)))];
  return {
    throttleTimeMs: 0,
    results: [
      ...[...ctx.cluster.groups.handleDeleteGroups(ctx.nodeId, req.groupsNames.filter((g) => deletable.has(g)))].map(([groupId, error]) => ({ groupId, errorCode: ErrorCode[error] })),
      ...refused.map((groupId) => ({ groupId, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED })),
    ],
  };
}, { max: 2 });
