// DescribeAcls (29), v0-3 (AclApis.handleDescribeAcls). Needs DESCRIBE on
// the cluster (else CLUSTER_AUTHORIZATION_FAILED); without an authorizer,
// SECURITY_DISABLED. The ACLs the filter matches, grouped by resource
// pattern (DescribeAclsResponse.aclsResources). v0 reads ANY as LITERAL and
// refuses other pattern types; UNKNOWN codes close the connection, as
// Kafka's request validation does.
import { DescribeAclsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import type { AclBinding } from '../acl/acl-types.js';
import { authorizeCluster } from './authorize.js';
import { CLUSTER_AUTHORIZATION_FAILED, NO_AUTHORIZER_DESCRIBE, readFilter } from './acl-shared.js';
import { defineHandler } from './handler.js';

function byResource(acls: readonly AclBinding[]) {
  const groups = new Map<string, { resourceType: number; resourceName: string; patternType: number; acls: { principal: string; host: string; operation: number; permissionType: number }[] }>();
  for (const b of acls) {
    const key = `${b.resourceType}\u0000${b.patternType}\u0000${b.resourceName}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { resourceType: b.resourceType, resourceName: b.resourceName, patternType: b.patternType, acls: [] }));
    g.acls.push({ principal: b.principal, host: b.host, operation: b.operation, permissionType: b.permissionType });
  }
  return [...groups.values()];
}

export default defineHandler(DescribeAclsApi, (req, ctx) => {
  const filter = readFilter(req, ctx.apiVersion, 'DescribeAcls');
  const fail = (error: 'CLUSTER_AUTHORIZATION_FAILED' | 'SECURITY_DISABLED', errorMessage: string) => ({ throttleTimeMs: 0, errorCode: ErrorCode[error], errorMessage, resources: [] });
  if (!authorizeCluster(ctx, 'DESCRIBE')) return fail('CLUSTER_AUTHORIZATION_FAILED', CLUSTER_AUTHORIZATION_FAILED);
  const authorizer = ctx.cluster.authorizer;
  if (!authorizer) return fail('SECURITY_DISABLED', NO_AUTHORIZER_DESCRIBE);
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, resources: byResource(authorizer.describe(filter)) };
});
