// Metadata (3), v0-12. Live brokers at the addresses of the listener the
// request came in on (the proxy's, or the side door's: RequestContext.endpoint), and
// each topic's partitions with leader, epoch, replicas, ISR and offline
// replicas. A missing topic is auto-created when the request and the broker
// allow it, and this response reports UNKNOWN_TOPIC_OR_PARTITION for it, as a
// KRaft broker does (LEADER_NOT_AVAILABLE on the ZooKeeper-era profile, as
// 2.x did); the topic shows up in the next response. Topics the
// principal may not DESCRIBE are hidden or refused (see below); authorized
// operations are filled when asked (v8+; the cluster's v8-10). Topics are
// answered as this node's metadata cache has them (Cluster.topicOn, the
// metadata-lag fault): one whose creation it has not seen as one that does
// not exist, one whose deletion it has not seen as it had it, partitions and
// leaders as it last knew them.
import { MetadataApi, type MetadataResponseTopic } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import type { Cluster } from '../cluster.js';
import type { TopicImage } from '../metadata-lag.js';
import { INTERNAL_TOPICS, invalidTopicReason } from '../topic-names.js';
import { defineHandler } from './handler.js';
import { liveEndpoints } from './shared.js';
import { AUTHORIZED_OPERATIONS_OMITTED, authorize, authorizeCluster, authorizedOperations, clusterAuthorizedOperations } from './authorize.js';

type TopicAnswer = MessageInput<MetadataResponseTopic>;

function describeTopic(cluster: Cluster, topic: TopicImage): TopicAnswer {
  return {
    errorCode: ErrorCode.NONE,
    name: topic.name,
    topicId: topic.topicId,
    isInternal: topic.internal,
    partitions: topic.partitions.map((p) => ({
      errorCode: p.leader < 0 ? ErrorCode.LEADER_NOT_AVAILABLE : ErrorCode.NONE,
      partitionIndex: p.index,
      leaderId: p.leader,
      leaderEpoch: p.leaderEpoch,
      replicaNodes: p.replicas,
      isrNodes: p.isr,
      offlineReplicas: p.replicas.filter((r) => !cluster.isAlive(r)),
    })),
  };
}

const missing = (name: string | null, error: ErrorName, topicId = ZERO_UUID): TopicAnswer => ({
  errorCode: ErrorCode[error],
  name,
  topicId,
  partitions: [],
});

// Served up to v12: v13 (a top-level error code) is in the codecs, not served yet.
export default defineHandler(MetadataApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const allTopics = req.topics === null || (version === 0 && req.topics.length === 0);
  // KafkaApis.handleTopicMetadataRequest: DESCRIBE on a topic to see it; an
  // all-topics request leaves the others out, a named one answers
  // TOPIC_AUTHORIZATION_FAILED for them (by id: with the id, never the name).
  // Auto-creation needs CREATE on the cluster or on the topic.
  const describable = (name: string) => authorize(ctx, 'DESCRIBE', 'TOPIC', name);
  const denied = (name: string | null, topicId = ZERO_UUID, isInternal = false): TopicAnswer => ({ ...missing(name, 'TOPIC_AUTHORIZATION_FAILED', topicId), isInternal });
  // Answers the principal may describe get their authorized operations when asked (v8+).
  const described = new Set<TopicAnswer>();
  const seen = (a: TopicAnswer) => (described.add(a), a);
  let topics: TopicAnswer[];
  if (allTopics) {
    topics = cluster.topicsOn(ctx).filter((t) => describable(t.name)).map((t) => seen(describeTopic(cluster, t)));
  } else {
    const allowCreate = (version < 4 || req.allowAutoTopicCreation) && cluster.options.autoCreateTopics;
    let mayCreateAny: boolean | undefined;
    const mayCreate = (name: string) => (mayCreateAny ??= authorizeCluster(ctx, 'CREATE')) || authorize(ctx, 'CREATE', 'TOPIC', name);
    topics = req.topics!.map((rt) => {
      if (rt.name === null) {
        if (version < 12) return missing(null, 'INVALID_REQUEST');
        const byId = cluster.topicByIdOn(ctx, rt.topicId);
        if (!byId) return missing(null, 'UNKNOWN_TOPIC_ID', rt.topicId);
        return describable(byId.name) ? seen(describeTopic(cluster, byId)) : denied(null, byId.topicId);
      }
      if (!describable(rt.name)) return denied(rt.name);
      const known = cluster.topicOn(ctx, rt.name);
      if (known) return seen(describeTopic(cluster, known));
      const topic = cluster.topic(rt.name);
      // A topic the controller has but this node's metadata cache lacks yet
      // (metadata-lag): KafkaApis.getTopicMetadata finds it in no cache and
      // answers UNKNOWN_TOPIC_OR_PARTITION; the auto-creation it forwards
      // would only meet TOPIC_ALREADY_EXISTS at the controller.
      if (topic) return seen(missing(rt.name, 'UNKNOWN_TOPIC_OR_PARTITION'));
      if (allowCreate && !mayCreate(rt.name)) return denied(rt.name, ZERO_UUID, INTERNAL_TOPICS.has(rt.name));
      if (invalidTopicReason(rt.name)) return seen(missing(rt.name, 'INVALID_TOPIC_EXCEPTION'));
      const created = allowCreate ? cluster.autoCreateTopic(rt.name) : null;
      if (created && !created.ok) return seen(missing(rt.name, created.error));
      // ZooKeeper (2.x): LEADER_NOT_AVAILABLE, which kafkajs retries; KRaft: UNKNOWN_TOPIC_OR_PARTITION (KafkaVersionProfile).
      return seen(missing(rt.name, created ? cluster.profile.autoCreatedTopicError : 'UNKNOWN_TOPIC_OR_PARTITION'));
    });
  }
  if (version >= 8 && req.includeTopicAuthorizedOperations) {
    for (const t of described) t.topicAuthorizedOperations = authorizedOperations(ctx, 'TOPIC', t.name ?? '');
  }
  const clusterOps = version >= 8 && version <= 10 && req.includeClusterAuthorizedOperations ? clusterAuthorizedOperations(ctx) : AUTHORIZED_OPERATIONS_OMITTED;
  return {
    throttleTimeMs: 0,
    brokers: liveEndpoints(ctx),
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    topics,
    clusterAuthorizedOperations: clusterOps,
  };
}, { max: 12 });
