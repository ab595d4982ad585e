// DeleteTopics (20), v0-6: by name (v0-5) or by name or topic id (v6).
// Deletion is immediate; waiting fetches and produces on the topic wake up.
// A topic's partitions are taken out of the controller mutation quota before
// it goes (ReplicationControlManager.deleteTopic): strict from v5.
import { DeleteTopicsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import { defineHandler } from './handler.js';
import { authorize, authorizeCluster } from './authorize.js';
import { quotaIdentity } from '../quotas/client-quota-manager.js';
import { THROTTLING_QUOTA_EXCEEDED_MESSAGE, answerControllerMutationThrottle } from './shared.js';

export default defineHandler(DeleteTopicsApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  // ControllerApis.deleteTopics: DELETE on the cluster covers every topic; otherwise DESCRIBE and DELETE per topic.
  const clusterDelete = authorizeCluster(ctx, 'DELETE');
  const may = (op: 'DESCRIBE' | 'DELETE', name: string) => clusterDelete || authorize(ctx, op, 'TOPIC', name);
  const denied = (name: string | null, topicId: string) => ({ name, topicId, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: version >= 5 ? 'Topic authorization failed.' : null });
  const targets = version >= 6 ? req.topics : req.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
  const quota = cluster.quotas.controllerMutation.newQuotaFor(...quotaIdentity(ctx.sasl.principal, ctx.clientId), version, 5);
  const responses = targets.map((t) => {
    const byId = t.name === null;
    // A name the principal may not describe is refused before it is looked up; an id is looked up first, and named only when describable.
    if (!byId && !may('DESCRIBE', t.name!)) return denied(t.name, ZERO_UUID);
    const topic = byId ? cluster.topicById(t.topicId) : cluster.topic(t.name!);
    if (topic && !may('DELETE', topic.name)) return denied(byId && !may('DESCRIBE', topic.name) ? null : topic.name, topic.topicId);
    if (!topic) {
      const error = byId ? 'UNKNOWN_TOPIC_ID' : 'UNKNOWN_TOPIC_OR_PARTITION';
      return { name: t.name, topicId: t.topicId, errorCode: ErrorCode[error], errorMessage: version >= 5 ? 'This server does not host this topic.' : null };
    }
    if (!quota.record(topic.partitions.length)) return { name: topic.name, topicId: topic.topicId, errorCode: ErrorCode.THROTTLING_QUOTA_EXCEEDED, errorMessage: THROTTLING_QUOTA_EXCEEDED_MESSAGE };
    cluster.deleteTopic(topic.name);
    return { name: topic.name, topicId: topic.topicId, errorCode: ErrorCode.NONE, errorMessage: null };
  });
  return { throttleTimeMs: answerControllerMutationThrottle(ctx, quota), responses };
});
