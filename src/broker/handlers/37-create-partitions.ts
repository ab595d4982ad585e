// CreatePartitions (37), v0-3: adds partitions to a topic (never removes),
// placed round-robin unless assignments are given; assignments are checked as
// KRaft checks them (registered brokers, each once, the topic's replication
// factor, one of them alive: see manual-assignment.ts); validate_only checks only.
// The partitions added are taken out of the controller mutation quota once
// checked (ReplicationControlManager.createPartitions): strict from v3.
import { CreatePartitionsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorizedNames } from './authorize.js';
import { quotaIdentity } from '../quotas/client-quota-manager.js';
import { THROTTLING_QUOTA_EXCEEDED_MESSAGE, answerControllerMutationThrottle } from './shared.js';

export default defineHandler(CreatePartitionsApi, (req, ctx) => {
  const counts = new Map<string, number>();
  for (const t of req.topics) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  // ControllerApis.createPartitions: ALTER on each topic.
  const alterable = authorizedNames(ctx, 'ALTER', 'TOPIC', req.topics.map((t) => t.name));
  const quota = ctx.cluster.quotas.controllerMutation.newQuotaFor(...quotaIdentity(ctx.sasl.principal, ctx.clientId), ctx.apiVersion, 3);
  const results = req.topics.map((t) => {
    if ((counts.get(t.name) ?? 0) > 1) return { name: t.name, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Duplicate topic name.' };
    if (!alterable.has(t.name)) return { name: t.name, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: null };
    const assignments = t.assignments?.map((a) => a.brokerIds);
    const before = ctx.cluster.topic(t.name)?.partitions.length ?? 0;
    let r = ctx.cluster.createPartitions(t.name, t.count, assignments, true);
    if (r.ok && !quota.record(t.count - before)) return { name: t.name, errorCode: ErrorCode.THROTTLING_QUOTA_EXCEEDED, errorMessage: THROTTLING_QUOTA_EXCEEDED_MESSAGE };
    if (r.ok && !req.validateOnly) r = ctx.cluster.createPartitions(t.name, t.count, assignments, false);
    return r.ok
      ? { name: t.name, errorCode: ErrorCode.NONE, errorMessage: null }
      : { name: t.name, errorCode: ErrorCode[r.error], errorMessage: r.message };
  });
  return { throttleTimeMs: answerControllerMutationThrottle(ctx, quota), results };
});
