// Request frames for the admin APIs that no client capture holds
// (test/fixtures/captures has none of them, and the ACL APIs only at v0-1), made with our codec at every
// version the schemas define, as seeds for the fuzzer beside the captures.
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { encodeRequest } from '../../src/protocol/headers.js';

const T = 'golden';
// An ACL filter on the topic T: LITERAL pattern (3), User:alice from any host, READ (3), ALLOW (3).
const aclFilter = { resourceTypeFilter: 2, resourceNameFilter: T, patternTypeFilter: 3, principalFilter: 'User:alice', hostFilter: '*', operation: 3, permissionType: 3 };
const samples: Record<number, unknown> = {
  [ApiKey.DescribeAcls]: aclFilter,
  [ApiKey.CreateAcls]: { creations: [{ resourceType: 2, resourceName: T, resourcePatternType: 3, principal: 'User:alice', host: '*', operation: 3, permissionType: 3 }] },
  [ApiKey.DeleteAcls]: { filters: [aclFilter] },
  [ApiKey.DescribeTopicPartitions]: { topics: [{ name: T }], responsePartitionLimit: 1, cursor: { topicName: T, partitionIndex: 1 } },
  [ApiKey.ElectLeaders]: { electionType: 0, topicPartitions: [{ topic: T, partitions: [0, 1] }], timeoutMs: 1000 },
  [ApiKey.AlterPartitionReassignments]: { timeoutMs: 1000, topics: [{ name: T, partitions: [{ partitionIndex: 0, replicas: [0] }, { partitionIndex: 1, replicas: null }] }] },
  [ApiKey.ListPartitionReassignments]: { timeoutMs: 1000, topics: [{ name: T, partitionIndexes: [0, 1] }] },
  [ApiKey.DescribeLogDirs]: { topics: [{ topic: T, partitions: [0, 1] }] },
  [ApiKey.DescribeUserScramCredentials]: { users: [{ name: 'alice' }] },
  [ApiKey.AlterUserScramCredentials]: {
    deletions: [{ name: 'bob', mechanism: 2 }],
    upsertions: [{ name: 'alice', mechanism: 1, iterations: 4096, salt: Buffer.alloc(16, 1), saltedPassword: Buffer.alloc(32, 2) }],
  },
  [ApiKey.DescribeClientQuotas]: { components: [{ entityType: 'user', matchType: 0, match: 'alice' }], strict: false },
  [ApiKey.AlterClientQuotas]: { entries: [{ entity: [{ entityType: 'client-id', entityName: 'c' }], ops: [{ key: 'producer_byte_rate', value: 1024, remove: false }] }], validateOnly: false },
};

/** [api name, api key, version, request body]: each sample at each version of its API. */
export const adminRequests = Object.entries(samples).flatMap(([key, body]) => {
  const api = apiSchemas.get(Number(key))!;
  return Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => [api.name, api.apiKey, api.minVersion + i, body] as const);
});

/** The same requests as size-prefixed frames. */
export function adminFrames(): Buffer[] {
  return adminRequests.map(([, apiKey, version, body]) => {
    const payload = encodeRequest(apiKey, version, 1, 'fuzz', body);
    const size = Buffer.alloc(4);
    size.writeInt32BE(payload.length);
    return Buffer.concat([size, payload]);
  });
}
