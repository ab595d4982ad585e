// DescribeClientQuotas (48) and AlterClientQuotas (49), and the throttling
// they turn on: @platformatic/kafka's admin for the happy path, the raw
// client for the errors and for throttling, which runs on a manual clock so
// that the mute can be watched without sleeping.
import { Admin } from '@platformatic/kafka';
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ManualClock } from '../../../src/broker/clock.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient, decodeResponse } from '../../support/wire-client.js';

const EXACT = 0;
const DEFAULT = 1;
const SPECIFIED = 2;

let kafka: RunningCluster;
let clock: ManualClock;
let c: WireClient;
beforeAll(async () => {
  clock = new ManualClock();
  kafka = await startCluster({ brokers: 1, proxy: false, clock, logLevel: 'silent', topics: [{ name: 'cq', partitions: 1 }] });
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

type Entity = [string, string | null][];
const alter = (entries: { entity: Entity; ops: [string, number | null][] }[], validateOnly = false) =>
  c.request(ApiKey.AlterClientQuotas, 1, {
    entries: entries.map((e) => ({
      entity: e.entity.map(([entityType, entityName]) => ({ entityType, entityName })),
      ops: e.ops.map(([key, value]) => ({ key, value: value ?? 0, remove: value === null })),
    })),
    validateOnly,
  });
const describe = (components: [string, number, string | null][], strict = false) =>
  c.request(ApiKey.DescribeClientQuotas, 1, { components: components.map(([entityType, matchType, match]) => ({ entityType, matchType, match })), strict });
const results = (res: any) => res.entries.map((e: any) => [e.entity.map((x: any) => `${x.entityType}=${x.entityName}`).join(','), e.errorCode, e.errorMessage]);

describe_('the admin API', () => {
  test('@platformatic/kafka sets quotas for a user, a default client id and a user + client id, and describes them back', async () => {
    const admin = new Admin({ clientId: 'cq-admin', bootstrapBrokers: [kafka.bootstrap], retries: 0, timeout: 10_000 });
    try {
      await admin.alterClientQuotas({
        entries: [
          { entities: [{ entityType: 'user', entityName: 'alice' }], ops: [{ key: 'producer_byte_rate', value: 1024, remove: false }] },
          { entities: [{ entityType: 'client-id', entityName: null }], ops: [{ key: 'consumer_byte_rate', value: 2048, remove: false }] },
          {
            entities: [{ entityType: 'user', entityName: 'alice' }, { entityType: 'client-id', entityName: 'app' }],
            ops: [{ key: 'request_percentage', value: 12.5, remove: false }],
          },
        ],
      });
      const aliceAny = await admin.describeClientQuotas({ components: [{ entityType: 'user', matchType: EXACT, match: 'alice' }] });
      expect(aliceAny.map((e) => [e.entity.map((x) => `${x.entityType}=${x.entityName}`).join(','), e.values]).sort()).toEqual([
        ['user=alice', [{ key: 'producer_byte_rate', value: 1024 }]],
        ['user=alice,client-id=app', [{ key: 'request_percentage', value: 12.5 }]],
      ]);
      const defaults = await admin.describeClientQuotas({ components: [{ entityType: 'client-id', matchType: DEFAULT }] });
      expect(defaults).toEqual([{ entity: [{ entityType: 'client-id', entityName: null }], values: [{ key: 'consumer_byte_rate', value: 2048 }] }]);
    } finally {
      await admin.close();
    }
  });
});

test('strict matches only entities with exactly the filtered types; SPECIFIED matches any name', async () => {
  const strict = await describe([['user', EXACT, 'alice']], true);
  expect(strict.entries.map((e: any) => e.entity.length)).toEqual([1]);
  const anyClient = await describe([['client-id', SPECIFIED, null]]);
  expect(anyClient.entries.map((e: any) => e.entity.map((x: any) => x.entityName))).toEqual(expect.arrayContaining([[null], ['alice', 'app']]));
});

test('AlterClientQuotas refuses per entity as the controller does, and removes values', async () => {
  const res = await alter([
    { entity: [['user', 'bob']], ops: [['producer_byte_rate', 1.5]] },
    { entity: [['user', 'carl']], ops: [['connection_creation_rate', 5]] },
    { entity: [['user', 'dora']], ops: [['consumer_byte_rate', 0]] },
    { entity: [['ip', '10.0.0.1'], ['user', 'x']], ops: [['connection_creation_rate', 5]] },
    { entity: [], ops: [['producer_byte_rate', 5]] },
    { entity: [['group', 'g']], ops: [['producer_byte_rate', 5]] },
    { entity: [['user', '']], ops: [['producer_byte_rate', 5]] },
    { entity: [['ip', '10.0.0.1']], ops: [['connection_creation_rate', 5]] },
    { entity: [['user', 'erin']], ops: [['producer_byte_rate', 5], ['producer_byte_rate', 6]] },
  ]);
  expect(results(res)).toEqual([
    ['user=bob', ErrorCode.INVALID_REQUEST, 'producer_byte_rate cannot be a fractional value.'],
    ['user=carl', ErrorCode.INVALID_REQUEST, 'Invalid configuration key connection_creation_rate'],
    ['user=dora', ErrorCode.INVALID_REQUEST, 'Quota consumer_byte_rate must be greater than 0'],
    ['ip=10.0.0.1,user=x', ErrorCode.INVALID_REQUEST, 'Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId'],
    ['', ErrorCode.INVALID_REQUEST, 'Invalid empty client quota entity'],
    ['group=g', ErrorCode.INVALID_REQUEST, 'Unhandled client quota entity type: group'],
    ['user=', ErrorCode.INVALID_REQUEST, 'Empty user not supported'],
    ['ip=10.0.0.1', 0, null],
    ['user=erin', ErrorCode.INVALID_REQUEST, 'Ignoring duplicate entity ClientQuotaEntity(entries={user=erin})'],
  ]);
  expect((await describe([['user', EXACT, 'bob']])).entries).toEqual([]);
  expect((await describe([['ip', SPECIFIED, null]])).entries).toEqual([{ entity: [{ entityType: 'ip', entityName: '10.0.0.1' }], values: [{ key: 'connection_creation_rate', value: 5 }] }]);

  // validateOnly answers without changing anything; a null value removes the key, and the entity with its last key.
  expect(results(await alter([{ entity: [['user', 'fay']], ops: [['producer_byte_rate', 10]] }], true))).toEqual([['user=fay', 0, null]]);
  expect((await describe([['user', EXACT, 'fay']])).entries).toEqual([]);
  await alter([{ entity: [['ip', '10.0.0.1']], ops: [['connection_creation_rate', null]] }]);
  expect((await describe([['ip', SPECIFIED, null]])).entries).toEqual([]);
});

test('DescribeClientQuotas: a bad filter fails the whole request', async () => {
  const dup = await describe([['user', EXACT, 'a'], ['user', SPECIFIED, null]]);
  expect(dup).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Entity type user cannot appear more than once in the filter.', entries: null });
  expect(await describe([['group', SPECIFIED, null]])).toMatchObject({ errorCode: ErrorCode.UNSUPPORTED_VERSION, errorMessage: 'Unsupported entity type group' });
  expect((await describe([['user', EXACT, null]])).errorMessage).toBe('Request specified MATCH_TYPE_EXACT, but set match string to null.');
  expect((await describe([['user', DEFAULT, 'x']])).errorMessage).toBe('Request specified MATCH_TYPE_DEFAULT, but also specified a match string.');
  expect((await describe([['ip', SPECIFIED, null], ['user', SPECIFIED, null]])).errorCode).toBe(ErrorCode.INVALID_REQUEST);
});

/** A request with this client id on its own connection; the answer, or null if none came while the test looked. */
async function on(conn: WireClient, clientId: string, apiKey: number, version: number, body: unknown): Promise<any> {
  const id = conn.send(apiKey, version, body, clientId);
  const frame = await conn.nextFrame();
  return decodeResponse(frame!, apiKey, version, id);
}
const produce = (records: Buffer) => ({ transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [{ name: 'cq', partitionData: [{ index: 0, records }] }] });
const bigBatch = () => buildRecordBatch([{ value: Buffer.alloc(20_000, 7) }]);

test('a producer over its producer_byte_rate is answered at once with the throttle time, then its connection is muted that long', async () => {
  await alter([{ entity: [['client-id', 'slow']], ops: [['producer_byte_rate', 1000]] }]);
  const slow = await WireClient.connect(kafka.bootstrap);
  const free = await WireClient.connect(kafka.bootstrap);
  try {
    const res = await on(slow, 'slow', ApiKey.Produce, 7, produce(bigBatch()));
    expect(res.responses[0].partitionResponses[0].errorCode).toBe(0);
    // About 20 kB over a window of at least 10 s is 2 kB/s, twice the bound: (2000 - 1000) / 1000 × 10 s.
    expect(res.throttleTimeMs).toBeGreaterThan(9_000);
    expect(res.throttleTimeMs).toBeLessThanOrEqual(10_200);

    // The next request on that connection is read only once the throttle time has passed.
    const id = slow.send(ApiKey.Metadata, 1, { topics: [] }, 'slow');
    let answered = false;
    const next = slow.nextFrame(10_000).then((f) => ((answered = true), f));
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    clock.advance(res.throttleTimeMs);
    expect(decodeResponse((await next)!, ApiKey.Metadata, 1, id)).toMatchObject({ topics: [] });

    // Another client id has no quota: no throttle, whatever it sends.
    expect((await on(free, 'free', ApiKey.Produce, 7, produce(bigBatch()))).throttleTimeMs).toBe(0);
  } finally {
    slow.close();
    free.close();
  }
});

test('a consumer over its consumer_byte_rate gets an empty answer with the throttle time, and what it was not given is not counted', async () => {
  await alter([{ entity: [['client-id', 'reader']], ops: [['consumer_byte_rate', 3000]] }]);
  const reader = await WireClient.connect(kafka.bootstrap);
  try {
    const topicId = kafka.cluster.topic('cq')!.topicId;
    // One 20 kB batch per answer: the first is always served (v3+), the byte limit stops the second.
    const fetch = { replicaId: -1, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionId: 0, sessionEpoch: -1, topics: [{ topic: 'cq', topicId, partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1000 }] }], forgottenTopicsData: [], rackId: '' };
    const first = await on(reader, 'reader', ApiKey.Fetch, 11, fetch);
    expect(first.throttleTimeMs).toBe(0);
    expect(first.responses[0].partitions[0].records.length).toBeGreaterThan(20_000);
    // 40 kB over 10 s is 4 kB/s, above 3 kB/s: no data, and the time until the rate is back at the bound.
    const second = await on(reader, 'reader', ApiKey.Fetch, 11, fetch);
    expect(second.responses).toEqual([]);
    expect(second.throttleTimeMs).toBeGreaterThan(3_000);
    expect(second.throttleTimeMs).toBeLessThan(3_500);
    // Once the windows have passed the same fetch is served again.
    clock.advance(11_000);
    const third = await on(reader, 'reader', ApiKey.Fetch, 11, fetch);
    expect([third.throttleTimeMs, third.responses[0].partitions[0].records.length > 0]).toEqual([0, true]);
  } finally {
    reader.close();
  }
});

function describe_(name: string, fn: () => void) {
  // jest's describe, named apart from the DescribeClientQuotas helper above.
  globalThis.describe(name, fn);
}

test('controller_mutation_rate: partitions come out of a token bucket; strict versions refuse once it is below zero, older ones are throttled after the fact', async () => {
  // 1 partition a second: a burst of 11 (quota × 11 windows of 1 s).
  await alter([{ entity: [['client-id', 'mut']], ops: [['controller_mutation_rate', 1]] }]);
  const conn = await WireClient.connect(kafka.bootstrap);
  const createTopics = (version: number, topics: [string, number][]) =>
    on(conn, 'mut', ApiKey.CreateTopics, version, { topics: topics.map(([name, numPartitions]) => ({ name, numPartitions, replicationFactor: 1, assignments: [], configs: [] })), timeoutMs: 1000, validateOnly: false });
  const errors = (topics: { name: string; errorCode: number }[]) => topics.map((t) => [t.name, t.errorCode]);
  try {
    // Strict (v6): 10 leave 1 token, 3 pass on a non-negative bucket and leave -2, the next topic is refused.
    const strict = await createTopics(6, [['mut-a', 10], ['mut-b', 3], ['mut-c', 1]]);
    expect(errors(strict.topics)).toEqual([['mut-a', 0], ['mut-b', 0], ['mut-c', ErrorCode.THROTTLING_QUOTA_EXCEEDED]]);
    expect(strict.topics[2].errorMessage).toBe('The throttling quota has been exceeded.');
    expect(strict.throttleTimeMs).toBe(2000);
    expect(kafka.cluster.topic('mut-c')).toBeUndefined();
    clock.advance(2000);

    // Permissive (DeleteTopics v4): the 10 partitions go, and the answer carries the throttle time they cost.
    const permissive = await on(conn, 'mut', ApiKey.DeleteTopics, 4, { topicNames: ['mut-a'], timeoutMs: 1000 });
    expect([permissive.responses[0].errorCode, permissive.throttleTimeMs]).toEqual([0, 10_000]);
    expect(kafka.cluster.topic('mut-a')).toBeUndefined();
    clock.advance(10_000);

    // CreatePartitions v3 counts the partitions added: 2 pass on an empty bucket, then the next is refused.
    const grow = (count: number) => on(conn, 'mut', ApiKey.CreatePartitions, 3, { topics: [{ name: 'mut-b', count, assignments: null }], timeoutMs: 1000, validateOnly: false });
    const first = await grow(5);
    expect([first.results[0].errorCode, first.throttleTimeMs]).toEqual([0, 0]);
    const second = await grow(6);
    expect([second.results[0].errorCode, second.throttleTimeMs]).toEqual([ErrorCode.THROTTLING_QUOTA_EXCEEDED, 2000]);
    expect(kafka.cluster.topic('mut-b')!.partitions.length).toBe(5);
    clock.advance(2000);

    // Another client id has no quota.
    const free = await on(conn, 'other', ApiKey.CreateTopics, 6, { topics: [{ name: 'mut-d', numPartitions: 50, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 1000, validateOnly: false });
    expect([free.topics[0].errorCode, free.throttleTimeMs]).toEqual([0, 0]);
  } finally {
    conn.close();
    for (const t of ['mut-b', 'mut-d']) if (kafka.cluster.topic(t)) kafka.cluster.deleteTopic(t);
    await alter([{ entity: [['client-id', 'mut']], ops: [['controller_mutation_rate', null]] }]);
  }
});
