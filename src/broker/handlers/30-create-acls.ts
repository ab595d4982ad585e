// CreateAcls (30), v0-3 (AclApis.handleCreateAcls, AclControlManager.createAcls).
// Needs ALTER on the cluster (else CLUSTER_AUTHORIZATION_FAILED on every
// creation); without an authorizer, SECURITY_DISABLED on every creation.
// Each ACL is checked on its own (INVALID_REQUEST: a CLUSTER resource not
// named kafka-cluster, an empty name, ANY or MATCH where a concrete value
// belongs) and stored once. v0 carries only literal patterns; an UNKNOWN code
// closes the connection, as Kafka's request validation does.
import { CreateAclsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { AclOperation, AclPermissionType, PatternType, ResourceType, knownOr, type AclBinding } from '../acl/acl-types.js';
import { authorizeCluster } from './authorize.js';
import { CLUSTER_AUTHORIZATION_FAILED, NO_AUTHORIZER, UnparsableRequest } from './acl-shared.js';
import { defineHandler } from './handler.js';

export default defineHandler(CreateAclsApi, (req, ctx) => {
  const bindings: AclBinding[] = req.creations.map((c) => ({
    resourceType: knownOr(ResourceType, c.resourceType),
    resourceName: c.resourceName,
    patternType: knownOr(PatternType, c.resourcePatternType),
    principal: c.principal,
    host: c.host,
    operation: knownOr(AclOperation, c.operation),
    permissionType: knownOr(AclPermissionType, c.permissionType),
  }));
  if (ctx.apiVersion === 0 && bindings.some((b) => b.patternType !== PatternType.LITERAL)) throw new UnparsableRequest('CreateAcls v0 only supports literal resource pattern types');
  if (bindings.some((b) => b.patternType === 0 || b.resourceType === 0 || b.operation === 0 || b.permissionType === 0)) throw new UnparsableRequest('CreateAcls creations contain unknown elements');
  const every = (error: 'CLUSTER_AUTHORIZATION_FAILED' | 'SECURITY_DISABLED', errorMessage: string) => ({ throttleTimeMs: 0, results: bindings.map(() => ({ errorCode: ErrorCode[error], errorMessage })) });
  if (!authorizeCluster(ctx, 'ALTER')) return every('CLUSTER_AUTHORIZATION_FAILED', CLUSTER_AUTHORIZATION_FAILED);
  const authorizer = ctx.cluster.authorizer;
  if (!authorizer) return every('SECURITY_DISABLED', NO_AUTHORIZER);
  return { throttleTimeMs: 0, results: authorizer.createAcls(bindings).map((r) => ({ errorCode: ErrorCode[r.error], errorMessage: r.message })) };
});
