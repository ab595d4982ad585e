// CreateTopics (19), v0-7. Validates as KRaft's ReplicationControlManager
// does (names, collisions, configs, assignments, partition and replication
// counts, in Kafka's order) and creates at once; validate_only checks only.
// Any node accepts it (KRaft brokers forward to the controller). Each topic
// that passes validation takes its partitions out of the controller mutation
// quota (ReplicationControlManager.createTopic, validate_only too): strict
// from v6, permissive below.
//
// On a KRaft profile the answer is built as ControllerApis#createTopics
// builds it: the controller's results for the topics it was given, in
// request order, then one INVALID_REQUEST per name given more than once,
// then __cluster_metadata and the unauthorized names, each once. A
// validate-only success carries the topic id the controller drew
// (ReplicationControlManager#createTopic draws it before it looks at
// validateOnly). Both seen against a real 4.0 broker (test/conformance).
import { randomUUID } from 'node:crypto';
import { CreateTopicsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { MAX_PARTITIONS_PER_REQUEST, TOO_MANY_PARTITIONS } from '../cluster.js';
import { defineHandler } from './handler.js';
import { authorizeCluster, authorizedNames } from './authorize.js';
import { quotaIdentity } from '../quotas/client-quota-manager.js';
import { THROTTLING_QUOTA_EXCEEDED_MESSAGE, answerControllerMutationThrottle } from './shared.js';

const CONFIG_SOURCE_TOPIC = 1;
const CONFIG_SOURCE_DEFAULT = 5;

export default defineHandler(CreateTopicsApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const counts = new Map<string, number>();
  for (const t of req.topics) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  // ControllerApis.createTopics: CREATE on the cluster, or on each topic; DESCRIBE_CONFIGS on a topic to see what it was created with.
  const names = req.topics.map((t) => t.name);
  const creatable = authorizeCluster(ctx, 'CREATE') ? new Set(names) : authorizedNames(ctx, 'CREATE', 'TOPIC', names);
  const describable = authorizedNames(ctx, 'DESCRIBE_CONFIGS', 'TOPIC', names);
  const kraft = cluster.profile.metadataMode === 'kraft';
  const appended = (name: string) => kraft && ((counts.get(name) ?? 0) > 1 || name === '__cluster_metadata' || !creatable.has(name));
  const answered = new Set<string>();
  // KRaft: the appended entries go after the controller's results, once per name.
  const given = req.topics.filter((t) => !appended(t.name));
  const ordered = [...given, ...req.topics.filter((t) => appended(t.name) && !answered.has(t.name) && answered.add(t.name))];
  // KRaft refuses all the topics the controller is given when they would make too many partitions.
  const requested = given.reduce(
    (sum, t) => sum + (t.assignments.length || (t.numPartitions === -1 ? cluster.options.defaultPartitions : Math.max(0, t.numPartitions))),
    0,
  );
  const tooMany = requested > MAX_PARTITIONS_PER_REQUEST;
  const quota = cluster.quotas.controllerMutation.newQuotaFor(...quotaIdentity(ctx.sasl.principal, ctx.clientId), version, 6);
  const topics = ordered.map((t) => {
    const fail = (error: keyof typeof ErrorCode, message: string) => ({
      name: t.name,
      errorCode: ErrorCode[error],
      errorMessage: version >= 1 ? message : null,
      numPartitions: -1,
      replicationFactor: -1,
      configs: version >= 5 ? [] : null,
    });
    if ((counts.get(t.name) ?? 0) > 1) return fail('INVALID_REQUEST', 'Duplicate topic name.');
    if (tooMany && !appended(t.name)) return fail('POLICY_VIOLATION', TOO_MANY_PARTITIONS);
    if (t.name === '__cluster_metadata') return fail('INVALID_REQUEST', 'Creation of internal topic __cluster_metadata is prohibited.');
    if (!creatable.has(t.name)) return fail('TOPIC_AUTHORIZATION_FAILED', 'Authorization failed.');
    const assignments = t.assignments.length ? t.assignments : undefined;
    const spec = {
      numPartitions: t.numPartitions,
      replicationFactor: t.replicationFactor,
      assignments: assignments?.map((a) => ({ partitionIndex: a.partitionIndex, brokerIds: a.brokerIds })),
      configs: Object.fromEntries(t.configs.map((c) => [c.name, c.value])),
    };
    const checked = cluster.checkCreateTopic(t.name, spec);
    if (!checked.ok) return fail(checked.error, checked.message);
    const newPartitions = assignments?.length ?? (t.numPartitions === -1 ? cluster.options.defaultPartitions : t.numPartitions);
    if (!quota.record(newPartitions)) return fail('THROTTLING_QUOTA_EXCEEDED', THROTTLING_QUOTA_EXCEEDED_MESSAGE);
    const result = req.validateOnly ? checked : cluster.createTopic(t.name, spec);
    if (!result.ok) return fail(result.error, result.message);
    const topic = cluster.topic(t.name);
    const partitions = topic?.partitions.length ?? newPartitions;
    const rf = topic?.partitions[0]?.replicas.length ?? (t.replicationFactor === -1 ? cluster.options.defaultReplicationFactor : t.replicationFactor);
    const overrides = new Map(t.configs.map((c) => [c.name, c.value ?? '']));
    if (!describable.has(t.name)) {
      return { name: t.name, topicId: topic?.topicId, errorCode: ErrorCode.NONE, errorMessage: null, numPartitions: -1, replicationFactor: -1, configs: version >= 5 ? [] : null, topicConfigErrorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED };
    }
    return {
      name: t.name,
      topicId: topic?.topicId ?? (kraft ? randomUUID() : undefined),
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      numPartitions: partitions,
      replicationFactor: rf,
      configs: [...cluster.topicConfigDefs].map(([name, def]) => ({
        name,
        value: overrides.get(name) ?? def.default,
        readOnly: false,
        configSource: overrides.has(name) ? CONFIG_SOURCE_TOPIC : CONFIG_SOURCE_DEFAULT,
        isSensitive: false,
      })),
    };
  });
  return { throttleTimeMs: answerControllerMutationThrottle(ctx, quota), topics };
});
