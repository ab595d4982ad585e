// AclBindingFilter.matches: ResourcePatternFilter.matches and
// AccessControlEntryFilter.matches, as DescribeAcls and DeleteAcls apply them.
import { AclOperation, AclPermissionType, PatternType, ResourceType, WILDCARD, type AclBinding, type AclBindingFilter } from './acl-types.js';

/** ResourcePatternFilter.matches: MATCH takes the literal, wildcard and prefixed patterns that apply to the name; ANY takes every pattern type with exactly that name. */
function patternMatches(f: AclBindingFilter, acl: AclBinding): boolean {
  if (f.resourceType !== ResourceType.ANY && f.resourceType !== acl.resourceType) return false;
  if (f.patternType !== PatternType.ANY && f.patternType !== PatternType.MATCH && f.patternType !== acl.patternType) return false;
  if (f.resourceName === null) return true;
  if (f.patternType === PatternType.ANY || f.patternType === acl.patternType) return f.resourceName === acl.resourceName;
  // MATCH
  if (acl.patternType === PatternType.LITERAL) return f.resourceName === acl.resourceName || acl.resourceName === WILDCARD;
  return f.resourceName.startsWith(acl.resourceName);
}

/** AccessControlEntryFilter.matches: principal and host by equality ('*' is no wildcard here), ANY operation and permission match all. */
function entryMatches(f: AclBindingFilter, acl: AclBinding): boolean {
  if (f.principal !== null && f.principal !== acl.principal) return false;
  if (f.host !== null && f.host !== acl.host) return false;
  if (f.operation !== AclOperation.ANY && f.operation !== acl.operation) return false;
  return f.permissionType === AclPermissionType.ANY || f.permissionType === acl.permissionType;
}

export function filterMatches(filter: AclBindingFilter, acl: AclBinding): boolean {
  return patternMatches(filter, acl) && entryMatches(filter, acl);
}
