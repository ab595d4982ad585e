// Small helpers the handlers share: node endpoints and leader fields.
import type { Partition } from '../partition.js';
import type { RequestContext } from './handler.js';
import type { ControllerMutationQuota } from '../quotas/controller-mutation-quota.js';

/** A node as the request's listener advertises it (RequestContext.endpoint), with its rack. */
export function nodeEndpoint(ctx: RequestContext, nodeId: number) {
  const n = ctx.cluster.nodes.get(nodeId);
  const at = n && ctx.endpoint(nodeId);
  return n && at ? { nodeId: n.nodeId, host: at.host, port: at.port, rack: n.rack } : null;
}

/** The live brokers as the request's listener advertises them (Metadata, DescribeCluster). */
export function liveEndpoints(ctx: RequestContext) {
  return ctx.cluster.liveNodes().flatMap((n) => nodeEndpoint(ctx, n.nodeId) ?? []);
}

/** Endpoints of the current leaders named in NOT_LEADER_OR_FOLLOWER answers (Produce v10+, Fetch v16+). */
export function leaderEndpoints(ctx: RequestContext, partitions: Iterable<Pick<Partition, 'leader'>>) {
  const ids = new Set<number>();
  for (const p of partitions) if (p.leader >= 0) ids.add(p.leader);
  return [...ids].sort((a, b) => a - b).flatMap((id) => nodeEndpoint(ctx, id) ?? []);
}

/** fetch.max.bytes default (55 MiB): what caps a Fetch's or a ShareFetch's MaxBytes when the cluster sets no cap of its own. */
export const FETCH_MAX_BYTES = 57671680;

/** Errors.THROTTLING_QUOTA_EXCEEDED's message, which the refused topics carry. */
export const THROTTLING_QUOTA_EXCEEDED_MESSAGE = 'The throttling quota has been exceeded.';

/**
 * ControllerApis' sendResponseMaybeThrottleWithControllerQuota: what is left
 * of the quota's throttle time goes in throttle_time_ms and mutes the
 * connection for as long (KIP-219).
 */
export function answerControllerMutationThrottle(ctx: RequestContext, quota: ControllerMutationQuota): number {
  const throttleTimeMs = quota.throttleTimeMs();
  if (throttleTimeMs > 0) ctx.throttle(throttleTimeMs);
  return throttleTimeMs;
}
