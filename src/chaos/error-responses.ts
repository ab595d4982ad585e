// Error responses built from a decoded request, one builder per API, placing
// the code where that API carries it, as Kafka's AbstractRequest
// getErrorResponse does: per partition for Produce, Fetch, ListOffsets,
// OffsetCommit, TxnOffsetCommit, AddPartitionsToTxn (v0-3), DeleteRecords,
// OffsetForLeaderEpoch, DescribeProducers, WriteTxnMarkers; per topic, group,
// resource or transactional id where the API answers per item; top-level
// elsewhere. Fields without a value take the codec's defaults.
// Differs from Kafka: Fetch v13+ also repeats the code per partition (Kafka
// sets only the top-level code there), so clients that read either see it;
// DescribeLogDirs v0-2, which have no top-level code, carry it in one log dir entry.
// No codec here (the frame is written by ./response-frame.ts): the error
// action checks canBuildErrorResponse when a rule is parsed, at any time after
// `import('kafkaesque')`, which then does not parse the codecs.
import { ApiKey } from '../protocol/messages/api-key.js';

type AnyBody = Record<string, any>;
type Builder = (req: AnyBody, errorCode: number, version: number) => Record<string, unknown>;

const perPartition = <T>(items: T[], build: (item: T) => Record<string, unknown>) => items.map(build);

const builders = new Map<number, Builder>([
  [ApiKey.Produce, (req, errorCode) => ({
    responses: req.topicData.map((t: AnyBody) => ({
      name: t.name,
      topicId: t.topicId,
      partitionResponses: perPartition(t.partitionData, (p: AnyBody) => ({ index: p.index, errorCode, baseOffset: -1, logAppendTimeMs: -1, logStartOffset: -1 })),
    })),
  })],
  [ApiKey.Fetch, (req, errorCode, v) => ({
    errorCode: v >= 7 ? errorCode : 0,
    sessionId: 0,
    responses: req.topics.map((t: AnyBody) => ({
      topic: t.topic,
      topicId: t.topicId,
      partitions: perPartition(t.partitions, (p: AnyBody) => ({
        partitionIndex: p.partition, errorCode, highWatermark: -1, lastStableOffset: -1, logStartOffset: -1, records: Buffer.alloc(0),
      })),
    })),
  })],
  [ApiKey.ListOffsets, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({
      name: t.name,
      partitions: perPartition(t.partitions, (p: AnyBody) => ({ partitionIndex: p.partitionIndex, errorCode, timestamp: -1, offset: -1, leaderEpoch: -1 })),
    })),
  })],
  [ApiKey.Metadata, (req, errorCode) => ({
    brokers: [],
    controllerId: -1,
    topics: (req.topics ?? []).map((t: AnyBody) => ({ name: t.name ?? '', topicId: t.topicId, errorCode, isInternal: false, partitions: [] })),
  })],
  [ApiKey.OffsetCommit, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({ name: t.name, topicId: t.topicId, partitions: perPartition(t.partitions, (p: AnyBody) => ({ partitionIndex: p.partitionIndex, errorCode })) })),
  })],
  [ApiKey.OffsetFetch, (req, errorCode, v) => {
    if (v >= 8) return { groups: req.groups.map((g: AnyBody) => ({ groupId: g.groupId, errorCode, topics: [] })) };
    if (v >= 2) return { errorCode, topics: [] };
    return {
      topics: (req.topics ?? []).map((t: AnyBody) => ({
        name: t.name,
        partitions: t.partitionIndexes.map((i: number) => ({ partitionIndex: i, committedOffset: -1, metadata: '', errorCode })),
      })),
    };
  }],
  [ApiKey.FindCoordinator, (req, errorCode, v) => {
    if (v >= 4) return { coordinators: req.coordinatorKeys.map((key: string) => ({ key, nodeId: -1, host: '', port: -1, errorCode })) };
    return { errorCode, nodeId: -1, host: '', port: -1 };
  }],
  [ApiKey.JoinGroup, (_req, errorCode, v) => ({ errorCode, generationId: -1, protocolName: v >= 7 ? null : '', leader: '', memberId: '', members: [] })],
  [ApiKey.Heartbeat, (_req, errorCode) => ({ errorCode })],
  [ApiKey.LeaveGroup, (_req, errorCode) => ({ errorCode })],
  [ApiKey.SyncGroup, (_req, errorCode) => ({ errorCode, protocolType: null, protocolName: null, assignment: Buffer.alloc(0) })],
  [ApiKey.DescribeGroups, (req, errorCode) => ({
    groups: req.groups.map((groupId: string) => ({ groupId, errorCode, groupState: '', protocolType: '', protocolData: '', members: [] })),
  })],
  [ApiKey.ListGroups, (_req, errorCode) => ({ errorCode, groups: [] })],
  [ApiKey.SaslHandshake, (_req, errorCode) => ({ errorCode, mechanisms: [] })],
  [ApiKey.ApiVersions, (_req, errorCode) => ({ errorCode, apiKeys: [] })],
  [ApiKey.CreateTopics, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({ name: t.name, errorCode, numPartitions: -1, replicationFactor: -1, configs: null })),
  })],
  [ApiKey.DeleteTopics, (req, errorCode) => ({
    responses: [
      ...req.topicNames.map((name: string) => ({ name, errorCode })),
      ...req.topics.map((t: AnyBody) => ({ name: t.name, topicId: t.topicId, errorCode })),
    ],
  })],
  [ApiKey.DeleteRecords, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({ name: t.name, partitions: perPartition(t.partitions, (p: AnyBody) => ({ partitionIndex: p.partitionIndex, lowWatermark: -1, errorCode })) })),
  })],
  [ApiKey.InitProducerId, (_req, errorCode) => ({ errorCode, producerId: -1, producerEpoch: -1 })],
  [ApiKey.OffsetForLeaderEpoch, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({
      topic: t.topic,
      partitions: perPartition(t.partitions, (p: AnyBody) => ({ partition: p.partition, errorCode, leaderEpoch: -1, endOffset: -1 })),
    })),
  })],
  [ApiKey.AddPartitionsToTxn, (req, errorCode, v) => {
    if (v >= 4) return { errorCode };
    return {
      resultsByTopicV3AndBelow: req.v3AndBelowTopics.map((t: AnyBody) => ({
        name: t.name,
        resultsByPartition: t.partitions.map((partitionIndex: number) => ({ partitionIndex, partitionErrorCode: errorCode })),
      })),
    };
  }],
  [ApiKey.AddOffsetsToTxn, (_req, errorCode) => ({ errorCode })],
  [ApiKey.EndTxn, (_req, errorCode) => ({ errorCode })],
  [ApiKey.WriteTxnMarkers, (req, errorCode) => ({
    markers: req.markers.map((m: AnyBody) => ({
      producerId: m.producerId,
      topics: m.topics.map((t: AnyBody) => ({ name: t.name, partitions: t.partitionIndexes.map((partitionIndex: number) => ({ partitionIndex, errorCode })) })),
    })),
  })],
  [ApiKey.TxnOffsetCommit, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({ name: t.name, topicId: t.topicId, partitions: perPartition(t.partitions, (p: AnyBody) => ({ partitionIndex: p.partitionIndex, errorCode })) })),
  })],
  [ApiKey.DescribeConfigs, (req, errorCode) => ({
    results: req.resources.map((r: AnyBody) => ({ errorCode, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] })),
  })],
  [ApiKey.AlterConfigs, (req, errorCode) => ({
    responses: req.resources.map((r: AnyBody) => ({ errorCode, resourceType: r.resourceType, resourceName: r.resourceName })),
  })],
  [ApiKey.IncrementalAlterConfigs, (req, errorCode) => ({
    responses: req.resources.map((r: AnyBody) => ({ errorCode, resourceType: r.resourceType, resourceName: r.resourceName })),
  })],
  [ApiKey.SaslAuthenticate, (_req, errorCode) => ({ errorCode })],
  [ApiKey.CreatePartitions, (req, errorCode) => ({ results: req.topics.map((t: AnyBody) => ({ name: t.name, errorCode })) })],
  [ApiKey.DeleteGroups, (req, errorCode) => ({ results: req.groupsNames.map((groupId: string) => ({ groupId, errorCode })) })],
  [ApiKey.OffsetDelete, (_req, errorCode) => ({ errorCode, topics: [] })],
  [ApiKey.DescribeCluster, (_req, errorCode) => ({ errorCode, clusterId: '', controllerId: -1, brokers: [] })],
  [ApiKey.DescribeProducers, (req, errorCode) => ({
    topics: req.topics.map((t: AnyBody) => ({
      name: t.name,
      partitions: t.partitionIndexes.map((partitionIndex: number) => ({ partitionIndex, errorCode, activeProducers: [] })),
    })),
  })],
  [ApiKey.DescribeTransactions, (req, errorCode) => ({
    transactionStates: req.transactionalIds.map((transactionalId: string) => ({ transactionalId, errorCode, transactionState: '', producerId: -1, producerEpoch: -1, topics: [] })),
  })],
  [ApiKey.ListTransactions, (_req, errorCode) => ({ errorCode, transactionStates: [] })],
  [ApiKey.ConsumerGroupHeartbeat, (_req, errorCode) => ({ errorCode, memberEpoch: -1 })],
  [ApiKey.ConsumerGroupDescribe, (req, errorCode) => ({ groups: req.groupIds.map((groupId: string) => ({ groupId, errorCode, members: [] })) })],
  [ApiKey.ShareGroupHeartbeat, (_req, errorCode) => ({ errorCode })],
  [ApiKey.ShareGroupDescribe, (req, errorCode) => ({ groups: req.groupIds.map((groupId: string) => ({ groupId, errorCode, members: [] })) })],
  [ApiKey.ShareFetch, (_req, errorCode) => ({ errorCode, responses: [] })],
  [ApiKey.ShareAcknowledge, (_req, errorCode) => ({ errorCode, responses: [] })],
  [ApiKey.DescribeShareGroupOffsets, (req, errorCode) => ({ groups: req.groups.map((g: AnyBody) => ({ groupId: g.groupId, errorCode, topics: [] })) })],
  [ApiKey.AlterShareGroupOffsets, (_req, errorCode) => ({ errorCode, responses: [] })],
  [ApiKey.DeleteShareGroupOffsets, (_req, errorCode) => ({ errorCode, responses: [] })],
  [ApiKey.GetTelemetrySubscriptions, (_req, errorCode) => ({ errorCode })],
  [ApiKey.PushTelemetry, (_req, errorCode) => ({ errorCode })],
  [ApiKey.DescribeAcls, (_req, errorCode) => ({ errorCode, errorMessage: null, resources: [] })],
  [ApiKey.CreateAcls, (req, errorCode) => ({ results: req.creations.map(() => ({ errorCode, errorMessage: null })) })],
  [ApiKey.DeleteAcls, (req, errorCode) => ({ filterResults: req.filters.map(() => ({ errorCode, errorMessage: null, matchingAcls: [] })) })],
  [ApiKey.DescribeTopicPartitions, (req, errorCode) => ({ topics: req.topics.map((t: AnyBody) => ({ name: t.name, errorCode, partitions: [] })) })],
  [ApiKey.ElectLeaders, (req, errorCode) => ({
    errorCode,
    replicaElectionResults: (req.topicPartitions ?? []).map((t: AnyBody) => ({ topic: t.topic, partitionResult: t.partitions.map((partitionId: number) => ({ partitionId, errorCode, errorMessage: null })) })),
  })],
  [ApiKey.AlterPartitionReassignments, (req, errorCode) => ({
    errorCode,
    responses: req.topics.map((t: AnyBody) => ({ name: t.name, partitions: t.partitions.map((p: AnyBody) => ({ partitionIndex: p.partitionIndex, errorCode, errorMessage: null })) })),
  })],
  [ApiKey.ListPartitionReassignments, (req, errorCode) => ({
    errorCode,
    topics: (req.topics ?? []).map((t: AnyBody) => ({ name: t.name, partitions: t.partitionIndexes.map((partitionIndex: number) => ({ partitionIndex, replicas: [], addingReplicas: [], removingReplicas: [] })) })),
  })],
  // v0-2 have no top-level code (Kafka's answer loses it there): one log dir entry carries it.
  [ApiKey.DescribeLogDirs, (_req, errorCode, v) => ({ errorCode, results: v >= 3 ? [] : [{ errorCode, logDir: '', topics: [] }] })],
  [ApiKey.DescribeUserScramCredentials, (req, errorCode) => ({
    errorCode,
    results: (req.users ?? []).map(() => ({ user: '', errorCode, credentialInfos: [] })),
  })],
  [ApiKey.AlterUserScramCredentials, (req, errorCode) => ({
    results: [...new Set([...req.deletions, ...req.upsertions].map((u: AnyBody) => u.name as string))].sort().map((user) => ({ user, errorCode, errorMessage: null })),
  })],
  [ApiKey.DescribeClientQuotas, (_req, errorCode) => ({ errorCode, entries: null })],
  [ApiKey.AlterClientQuotas, (req, errorCode) => ({
    entries: req.entries.map((e: AnyBody) => ({ errorCode, errorMessage: null, entity: e.entity.map((x: AnyBody) => ({ entityType: x.entityType, entityName: x.entityName })) })),
  })],
]);

/** Whether an error response can be built for this API. */
export function canBuildErrorResponse(apiKey: number): boolean {
  return builders.has(apiKey);
}

/** The response body an API answers with when the whole request fails with `errorCode`. */
export function errorResponseBody(apiKey: number, version: number, request: unknown, errorCode: number): Record<string, unknown> {
  const build = builders.get(apiKey);
  if (!build) throw new Error(`no error response for api key ${apiKey}`);
  return build(request as AnyBody, errorCode, version);
}
