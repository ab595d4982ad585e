// Requests of the share-group APIs (KIP-932), one per API, made with our
// codec at every version the schemas define: for the every-version test and
// as fuzz seeds against a 4.4 cluster (no client capture holds them yet).
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { encodeRequest } from '../../src/protocol/headers.js';

/** [api name, api key, version, request body] for a group reading `topic` (its id `topicId`). */
export function shareRequests(topic: string, topicId: string) {
  const group = 'fuzz-share';
  const acks = [{ firstOffset: 0, lastOffset: 1, acknowledgeTypes: [1, 2] }];
  const samples: Record<number, unknown> = {
    [ApiKey.ShareGroupHeartbeat]: { groupId: group, memberId: 'fuzz-member', memberEpoch: 0, rackId: null, subscribedTopicNames: [topic] },
    [ApiKey.ShareGroupDescribe]: { groupIds: [group, 'none'], includeAuthorizedOperations: true },
    [ApiKey.ShareFetch]: {
      groupId: group,
      memberId: 'fuzz-member',
      shareSessionEpoch: 0,
      maxWaitMs: 0,
      minBytes: 1,
      maxBytes: 1 << 16,
      maxRecords: 10,
      batchSize: 10,
      topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [] }, { partitionIndex: 1, acknowledgementBatches: [] }] }],
      forgottenTopicsData: [],
    },
    [ApiKey.ShareAcknowledge]: { groupId: group, memberId: 'fuzz-member', shareSessionEpoch: 1, topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: acks }] }] },
    [ApiKey.DescribeShareGroupOffsets]: { groups: [{ groupId: group, topics: [{ topicName: topic, partitions: [0, 1] }] }, { groupId: group, topics: null }] },
    [ApiKey.AlterShareGroupOffsets]: { groupId: 'fuzz-share-empty', topics: [{ topicName: topic, partitions: [{ partitionIndex: 0, startOffset: 0 }] }] },
    [ApiKey.DeleteShareGroupOffsets]: { groupId: 'fuzz-share-empty', topics: [{ topicName: topic }] },
  };
  return Object.entries(samples).flatMap(([key, body]) => {
    const api = apiSchemas.get(Number(key))!;
    return Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => [api.name, api.apiKey, api.minVersion + i, body] as const);
  });
}

/** The same requests as size-prefixed frames. */
export function shareFrames(topic: string, topicId: string): Buffer[] {
  return shareRequests(topic, topicId).map(([, apiKey, version, body]) => {
    const payload = encodeRequest(apiKey, version, 1, 'fuzz', body);
    const size = Buffer.alloc(4);
    size.writeInt32BE(payload.length);
    return Buffer.concat([size, payload]);
  });
}
