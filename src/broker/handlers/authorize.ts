// What handlers ask the authorizer, as KafkaApis asks AuthHelper: with no
// authorizer everything is allowed (AuthHelper.authorize is authorizer.forall)
// and authorized_operations list every supported operation.
import { allOperations } from '../acl/authorizer.js';
import { AclOperation, CLUSTER_NAME, ResourceType } from '../acl/acl-types.js';
import type { RequestContext } from './handler.js';

export { AclOperation, ResourceType, AUTHORIZED_OPERATIONS_OMITTED } from '../acl/acl-types.js';

type Operation = keyof typeof AclOperation;
type Resource = keyof typeof ResourceType;

const session = (ctx: RequestContext) => ({ principal: ctx.principal, host: ctx.clientAddress });

/** AuthHelper.authorize: may this request's principal do `operation` on the literal resource? */
export function authorize(ctx: RequestContext, operation: Operation, resourceType: Resource, resourceName: string): boolean {
  const a = ctx.cluster.authorizer;
  return !a || a.authorize(session(ctx), AclOperation[operation], ResourceType[resourceType], resourceName);
}

/** authorize on the one CLUSTER resource, kafka-cluster. */
export const authorizeCluster = (ctx: RequestContext, operation: Operation) => authorize(ctx, operation, 'CLUSTER', CLUSTER_NAME);

/** AuthHelper.filterByAuthorized: the names authorized, each asked once. */
export function authorizedNames(ctx: RequestContext, operation: Operation, resourceType: Resource, names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const asked = new Set<string>();
  for (const n of names) {
    if (asked.has(n)) continue;
    asked.add(n);
    if (authorize(ctx, operation, resourceType, n)) out.add(n);
  }
  return out;
}

/** Authorizer.authorizeByResourceType: could the principal do `operation` on some resource of the type? */
export function authorizeByResourceType(ctx: RequestContext, operation: Operation, resourceType: Resource): boolean {
  const a = ctx.cluster.authorizer;
  return !a || a.authorizeByResourceType(session(ctx), AclOperation[operation], ResourceType[resourceType]);
}

/** AuthHelper.authorizedOperations: the bit field of operations allowed on the resource. */
export function authorizedOperations(ctx: RequestContext, resourceType: Resource, resourceName: string): number {
  const a = ctx.cluster.authorizer;
  return a ? a.authorizedOperations(session(ctx), ResourceType[resourceType], resourceName) : allOperations(ResourceType[resourceType]);
}

/** ConfigResource.Type codes (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs). */
const CONFIG_TOPIC = 2;
const CONFIG_CLUSTER_WIDE = new Set([4, 8, 16]); // BROKER, BROKER_LOGGER, CLIENT_METRICS
const CONFIG_GROUP = 32;

/**
 * ConfigHelper / ControllerApis: a topic's configs need `operation` on the
 * topic, a group's on the group, a broker's (or logger's, or client metrics')
 * on the cluster; the refusal is TOPIC_, GROUP_ or CLUSTER_AUTHORIZATION_FAILED.
 * Null when allowed, or for a type the handler refuses on its own.
 */
export function configsAuthorizationError(ctx: RequestContext, operation: 'DESCRIBE_CONFIGS' | 'ALTER_CONFIGS', resourceType: number, resourceName: string) {
  if (resourceType === CONFIG_GROUP) return authorize(ctx, operation, 'GROUP', resourceName) ? null : ('GROUP_AUTHORIZATION_FAILED' as const);
  if (resourceType === CONFIG_TOPIC) return authorize(ctx, operation, 'TOPIC', resourceName) ? null : ('TOPIC_AUTHORIZATION_FAILED' as const);
  if (CONFIG_CLUSTER_WIDE.has(resourceType)) return authorizeCluster(ctx, operation) ? null : ('CLUSTER_AUTHORIZATION_FAILED' as const);
  return null;
}

/** The cluster's authorized operations when asked (Metadata v8-10, DescribeCluster): 0 without DESCRIBE on it (AuthHelper.computeDescribeClusterResponse). */
export function clusterAuthorizedOperations(ctx: RequestContext): number {
  return authorizeCluster(ctx, 'DESCRIBE') ? authorizedOperations(ctx, 'CLUSTER', CLUSTER_NAME) : 0;
}
