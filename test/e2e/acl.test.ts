// ACLs and the authorizer end to end, over SASL/PLAIN through the proxy: the
// ACL APIs with kafkajs's admin (round trip, ANY/MATCH filters, refusals),
// each API's *_AUTHORIZATION_FAILED for a principal without ACLs, literal
// and prefixed ACLs, DENY beating ALLOW, kafkajs producing and consuming in
// a group once its ACLs exist, authorized operations, reset, and
// SECURITY_DISABLED without an authorizer.
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, Kafka, ResourcePatternTypes, logLevel, type AclEntry, type SASLOptions } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { ZERO_UUID } from '../../src/protocol/primitives.js';
import { resetCluster } from '../../src/control/reset.js';
import { AclOperation } from '../../src/broker/acl/acl-types.js';
import { messages } from '../support/kafkajs.js';
import { WireClient } from '../support/wire-client.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';

const USERS = { admin: 'admin-secret', alice: 'alice-secret', bob: 'bob-secret' };

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({
    brokers: 1,
    sasl: { users: USERS },
    authorizer: { superUsers: ['User:admin'], allowEveryoneIfNoAclFound: false },
    topics: [{ name: 'orders', partitions: 1 }, { name: 'orders-eu', partitions: 1 }, { name: 'orders-us', partitions: 1 }, { name: 'other', partitions: 1 }],
  });
});
afterAll(() => kafka.stop());

const client = (user: keyof typeof USERS) =>
  new Kafka({
    clientId: `acl-${user}`,
    brokers: kafka.bootstrap.split(','),
    sasl: { mechanism: 'plain', username: user, password: USERS[user] } as SASLOptions,
    logLevel: logLevel.NOTHING,
    retry: { retries: 1, initialRetryTime: 50 },
  });

/** A raw connection authenticated as `user` with SaslHandshake v1 + SaslAuthenticate. */
async function wire(user: keyof typeof USERS): Promise<WireClient> {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  expect((await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' })).errorCode).toBe(0);
  expect((await c.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from(`\u0000${user}\u0000${USERS[user]}`) })).errorCode).toBe(0);
  return c;
}

/** ACLs made by the super user through kafkajs's admin; removed after each test. */
async function grant(...acl: AclEntry[]): Promise<void> {
  const admin = client('admin').admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl });
  } finally {
    await admin.disconnect();
  }
}

const allow = (principal: string, resourceName: string, operation: AclOperationTypes, more: Partial<AclEntry> = {}): AclEntry => ({
  resourceType: AclResourceTypes.TOPIC,
  resourceName,
  resourcePatternType: ResourcePatternTypes.LITERAL,
  principal,
  host: '*',
  operation,
  permissionType: AclPermissionTypes.ALLOW,
  ...more,
});

afterEach(() => kafka.cluster.authorizer!.reset());

const produceBody = (topic: string, transactionalId: string | null = null) => ({
  transactionalId,
  acks: 1,
  timeoutMs: 5000,
  topicData: [{ name: topic, partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from('x') }]) }] }],
});
const produceError = async (c: WireClient, topic: string) => (await c.request(ApiKey.Produce, 7, produceBody(topic))).responses[0].partitionResponses[0].errorCode;
const fetchError = async (c: WireClient, topic: string) =>
  (await c.request(ApiKey.Fetch, 11, { replicaId: -1, maxWaitMs: 0, minBytes: 0, maxBytes: 1 << 20, isolationLevel: 0, sessionId: 0, sessionEpoch: -1, topics: [{ topic, partitions: [{ partition: 0, currentLeaderEpoch: -1, fetchOffset: 0, logStartOffset: -1, partitionMaxBytes: 1 << 20 }] }], forgottenTopicsData: [], rackId: '' })).responses[0].partitions[0].errorCode;

describe('the ACL APIs through kafkajs', () => {
  test('round trip: create literal and prefixed ACLs, describe with filters, delete with filters', async () => {
    const admin = client('admin').admin();
    await admin.connect();
    try {
      await admin.createAcls({
        acl: [
          allow('User:alice', 'orders', AclOperationTypes.READ),
          allow('User:alice', 'orders-', AclOperationTypes.WRITE, { resourcePatternType: ResourcePatternTypes.PREFIXED }),
          allow('User:bob', '*', AclOperationTypes.DESCRIBE),
          allow('User:bob', 'g1', AclOperationTypes.READ, { resourceType: AclResourceTypes.GROUP }),
        ],
      });
      const names = (r: Awaited<ReturnType<typeof admin.describeAcls>>) => r.resources.map((x) => `${x.resourceType}:${x.resourcePatternType}:${x.resourceName}`).sort();
      const any = { resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY };
      const all = await admin.describeAcls(any);
      expect(names(all)).toEqual(['2:3:*', '2:3:orders', '2:4:orders-', '3:3:g1']);
      // MATCH: every ACL that applies to the topic orders-eu (the prefix and the wildcard), not the literal 'orders'.
      const match = await admin.describeAcls({ ...any, resourceType: AclResourceTypes.TOPIC, resourceName: 'orders-eu', resourcePatternType: ResourcePatternTypes.MATCH });
      expect(names(match)).toEqual(['2:3:*', '2:4:orders-']);
      const bobs = await admin.describeAcls({ ...any, principal: 'User:bob' });
      expect(names(bobs)).toEqual(['2:3:*', '3:3:g1']);
      expect(bobs.resources.find((r) => r.resourceName === 'g1')!.acls).toEqual([{ principal: 'User:bob', host: '*', operation: AclOperationTypes.READ, permissionType: AclPermissionTypes.ALLOW }]);

      const deleted = await admin.deleteAcls({ filters: [{ ...any, resourceType: AclResourceTypes.TOPIC, resourcePatternType: ResourcePatternTypes.PREFIXED }, { ...any, principal: 'User:nobody' }] });
      expect(deleted.filterResponses.map((f) => [f.errorCode, f.matchingAcls.map((m) => m.resourceName)])).toEqual([[0, ['orders-']], [0, []]]);
      expect(names(await admin.describeAcls(any))).toEqual(['2:3:*', '2:3:orders', '3:3:g1']);
    } finally {
      await admin.disconnect();
    }
  });

  test('a principal without ALTER (or DESCRIBE) on the cluster gets CLUSTER_AUTHORIZATION_FAILED', async () => {
    const admin = client('alice').admin();
    await admin.connect();
    try {
      await expect(admin.createAcls({ acl: [allow('User:alice', 'orders', AclOperationTypes.ALL)] })).rejects.toMatchObject({ type: 'CLUSTER_AUTHORIZATION_FAILED' });
      await expect(admin.describeAcls({ resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY })).rejects.toMatchObject({ type: 'CLUSTER_AUTHORIZATION_FAILED' });
    } finally {
      await admin.disconnect();
    }
    expect(kafka.cluster.authorizer!.size).toBe(0);
  });

  test('each creation is checked on its own; an UNKNOWN code closes the connection, as Kafka fails to parse it', async () => {
    const c = await wire('admin');
    const creation = { resourceType: 2, resourceName: 'orders', resourcePatternType: 3, principal: 'User:alice', host: '*', operation: AclOperation.READ, permissionType: 3 };
    const r = await c.request(ApiKey.CreateAcls, 3, { creations: [creation, { ...creation, resourceType: 4 }, { ...creation, resourceName: '' }, { ...creation, operation: AclOperation.ANY }] });
    expect(r.results).toEqual([
      { errorCode: 0, errorMessage: null },
      { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'The only valid name for the CLUSTER resource is kafka-cluster' },
      { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Invalid empty resource name' },
      { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Invalid operation ANY' },
    ]);
    c.send(ApiKey.CreateAcls, 1, { creations: [{ ...creation, operation: AclOperation.UNKNOWN }] });
    expect(await c.whenClosed()).toBe(true);
  });
});

describe('without ACLs, with allow.everyone.if.no.acl.found false, each API refuses', () => {
  test('produce, fetch, list offsets: TOPIC_AUTHORIZATION_FAILED per partition', async () => {
    const c = await wire('alice');
    expect(await produceError(c, 'orders')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    // Refused before the topic is looked up: an unknown topic gets the same answer.
    expect(await produceError(c, 'no-such-topic')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    expect(await fetchError(c, 'orders')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    const lo = await c.request(ApiKey.ListOffsets, 3, { replicaId: -1, isolationLevel: 0, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, timestamp: -1 }] }] });
    expect(lo.topics[0].partitions[0].errorCode).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    c.close();
  });

  test('metadata hides unauthorized topics from an all-topics request and refuses named ones', async () => {
    const c = await wire('alice');
    const all = await c.request(ApiKey.Metadata, 9, { topics: null, allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false });
    expect(all.topics).toEqual([]);
    const named = await c.request(ApiKey.Metadata, 9, { topics: [{ name: 'orders' }, { name: 'brand-new' }], allowAutoTopicCreation: true, includeTopicAuthorizedOperations: false });
    expect(named.topics.map((t: { name: string; errorCode: number }) => [t.name, t.errorCode])).toEqual([
      ['orders', ErrorCode.TOPIC_AUTHORIZATION_FAILED],
      ['brand-new', ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    ]);
    expect(kafka.cluster.topic('brand-new')).toBeUndefined();
    c.close();
  });

  test('auto-creation needs CREATE on the cluster or the topic, besides DESCRIBE', async () => {
    await grant(allow('User:alice', 'auto-', AclOperationTypes.DESCRIBE, { resourcePatternType: ResourcePatternTypes.PREFIXED }));
    const c = await wire('alice');
    const ask = async (name: string) => (await c.request(ApiKey.Metadata, 9, { topics: [{ name }], allowAutoTopicCreation: true, includeTopicAuthorizedOperations: false })).topics[0].errorCode;
    expect(await ask('auto-a')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    expect(kafka.cluster.topic('auto-a')).toBeUndefined();
    await grant(allow('User:alice', 'auto-b', AclOperationTypes.CREATE));
    expect(await ask('auto-b')).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION); // KRaft's answer while it creates the topic
    expect(kafka.cluster.topic('auto-b')).toBeDefined();
    kafka.cluster.deleteTopic('auto-b');
    c.close();
  });

  test('group APIs: GROUP_AUTHORIZATION_FAILED (FindCoordinator, JoinGroup, OffsetCommit, OffsetFetch, DescribeGroups)', async () => {
    const c = await wire('alice');
    expect((await c.request(ApiKey.FindCoordinator, 2, { key: 'g1', keyType: 0 })).errorCode).toBe(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    const join = await c.request(ApiKey.JoinGroup, 5, { groupId: 'g1', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', groupInstanceId: null, protocolType: 'consumer', protocols: [{ name: 'range', metadata: Buffer.alloc(0) }] });
    expect(join.errorCode).toBe(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    const commit = await c.request(ApiKey.OffsetCommit, 5, { groupId: 'g1', generationIdOrMemberEpoch: -1, memberId: '', topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 1, committedMetadata: null }] }] });
    expect(commit.topics[0].partitions[0].errorCode).toBe(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    expect((await c.request(ApiKey.OffsetFetch, 5, { groupId: 'g1', topics: null })).errorCode).toBe(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    expect((await c.request(ApiKey.DescribeGroups, 3, { groups: ['g1'], includeAuthorizedOperations: true })).groups[0].errorCode).toBe(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    c.close();
  });

  test('with READ on the group but not the topic, OffsetCommit refuses the topic alone', async () => {
    await grant(allow('User:alice', 'g2', AclOperationTypes.READ, { resourceType: AclResourceTypes.GROUP }));
    const c = await wire('alice');
    const commit = await c.request(ApiKey.OffsetCommit, 5, { groupId: 'g2', generationIdOrMemberEpoch: -1, memberId: '', topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 1, committedMetadata: null }] }] });
    expect(commit.topics[0].partitions[0].errorCode).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    c.close();
  });

  test('InitProducerId: TRANSACTIONAL_ID_AUTHORIZATION_FAILED with an id, CLUSTER_AUTHORIZATION_FAILED for an idempotent producer without IDEMPOTENT_WRITE or any WRITE', async () => {
    const c = await wire('alice');
    expect((await c.request(ApiKey.InitProducerId, 1, { transactionalId: 'tx-1', transactionTimeoutMs: 10_000 })).errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
    expect((await c.request(ApiKey.InitProducerId, 1, { transactionalId: null, transactionTimeoutMs: 10_000 })).errorCode).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
    // KIP-679: WRITE on any topic is enough for an idempotent producer.
    await grant(allow('User:alice', 'orders-', AclOperationTypes.WRITE, { resourcePatternType: ResourcePatternTypes.PREFIXED }));
    expect((await c.request(ApiKey.InitProducerId, 1, { transactionalId: null, transactionTimeoutMs: 10_000 })).errorCode).toBe(0);
    c.close();
  });

  test('kafkajs: a transactional producer is refused; CreateTopics answers TOPIC_AUTHORIZATION_FAILED', async () => {
    // DESCRIBE lets FindCoordinator through (kafkajs hides its errors behind "Failed to find group coordinator"); InitProducerId needs WRITE.
    await grant(allow('User:alice', 'tx-alice', AclOperationTypes.DESCRIBE, { resourceType: AclResourceTypes.TRANSACTIONAL_ID }));
    const producer = client('alice').producer({ transactionalId: 'tx-alice', maxInFlightRequests: 1 });
    await producer.connect();
    await expect(producer.transaction()).rejects.toMatchObject({ type: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED' });
    await producer.disconnect();
    // An idempotent producer's InitProducerId (no transactional id) needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic.
    const idempotent = client('alice').producer({ idempotent: true, maxInFlightRequests: 1, retry: { retries: Number.MAX_SAFE_INTEGER } });
    await expect(idempotent.connect()).rejects.toMatchObject({ type: 'CLUSTER_AUTHORIZATION_FAILED' });
    await idempotent.disconnect();
    const c = await wire('alice');
    const r = await c.request(ApiKey.CreateTopics, 3, { topics: [{ name: 'alices', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
    expect(r.topics[0]).toMatchObject({ name: 'alices', errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: 'Authorization failed.' });
    expect(kafka.cluster.topic('alices')).toBeUndefined();
    c.close();
  });
});

describe('patterns and precedence', () => {
  test('a prefixed ACL covers the names it starts, a literal one its name alone', async () => {
    await grant(allow('User:alice', 'orders-', AclOperationTypes.WRITE, { resourcePatternType: ResourcePatternTypes.PREFIXED }), allow('User:alice', 'orders', AclOperationTypes.READ));
    const c = await wire('alice');
    expect(await produceError(c, 'orders-eu')).toBe(0);
    expect(await produceError(c, 'orders')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    expect(await fetchError(c, 'orders')).toBe(0);
    expect(await fetchError(c, 'orders-eu')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    c.close();
  });

  test('DENY beats ALLOW; the super user is not bound by DENY', async () => {
    await grant(
      allow('User:*', 'orders-', AclOperationTypes.ALL, { resourcePatternType: ResourcePatternTypes.PREFIXED }),
      allow('User:alice', 'orders-eu', AclOperationTypes.WRITE, { permissionType: AclPermissionTypes.DENY }),
      allow('User:*', 'orders-us', AclOperationTypes.ALL, { permissionType: AclPermissionTypes.DENY }),
    );
    const alice = await wire('alice');
    expect(await produceError(alice, 'orders-eu')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    expect(await fetchError(alice, 'orders-eu')).toBe(0); // only WRITE is denied
    expect(await produceError(alice, 'orders-us')).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    const bob = await wire('bob');
    expect(await produceError(bob, 'orders-eu')).toBe(0);
    const admin = await wire('admin');
    expect(await produceError(admin, 'orders-us')).toBe(0);
    for (const c of [alice, bob, admin]) c.close();
  });

  test('kafkajs produces and consumes in a group once the ACLs are there', async () => {
    await grant(
      allow('User:bob', 'orders', AclOperationTypes.WRITE),
      allow('User:bob', 'orders', AclOperationTypes.READ),
      allow('User:bob', 'bobs-', AclOperationTypes.READ, { resourceType: AclResourceTypes.GROUP, resourcePatternType: ResourcePatternTypes.PREFIXED }),
      allow('User:bob', 'others', AclOperationTypes.DESCRIBE, { resourceType: AclResourceTypes.GROUP }),
    );
    const k = client('bob');
    const producer = k.producer();
    await producer.connect();
    await producer.send({ topic: 'orders', acks: -1, messages: messages(3, 'bob-') });
    await producer.disconnect();
    const consumer = k.consumer({ groupId: 'bobs-group', maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'orders', fromBeginning: true });
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${seen.length} messages`)), 20_000);
      consumer
        .run({
          eachMessage: async ({ message }) => {
            seen.push(message.value!.toString());
            if (seen.filter((v) => v.startsWith('bob-')).length === 3) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    expect(seen.filter((v) => v.startsWith('bob-'))).toEqual(messages(3, 'bob-').map((m) => m.value));
    // A group bob may only DESCRIBE: FindCoordinator answers, JoinGroup refuses, and kafkajs's consumer fails on GROUP_AUTHORIZATION_FAILED.
    const stranger = k.consumer({ groupId: 'others', retry: { retries: 0 } });
    await stranger.connect();
    await stranger.subscribe({ topic: 'orders' });
    const crashed = new Promise<unknown>((resolve) => stranger.on(stranger.events.CRASH, (e) => resolve(e.payload.error)));
    void stranger.run({ eachMessage: async () => {} }).catch(() => {});
    expect(await crashed).toMatchObject({ type: 'GROUP_AUTHORIZATION_FAILED' });
    await stranger.disconnect();
  }, 40_000);
});

test('authorized operations: Metadata, DescribeGroups and DescribeCluster, when asked', async () => {
  await grant(
    allow('User:alice', 'orders', AclOperationTypes.READ),
    allow('User:alice', 'g3', AclOperationTypes.DELETE, { resourceType: AclResourceTypes.GROUP }),
    allow('User:alice', 'kafka-cluster', AclOperationTypes.IDEMPOTENT_WRITE, { resourceType: AclResourceTypes.CLUSTER }),
    allow('User:alice', 'kafka-cluster', AclOperationTypes.DESCRIBE, { resourceType: AclResourceTypes.CLUSTER }),
  );
  const c = await wire('alice');
  const bits = (...ops: number[]) => ops.reduce((b, op) => b | (1 << op), 0);
  const md = await c.request(ApiKey.Metadata, 10, { topics: null, allowAutoTopicCreation: false, includeClusterAuthorizedOperations: true, includeTopicAuthorizedOperations: true });
  expect(md.topics.map((t: { name: string; topicAuthorizedOperations: number }) => [t.name, t.topicAuthorizedOperations])).toEqual([['orders', bits(AclOperation.READ, AclOperation.DESCRIBE)]]);
  expect(md.clusterAuthorizedOperations).toBe(bits(AclOperation.IDEMPOTENT_WRITE, AclOperation.DESCRIBE));
  const quiet = await c.request(ApiKey.Metadata, 10, { topics: null, allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });
  expect([quiet.clusterAuthorizedOperations, quiet.topics[0].topicAuthorizedOperations]).toEqual([-2147483648, -2147483648]);
  const groups = await c.request(ApiKey.DescribeGroups, 3, { groups: ['g3'], includeAuthorizedOperations: true });
  expect(groups.groups[0]).toMatchObject({ errorCode: 0, groupState: 'Dead', authorizedOperations: bits(AclOperation.DELETE, AclOperation.DESCRIBE) });
  const dc = await c.request(ApiKey.DescribeCluster, 0, { includeClusterAuthorizedOperations: true });
  expect(dc.clusterAuthorizedOperations).toBe(bits(AclOperation.IDEMPOTENT_WRITE, AclOperation.DESCRIBE));
  c.close();
});

test('DescribeTopicPartitions: named topics without DESCRIBE refused (existing or not), an all-topics or cursor listing leaves them out, the rest with their authorized operations', async () => {
  await grant(allow('User:alice', 'orders-', AclOperationTypes.WRITE, { resourcePatternType: ResourcePatternTypes.PREFIXED }));
  const c = await wire('alice');
  const bits = (...ops: number[]) => ops.reduce((b, op) => b | (1 << op), 0);
  const dtp = (topics: string[], cursor: { topicName: string; partitionIndex: number } | null = null, responsePartitionLimit = 2000) =>
    c.request(ApiKey.DescribeTopicPartitions, 0, { topics: topics.map((name) => ({ name })), responsePartitionLimit, cursor });
  type Answer = { name: string; errorCode: number; topicId: string; partitions: unknown[]; topicAuthorizedOperations: number };
  const shape = (r: { topics: Answer[] }) => r.topics.map((t) => [t.name, t.errorCode, t.partitions.length, t.topicAuthorizedOperations]);
  const granted = bits(AclOperation.WRITE, AclOperation.DESCRIBE);
  // Refused ones come after the others, with no id, whether they exist ('orders', 'other') or not ('nope').
  const named = await dtp(['other', 'orders-eu', 'nope', 'orders', 'orders-zz']);
  expect(shape(named)).toEqual([
    ['orders-eu', ErrorCode.NONE, 1, granted],
    ['orders-zz', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 0, granted],
    ['nope', ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0, -2147483648],
    ['orders', ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0, -2147483648],
    ['other', ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0, -2147483648],
  ]);
  expect(named.topics.filter((t: Answer) => t.errorCode === ErrorCode.TOPIC_AUTHORIZATION_FAILED).map((t: Answer) => t.topicId)).toEqual([ZERO_UUID, ZERO_UUID, ZERO_UUID]);
  const all = await dtp([]);
  expect(shape(all)).toEqual([
    ['orders-eu', ErrorCode.NONE, 1, granted],
    ['orders-us', ErrorCode.NONE, 1, granted],
  ]);
  const firstPage = await dtp([], null, 1);
  expect([shape(firstPage), firstPage.nextCursor]).toEqual([[['orders-eu', ErrorCode.NONE, 1, granted]], { topicName: 'orders-us', partitionIndex: 0 }]);
  const secondPage = await dtp([], firstPage.nextCursor, 1);
  expect([shape(secondPage), secondPage.nextCursor]).toEqual([[['orders-us', ErrorCode.NONE, 1, granted]], null]);
  // A cursor on a topic the principal may not see: nothing of it, and the listing goes on after it.
  expect(shape(await dtp([], { topicName: 'orders', partitionIndex: 0 }))).toEqual([
    ['orders-eu', ErrorCode.NONE, 1, granted],
    ['orders-us', ErrorCode.NONE, 1, granted],
  ]);
  c.close();
});

test('reset drops the ACLs made since the start', async () => {
  await grant(allow('User:alice', 'orders', AclOperationTypes.READ));
  expect(kafka.cluster.authorizer!.size).toBe(1);
  await resetCluster({ cluster: kafka.cluster, chaos: kafka.chaos, startNode: async () => {} }, kafka.options.topics);
  expect(kafka.cluster.authorizer!.size).toBe(0);
});

test('without an authorizer everything is allowed and the ACL APIs answer SECURITY_DISABLED', async () => {
  const open = await startCluster({ brokers: 1, topics: [{ name: 't', partitions: 1 }] });
  try {
    const admin = new Kafka({ brokers: open.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
    await admin.connect();
    try {
      await expect(admin.describeAcls({ resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY })).rejects.toMatchObject({ type: 'SECURITY_DISABLED' });
      await expect(admin.createAcls({ acl: [allow('User:alice', 't', AclOperationTypes.READ)] })).rejects.toMatchObject({ type: 'SECURITY_DISABLED' });
    } finally {
      await admin.disconnect();
    }
    const c = await WireClient.connect(open.bootstrap.split(',')[0]!);
    const md = await c.request(ApiKey.Metadata, 10, { topics: [{ name: 't' }], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: true, includeTopicAuthorizedOperations: true });
    // Every supported operation (AclEntry.supportedOperations).
    expect(md.topics[0].topicAuthorizedOperations).toBe([3, 4, 5, 6, 7, 8, 10, 11].reduce((b, op) => b | (1 << op), 0));
    c.close();
  } finally {
    await open.stop();
  }
});
