// DeleteGroups (42), v0-2. Deletes Empty groups with their offsets;
// NON_EMPTY_GROUP while members remain, GROUP_ID_NOT_FOUND for an unknown
// group, NOT_COORDINATOR on a node that does not coordinate it. Duplicate
// names are answered once.
import { DeleteGroupsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';

export default defineHandler(DeleteGroupsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  results: [...ctx.cluster.groups.handleDeleteGroups(ctx.nodeId, req.groupsNames)].map(([groupId, error]) => ({ groupId, errorCode: ErrorCode[error] })),
}));
