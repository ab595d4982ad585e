// DeleteAcls (31), v0-3 (AclApis.handleDeleteAcls, AclControlManager.deleteAcls).
// Needs ALTER on the cluster (else CLUSTER_AUTHORIZATION_FAILED on every
// filter); without an authorizer, SECURITY_DISABLED on every filter. Each
// filter lists the ACLs it matched before the request removed any (one ACL
// two filters match is in both lists); all of them are removed.
import { DeleteAclsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { authorizeCluster } from './authorize.js';
import { CLUSTER_AUTHORIZATION_FAILED, NO_AUTHORIZER, readFilter } from './acl-shared.js';
import { defineHandler } from './handler.js';

export default defineHandler(DeleteAclsApi, (req, ctx) => {
  const filters = req.filters.map((f) => readFilter(f, ctx.apiVersion, 'DeleteAcls'));
  const every = (error: 'CLUSTER_AUTHORIZATION_FAILED' | 'SECURITY_DISABLED', errorMessage: string) => ({
    throttleTimeMs: 0,
    filterResults: filters.map(() => ({ errorCode: ErrorCode[error], errorMessage, matchingAcls: [] })),
  });
  if (!authorizeCluster(ctx, 'ALTER')) return every('CLUSTER_AUTHORIZATION_FAILED', CLUSTER_AUTHORIZATION_FAILED);
  const authorizer = ctx.cluster.authorizer;
  if (!authorizer) return every('SECURITY_DISABLED', NO_AUTHORIZER);
  return {
    throttleTimeMs: 0,
    filterResults: authorizer.deleteAcls(filters).map((matched) => ({
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      matchingAcls: matched.map((b) => ({ errorCode: ErrorCode.NONE, errorMessage: null, ...b })),
    })),
  };
});
