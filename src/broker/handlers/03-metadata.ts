// Metadata (3), v0-12. Live brokers at the addresses of the listener the
// request came in on (the proxy's, or the side door's: RequestContext.endpoint), and
// each topic's partitions with leader, epoch, replicas, ISR and offline
// replicas. A missing topic is auto-created when the request and the broker
// allow it, and this response reports UNKNOWN_TOPIC_OR_PARTITION for it, as a
// KRaft broker does (LEADER_NOT_AVAILABLE on the ZooKeeper-era profile, as
// 2.x did); the topic shows up in the next response.
import { MetadataApi, type MetadataResponseTopic } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import type { Cluster, Topic } from '../cluster.js';
import { invalidTopicReason } from '../topic-names.js';
import { defineHandler } from './handler.js';
import { liveEndpoints } from './shared.js';

type TopicAnswer = MessageInput<MetadataResponseTopic>;

function describeTopic(cluster: Cluster, topic: Topic): TopicAnswer {
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

export default defineHandler(MetadataApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const allTopics = req.topics === null || (version === 0 && req.topics.length === 0);
  let topics: TopicAnswer[];
  if (allTopics) {
    topics = [...cluster.topics.values()].map((t) => describeTopic(cluster, t));
  } else {
    const allowCreate = version < 4 || req.allowAutoTopicCreation;
    topics = req.topics!.map((rt) => {
      if (rt.name === null) {
        if (version < 12) return missing(null, 'INVALID_REQUEST');
        const byId = cluster.topicById(rt.topicId);
        return byId ? describeTopic(cluster, byId) : missing(null, 'UNKNOWN_TOPIC_ID', rt.topicId);
      }
      const topic = cluster.topic(rt.name);
      if (topic) return describeTopic(cluster, topic);
      if (invalidTopicReason(rt.name)) return missing(rt.name, 'INVALID_TOPIC_EXCEPTION');
      const created = allowCreate ? cluster.autoCreateTopic(rt.name) : null;
      if (created && !created.ok) return missing(rt.name, created.error);
      // ZooKeeper (2.x): LEADER_NOT_AVAILABLE, which kafkajs retries; KRaft: UNKNOWN_TOPIC_OR_PARTITION (KafkaVersionProfile).
      return missing(rt.name, created ? cluster.profile.autoCreatedTopicError : 'UNKNOWN_TOPIC_OR_PARTITION');
    });
  }
  return {
    throttleTimeMs: 0,
    brokers: liveEndpoints(ctx),
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    topics,
  };
});
