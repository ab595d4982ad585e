// The error responses the `error` action answers with: for every API and
// version the codec knows, built from a decoded request, they encode, decode
// back whole, and carry the code where that API carries it.
import { apiSchemas, ApiKey } from '../../src/protocol/messages/index.js';
import { encodeRequest } from '../../src/protocol/headers.js';
import { canBuildErrorResponse, errorResponseBody } from '../../src/chaos/error-responses.js';
import { responseFrame } from '../../src/chaos/response-frame.js';
import { ProxiedRequest } from '../../src/chaos/request.js';
import { decodeResponse } from '../support/wire-client.js';

const T = 'orders';
// A request per API that names one topic/partition, group or transactional id where it can.
const samples: Record<number, unknown> = {
  [ApiKey.Produce]: { acks: -1, topicData: [{ name: T, partitionData: [{ index: 3, records: null }] }] },
  [ApiKey.Fetch]: { topics: [{ topic: T, topicId: '11111111-1111-1111-1111-111111111111', partitions: [{ partition: 3 }] }] },
  [ApiKey.ListOffsets]: { topics: [{ name: T, partitions: [{ partitionIndex: 3 }] }] },
  [ApiKey.Metadata]: { topics: [{ name: T }] },
  [ApiKey.OffsetCommit]: { groupId: 'g', topics: [{ name: T, partitions: [{ partitionIndex: 3 }] }] },
  [ApiKey.OffsetFetch]: { groupId: 'g', topics: [{ name: T, partitionIndexes: [3] }], groups: [{ groupId: 'g', topics: [{ name: T, partitionIndexes: [3] }] }] },
  [ApiKey.FindCoordinator]: { key: 'g', coordinatorKeys: ['g'] },
  [ApiKey.DescribeGroups]: { groups: ['g'] },
  [ApiKey.CreateTopics]: { topics: [{ name: T }] },
  [ApiKey.DeleteTopics]: { topicNames: [T], topics: [{ name: T }] },
  [ApiKey.DeleteRecords]: { topics: [{ name: T, partitions: [{ partitionIndex: 3 }] }] },
  [ApiKey.OffsetForLeaderEpoch]: { topics: [{ topic: T, partitions: [{ partition: 3 }] }] },
  [ApiKey.AddPartitionsToTxn]: {
    v3AndBelowTransactionalId: 'tx',
    v3AndBelowTopics: [{ name: T, partitions: [3] }],
    transactions: [{ transactionalId: 'tx', topics: [{ name: T, partitions: [3] }] }],
  },
  [ApiKey.WriteTxnMarkers]: { markers: [{ producerId: 1, topics: [{ name: T, partitionIndexes: [3] }] }] },
  [ApiKey.TxnOffsetCommit]: { transactionalId: 'tx', groupId: 'g', topics: [{ name: T, partitions: [{ partitionIndex: 3 }] }] },
  [ApiKey.DescribeConfigs]: { resources: [{ resourceType: 2, resourceName: T }] },
  [ApiKey.AlterConfigs]: { resources: [{ resourceType: 2, resourceName: T }] },
  [ApiKey.IncrementalAlterConfigs]: { resources: [{ resourceType: 2, resourceName: T }] },
  [ApiKey.CreatePartitions]: { topics: [{ name: T, count: 4 }] },
  [ApiKey.DeleteGroups]: { groupsNames: ['g'] },
  [ApiKey.DescribeProducers]: { topics: [{ name: T, partitionIndexes: [3] }] },
  [ApiKey.DescribeTransactions]: { transactionalIds: ['tx'] },
  [ApiKey.ConsumerGroupDescribe]: { groupIds: ['g'] },
  [ApiKey.ShareGroupDescribe]: { groupIds: ['g'] },
  [ApiKey.DescribeShareGroupOffsets]: { groups: [{ groupId: 'g', topics: [{ topicName: T, partitions: [3] }] }] },
  [ApiKey.DescribeTopicPartitions]: { topics: [{ name: T }] },
  [ApiKey.CreateAcls]: { creations: [{ resourceType: 2, resourceName: T, resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 4, permissionType: 3 }] },
  [ApiKey.DeleteAcls]: { filters: [{ resourceTypeFilter: 2, resourceNameFilter: T, patternTypeFilter: 3, principalFilter: null, hostFilter: null, operation: 1, permissionType: 1 }] },
  [ApiKey.ElectLeaders]: { topicPartitions: [{ topic: T, partitions: [3] }] },
  [ApiKey.AlterPartitionReassignments]: { topics: [{ name: T, partitions: [{ partitionIndex: 3, replicas: [1] }] }] },
  [ApiKey.ListPartitionReassignments]: { topics: [{ name: T, partitionIndexes: [3] }] },
  [ApiKey.DescribeUserScramCredentials]: { users: [{ name: 'alice' }] },
  [ApiKey.AlterUserScramCredentials]: { deletions: [{ name: 'alice', mechanism: 1 }], upsertions: [] },
  [ApiKey.AlterClientQuotas]: { entries: [{ entity: [{ entityType: 'user', entityName: 'alice' }], ops: [] }] },
};

/** Every error code in a decoded response, with the path it sits at. */
function codes(v: unknown, path = ''): [string, number][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => codes(x, `${path}[${i}]`));
  if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
    return Object.entries(v).flatMap(([k, x]) => (/errorCode$/i.test(k) && typeof x === 'number' ? [[`${path}.${k}`, x] as [string, number]] : codes(x, `${path}.${k}`)));
  }
  return [];
}

// Where the code must be, per API and version (a path into the decoded response); the rest: top-level.
function expectedPaths(apiKey: number, v: number): string[] {
  switch (apiKey) {
    case ApiKey.Produce: return ['.responses[0].partitionResponses[0].errorCode'];
    case ApiKey.Fetch: return [...(v >= 7 ? ['.errorCode'] : []), '.responses[0].partitions[0].errorCode'];
    case ApiKey.ListOffsets: return ['.topics[0].partitions[0].errorCode'];
    case ApiKey.Metadata: return ['.topics[0].errorCode'];
    case ApiKey.OffsetCommit:
    case ApiKey.TxnOffsetCommit: return ['.topics[0].partitions[0].errorCode'];
    case ApiKey.OffsetFetch: return v >= 8 ? ['.groups[0].errorCode'] : v >= 2 ? ['.errorCode'] : ['.topics[0].partitions[0].errorCode'];
    case ApiKey.FindCoordinator: return v >= 4 ? ['.coordinators[0].errorCode'] : ['.errorCode'];
    case ApiKey.DescribeGroups:
    case ApiKey.ConsumerGroupDescribe:
    case ApiKey.ShareGroupDescribe:
    case ApiKey.DescribeShareGroupOffsets: return ['.groups[0].errorCode'];
    case ApiKey.CreateTopics:
    case ApiKey.DescribeTopicPartitions: return ['.topics[0].errorCode'];
    case ApiKey.DeleteTopics: return v >= 6 ? ['.responses[0].errorCode'] : ['.responses[0].errorCode'];
    case ApiKey.DeleteRecords: return ['.topics[0].partitions[0].errorCode'];
    case ApiKey.OffsetForLeaderEpoch: return ['.topics[0].partitions[0].errorCode'];
    case ApiKey.AddPartitionsToTxn: return v >= 4 ? ['.errorCode'] : ['.resultsByTopicV3AndBelow[0].resultsByPartition[0].partitionErrorCode'];
    case ApiKey.WriteTxnMarkers: return ['.markers[0].topics[0].partitions[0].errorCode'];
    case ApiKey.DescribeConfigs: return ['.results[0].errorCode'];
    case ApiKey.AlterConfigs:
    case ApiKey.IncrementalAlterConfigs: return ['.responses[0].errorCode'];
    case ApiKey.CreatePartitions:
    case ApiKey.DeleteGroups: return ['.results[0].errorCode'];
    case ApiKey.DescribeProducers: return ['.topics[0].partitions[0].errorCode'];
    case ApiKey.DescribeTransactions: return ['.transactionStates[0].errorCode'];
    case ApiKey.CreateAcls: return ['.results[0].errorCode'];
    case ApiKey.DeleteAcls: return ['.filterResults[0].errorCode'];
    case ApiKey.ElectLeaders: return [...(v >= 1 ? ['.errorCode'] : []), '.replicaElectionResults[0].partitionResult[0].errorCode'];
    case ApiKey.AlterPartitionReassignments: return ['.errorCode', '.responses[0].partitions[0].errorCode'];
    case ApiKey.DescribeLogDirs: return v >= 3 ? ['.errorCode'] : ['.results[0].errorCode'];
    case ApiKey.AlterUserScramCredentials: return ['.results[0].errorCode'];
    case ApiKey.AlterClientQuotas: return ['.entries[0].errorCode'];
    default: return ['.errorCode'];
  }
}

const cases = [...apiSchemas.values()].flatMap((api) => Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => [api.name, api.apiKey, api.minVersion + i] as const));

test('every API of the codec has an error response', () => {
  expect([...apiSchemas.keys()].filter((k) => !canBuildErrorResponse(k))).toEqual([]);
});

test.each(cases)('%s v%i carries the code where the API does', (_name, apiKey, version) => {
  const code = 6;
  const frame = encodeRequest(apiKey, version, 77, 'c', samples[apiKey] ?? {});
  const req = new ProxiedRequest(frame, apiKey, version, 77, 0, 1);
  expect(req.decodable).toBe(true);
  const wire = responseFrame(apiKey, version, 77, errorResponseBody(apiKey, version, req.body(), code));
  expect(wire.readInt32BE(0)).toBe(wire.length - 4);
  const decoded = decodeResponse(wire.subarray(4), apiKey, version, 77);
  const found = codes(decoded);
  const nonZero = found.filter(([, c]) => c !== 0);
  expect(nonZero.length).toBeGreaterThan(0);
  for (const [, c] of nonZero) expect(c).toBe(code);
  const where = new Map(found);
  for (const path of expectedPaths(apiKey, version)) {
    // A field the version does not carry decodes as its default; the rest must hold the code.
    if (where.has(path)) expect([path, where.get(path)]).toEqual([path, code]);
  }
  expect(expectedPaths(apiKey, version).some((p) => where.get(p) === code)).toBe(true);
});
