// DescribeTopicPartitions (75), v0: KRaft's paginated topic describe (KIP-966),
// as Kafka's DescribeTopicPartitionsRequestHandler and
// KRaftMetadataCache.getTopicMetadataForDescribeTopicResponse answer it.
// Topics (all of them when the list is empty) go in name order from the
// cursor; at most min(responsePartitionLimit, max.request.partition.size.limit
// = 2000) partitions (at least 1) are answered, and nextCursor names the first
// partition left out. Unlike Metadata, a leaderless partition has no error
// (leader -1) and no topic is auto-created. An unknown topic is reported only
// when named. Eligible leader replicas (KIP-966's ELR) are off, as by default
// in 3.9: both lists are empty. Topics the principal may not DESCRIBE are
// left out of an all-topics listing; named ones are answered, after the
// others, TOPIC_AUTHORIZATION_FAILED with no id (their existence is not
// disclosed). Every other answer carries its authorized operations (the
// request has no flag for them: Kafka always fills them). Topics are
// answered as this node's metadata cache has them (Cluster.topicOn, the
// metadata-lag fault), as KRaftMetadataCache answers from its image.
import { DescribeTopicPartitionsApi, type DescribeTopicPartitionsRequest, type DescribeTopicPartitionsResponseTopic } from '../../protocol/messages/index.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import type { Cluster } from '../cluster.js';
import type { TopicImage } from '../metadata-lag.js';
import { INTERNAL_TOPICS, invalidTopicReason } from '../topic-names.js';
import { defineHandler } from './handler.js';
import { AUTHORIZED_OPERATIONS_OMITTED, authorize, authorizedOperations } from './authorize.js';

/** max.request.partition.size.limit's default (ServerConfigs). */
const MAX_REQUEST_PARTITION_SIZE_LIMIT = 2000;

type TopicAnswer = MessageInput<DescribeTopicPartitionsResponseTopic>;

function describePartitions(cluster: Cluster, topic: TopicImage, start: number, count: number) {
  return topic.partitions.slice(start, start + count).map((p) => ({
    errorCode: ErrorCode.NONE,
    partitionIndex: p.index,
    leaderId: p.leader >= 0 && cluster.isAlive(p.leader) ? p.leader : -1,
    leaderEpoch: p.leaderEpoch,
    replicaNodes: p.replicas,
    isrNodes: p.isr,
    eligibleLeaderReplicas: [],
    lastKnownElr: [],
    offlineReplicas: p.replicas.filter((r) => !cluster.isAlive(r)),
  }));
}

/** KafkaApis' error answer (DescribeTopicPartitionsRequest.getErrorResponse): the error on every requested topic. */
function errorAnswer(req: DescribeTopicPartitionsRequest, errorCode: number) {
  return { throttleTimeMs: 0, topics: req.topics.map((t) => ({ errorCode, name: t.name, topicId: ZERO_UUID, isInternal: false, partitions: [] })), nextCursor: null };
}

export default defineHandler(DescribeTopicPartitionsApi, (req, ctx) => {
  const { cluster } = ctx;
  const fetchAll = req.topics.length === 0;
  const cursor = req.cursor;
  const from = cursor?.topicName ?? '';
  const asked = new Set((fetchAll ? cluster.topicsOn(ctx).map((t) => t.name) : req.topics.map((t) => t.name)).filter((n) => n >= from));
  // Both are InvalidRequestExceptions thrown by the handler, answered by KafkaApis' error response.
  if (cursor && !fetchAll && !asked.has(cursor.topicName)) return errorAnswer(req, ErrorCode.INVALID_REQUEST);
  if (cursor && cursor.partitionIndex < 0) return errorAnswer(req, ErrorCode.INVALID_REQUEST);
  // Checked before existence, so a refused name says nothing about whether the topic exists.
  const names = [...asked].filter((n) => authorize(ctx, 'DESCRIBE', 'TOPIC', n)).sort();
  const refused = fetchAll ? [] : [...asked].filter((n) => !names.includes(n)).sort();

  let remaining = Math.max(Math.min(MAX_REQUEST_PARTITION_SIZE_LIMIT, req.responsePartitionLimit), 1);
  const topics: TopicAnswer[] = [];
  let nextCursor: { topicName: string; partitionIndex: number } | null = null;
  for (const name of names) {
    if (remaining === 0) {
      // The next answer starts at this topic (which need not exist).
      nextCursor = { topicName: name, partitionIndex: 0 };
      break;
    }
    const topic = cluster.topicOn(ctx, name);
    if (!topic) {
      if (!fetchAll) {
        const errorCode = invalidTopicReason(name) ? ErrorCode.INVALID_TOPIC_EXCEPTION : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        topics.push({ errorCode, name, topicId: ZERO_UUID, isInternal: INTERNAL_TOPICS.has(name), partitions: [], topicAuthorizedOperations: authorizedOperations(ctx, 'TOPIC', name) });
      }
      continue;
    }
    const start = name === from && cursor ? cursor.partitionIndex : 0;
    const partitions = describePartitions(cluster, topic, start, remaining);
    topics.push({ errorCode: ErrorCode.NONE, name, topicId: topic.topicId, isInternal: topic.internal, partitions, topicAuthorizedOperations: authorizedOperations(ctx, 'TOPIC', name) });
    const upper = Math.min(topic.partitions.length, start + remaining);
    if (upper < topic.partitions.length) {
      nextCursor = { topicName: name, partitionIndex: upper };
      break;
    }
    remaining -= partitions.length;
  }
  for (const name of refused) {
    topics.push({ errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, topicId: ZERO_UUID, isInternal: false, partitions: [], topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED });
  }
  return { throttleTimeMs: 0, topics, nextCursor };
});
