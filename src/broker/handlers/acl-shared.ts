// What the three ACL handlers share (AclApis): the answer without an
// authorizer, and the request checks that make Kafka refuse to parse one
// (DescribeAclsRequest/CreateAclsRequest/DeleteAclsRequest validate: an
// UNKNOWN code, or a pattern type v0 cannot carry), which close the connection.
import { AclOperation, AclPermissionType, PatternType, ResourceType, knownOr, type AclBindingFilter } from '../acl/acl-types.js';

/** SecurityDisabledException's messages (AclApis). */
export const NO_AUTHORIZER = 'No Authorizer is configured.';
export const NO_AUTHORIZER_DESCRIBE = 'No Authorizer is configured on the broker';

/** AuthHelper.authorizeClusterOperation's ClusterAuthorizationException says "Request <the request> is not authorized." */
export const CLUSTER_AUTHORIZATION_FAILED = 'Request is not authorized.';

/** Thrown to close the connection: Kafka fails to parse such a request (RequestContext.parseRequest) and closes it. */
export class UnparsableRequest extends Error {}

interface FilterFields {
  resourceTypeFilter: number;
  resourceNameFilter: string | null;
  patternTypeFilter: number;
  principalFilter: string | null;
  hostFilter: string | null;
  operation: number;
  permissionType: number;
}

/** A DescribeAcls/DeleteAcls filter as Kafka reads it: v0 has only literal patterns, and ANY there means LITERAL. */
export function readFilter(f: FilterFields, version: number, api: string): AclBindingFilter {
  let patternType = knownOr(PatternType, f.patternTypeFilter);
  if (version === 0) {
    if (patternType === PatternType.ANY) patternType = PatternType.LITERAL;
    else if (patternType !== PatternType.LITERAL) throw new UnparsableRequest(`${api} v0 only supports literal resource pattern types`);
  }
  const filter = {
    resourceType: knownOr(ResourceType, f.resourceTypeFilter),
    resourceName: f.resourceNameFilter,
    patternType,
    principal: f.principalFilter,
    host: f.hostFilter,
    operation: knownOr(AclOperation, f.operation),
    permissionType: knownOr(AclPermissionType, f.permissionType),
  };
  if (filter.patternType === 0 || filter.resourceType === 0 || filter.operation === 0 || filter.permissionType === 0) {
    throw new UnparsableRequest(`${api} filter contains UNKNOWN elements`);
  }
  return filter;
}
