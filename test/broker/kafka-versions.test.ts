// Kafka versions as profiles (kafkaVersion): each profile advertises its
// release's ApiVersions ranges capped to what the handlers serve, refuses
// what that release refuses, and has that release's behaviours, seen on the
// wire and through kafkajs.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { brokerHandlers } from '../../src/broker/handlers/index.js';
import { HandlerRegistry } from '../../src/broker/handlers/registry.js';
import { PROFILES } from '../../src/broker/kafka-version/profiles.js';
import { resolveOptions } from '../../src/options.js';
import { startFixtureClusters } from '../../src/fixture/clusters.js';
import { WireClient, decodeResponse } from '../support/wire-client.js';
import { kafkajs } from '../support/kafkajs.js';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const clusters = new Map<string, RunningCluster>();
beforeAll(async () => {
  for (const v of ['2.8', '3.9', '4.0', '4.4']) clusters.set(v, await startCluster({ brokers: 1, kafkaVersion: v, topics: [{ name: 'orders', partitions: 1 }] }));
  clusters.set('default', await startCluster({ brokers: 1 }));
});
afterAll(async () => {
  for (const c of clusters.values()) await c.stop();
});
const bootstrap = (v: string) => clusters.get(v)!.bootstrap;

async function apiVersions(v: string): Promise<Map<number, [number, number]>> {
  const c = await WireClient.connect(bootstrap(v));
  try {
    const res = await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'profiles-test', clientSoftwareVersion: '1.0' });
    expect(res.errorCode).toBe(ErrorCode.NONE);
    return new Map(res.apiKeys.map((a: any) => [a.apiKey, [a.minVersion, a.maxVersion]]));
  } finally {
    c.close();
  }
}

describe('ApiVersions per profile', () => {
  test('the default is 3.9, and it advertises what the handlers serve, as before profiles', async () => {
    expect(resolveOptions({}).kafkaVersion).toBe('3.9');
    // Every handler but KIP-848's and KIP-932's, which a default 3.9 broker does not advertise, each capped at 3.9's
    // maximum: the handlers of Produce, EndTxn and TxnOffsetCommit also serve 4.x's transactions v2.
    const v39 = new Map<number, number>([[ApiKey.Produce, 11], [ApiKey.EndTxn, 4], [ApiKey.TxnOffsetCommit, 4]]);
    const notIn39 = new Set([68, 69, 76, 77, 78, 79, 90, 91, 92]);
    const all = new Map(brokerHandlers.filter((h) => !notIn39.has(h.api.apiKey)).map((h) => [h.api.apiKey, [h.minVersion, Math.min(h.maxVersion, v39.get(h.api.apiKey) ?? Infinity)]]));
    expect(await apiVersions('default')).toEqual(all);
    expect(await apiVersions('3.9')).toEqual(all);
  });

  test('each profile advertises its release ranges capped to the handlers; an API its release lacks is absent', async () => {
    for (const v of ['2.8', '3.9', '4.0', '4.4']) {
      const profile = PROFILES.get(v)!;
      const advertised = await apiVersions(v);
      for (const h of brokerHandlers) {
        const kafka = profile.ranges.get(h.api.apiKey);
        const min = Math.max(h.minVersion, kafka?.min ?? Infinity);
        const max = Math.min(h.maxVersion, kafka?.max ?? -Infinity, profile.versionCaps.get(h.api.apiKey) ?? Infinity);
        const expected = min <= max ? [Math.min(min, profile.advertisedMin.get(h.api.apiKey) ?? min), max] : undefined;
        expect([v, h.api.name, advertised.get(h.api.apiKey)]).toEqual([v, h.api.name, expected]);
      }
    }
  });

  test('2.8 (ZooKeeper) serves what 2.8.2 did: Produce 0-9, Fetch 0-12, ApiVersions 0-3, no DescribeTransactions nor ListTransactions', async () => {
    const r = await apiVersions('2.8');
    expect(r.get(ApiKey.Produce)).toEqual([0, 9]);
    expect(r.get(ApiKey.Fetch)).toEqual([0, 12]);
    expect(r.get(ApiKey.ApiVersions)).toEqual([0, 3]);
    expect(r.get(ApiKey.DescribeCluster)).toEqual([0, 0]);
    expect(r.has(ApiKey.DescribeTransactions)).toBe(false);
    expect(r.has(ApiKey.ListTransactions)).toBe(false);
  });

  test('4.0 advertises KIP-896 minimums (Fetch 4+, OffsetCommit 2+) and Produce from 0 (KAFKA-18659), capped at the handlers', async () => {
    const r = await apiVersions('4.0');
    expect(r.get(ApiKey.Produce)).toEqual([0, 12]);
    expect(r.get(ApiKey.Fetch)).toEqual([4, 17]);
    expect(r.get(ApiKey.ListOffsets)).toEqual([1, 9]);
    expect(r.get(ApiKey.OffsetCommit)).toEqual([2, 9]);
    // 4.0.1 gave JoinGroup v0-1 back (kafka-clients 4.0.2's JoinGroupRequest.json: 0-9), as a real 4.0.2 advertises.
    expect(r.get(ApiKey.JoinGroup)).toEqual([0, 9]);
    expect(r.get(ApiKey.EndTxn)).toEqual([0, 5]);
  });

  test('4.4 serves JoinGroup v0-1 (so does 4.0, as 4.0.2 does), KIP-848 at v0-1, share groups as 4.4.0 does, and no Streams-group API', async () => {
    const r = await apiVersions('4.4');
    expect(r.get(ApiKey.Produce)).toEqual([0, 12]);
    expect(r.get(ApiKey.Fetch)).toEqual([4, 17]);
    expect(r.get(ApiKey.JoinGroup)).toEqual([0, 9]);
    // 4.0.0 had removed them (KIP-896); 4.0.1 gave them back (KAFKA-19444), and the 4.0 profile is 4.0.2's.
    expect((await apiVersions('4.0')).get(ApiKey.JoinGroup)).toEqual([0, 9]);
    for (const key of [88, 89]) expect([key, r.get(key)]).toEqual([key, undefined]);
    // KIP-932, as a default 4.4.0 broker advertises them (test/fixtures/kafka-api-versions/4.4.0.json); 4.0 has none (early access only).
    const share: [number, number[]][] = [[76, [1, 1]], [77, [1, 1]], [78, [1, 2]], [79, [1, 2]], [90, [0, 1]], [91, [0, 0]], [92, [0, 0]]];
    const r40 = await apiVersions('4.0');
    for (const [key, range] of share) expect([key, r.get(key), r40.get(key)]).toEqual([key, range, undefined]);
    // ConsumerGroupHeartbeat and ConsumerGroupDescribe: v0-1 on 4.x, as 4.0.2 and 4.4.0 serve them; 3.9's default broker leaves them out.
    for (const v of ['4.0', '4.4']) {
      const served = await apiVersions(v);
      expect([v, served.get(68), served.get(69)]).toEqual([v, [0, 1], [0, 1]]);
    }
    const r39 = await apiVersions('3.9');
    expect([r39.get(68), r39.get(69)]).toEqual([undefined, undefined]);
  });

  test('transactions v2 versions (Produce v12, EndTxn v5, TxnOffsetCommit v5) are served on 4.x, not on 3.9', () => {
    for (const v of ['4.0', '4.4']) {
      const served = new HandlerRegistry(brokerHandlers, PROFILES.get(v)!);
      expect([v, served.supports(ApiKey.Produce, 12), served.supports(ApiKey.EndTxn, 5), served.supports(ApiKey.TxnOffsetCommit, 5)]).toEqual([v, true, true, true]);
      // Topic ids (Produce v13, TxnOffsetCommit v6) are not.
      expect([served.supports(ApiKey.Produce, 13), served.supports(ApiKey.TxnOffsetCommit, 6)]).toEqual([false, false]);
    }
    const v39 = new HandlerRegistry(brokerHandlers, PROFILES.get('3.9')!);
    expect([v39.supports(ApiKey.Produce, 12), v39.supports(ApiKey.EndTxn, 5), v39.supports(ApiKey.TxnOffsetCommit, 5)]).toEqual([false, false, false]);
  });

  test('ranges-4.4.ts is what scripts/kafka-version-ranges.mjs derives from the vendored 4.4.0 schemas', () => {
    const out = spawnSync(process.execPath, ['scripts/kafka-version-ranges.mjs', 'protocol/kafka-4.4/schemas', 'broker'], { encoding: 'utf8', timeout: 30_000 });
    expect(out.status).toBe(0);
    const rows = [...out.stdout.matchAll(/\[(\d+), (\d+), (\d+)\]/g)].map((m) => [Number(m[1]), { min: Number(m[2]), max: Number(m[3]) }]);
    expect(new Map(rows as [number, { min: number; max: number }][])).toEqual(PROFILES.get('4.4')!.ranges);
  });

  test('a real 4.4.0 broker advertises ranges-4.4.ts, but for Produce from v0 as the profile advertises it', () => {
    const real = JSON.parse(readFileSync('test/fixtures/kafka-api-versions/4.4.0.json', 'utf8')).v4.apiKeys as [number, number, number][];
    const profile = PROFILES.get('4.4')!;
    const ours = [...profile.ranges].map(([key, r]) => [key, profile.advertisedMin.get(key) ?? r.min, r.max]);
    expect(real.map(([key, min, max]) => [key, min, max])).toEqual(ours);
  });

  test('the registry built for a profile is what the wire says', async () => {
    for (const v of ['2.8', '4.0', '4.4']) {
      const wire = await apiVersions(v);
      const registry = new HandlerRegistry(brokerHandlers, PROFILES.get(v)!).versions();
      expect(new Map(registry.map((a) => [a.apiKey, [a.minVersion, a.maxVersion]]))).toEqual(wire);
    }
  });
});

test('kafkajs produces and reads back through a group on the 4.4 profile', async () => {
  const kafka = kafkajs(bootstrap('4.4'));
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: 'orders', messages: [{ key: 'kafkajs-4.4', value: 'on 4.4' }] });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: 'kafkajs-4.4' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'orders', fromBeginning: true });
  const value = await new Promise<string>((resolve) => void consumer.run({ eachMessage: async ({ message }) => void (message.key?.toString() === 'kafkajs-4.4' && resolve(message.value!.toString())) }));
  await consumer.disconnect();
  expect(value).toBe('on 4.4');
});

describe('ApiVersions features per profile (v3+, KIP-584)', () => {
  const features = async (v: string, version: number) => {
    const c = await WireClient.connect(bootstrap(v));
    try {
      const res = await c.request(ApiKey.ApiVersions, version, { clientSoftwareName: 'features-test', clientSoftwareVersion: '1.0' });
      const supported = Object.fromEntries(res.supportedFeatures.map((f: any) => [f.name, `${f.minVersion}-${f.maxVersion}`]));
      const finalized = Object.fromEntries(res.finalizedFeatures.map((f: any) => [f.name, `${f.minVersionLevel}-${f.maxVersionLevel}`]));
      return { supported, finalized, epoch: res.finalizedFeaturesEpoch };
    } finally {
      c.close();
    }
  };
  /** What a real broker answered (test/fixtures/kafka-api-versions/). */
  const real = (release: string, version: number) => {
    const r = JSON.parse(readFileSync(`test/fixtures/kafka-api-versions/${release}.json`, 'utf8'))[`v${version}`];
    return {
      supported: Object.fromEntries(r.supportedFeatures.map((f: any) => [f.name, `${f.minVersion}-${f.maxVersion}`])),
      finalized: Object.fromEntries(r.finalizedFeatures.map((f: any) => [f.name, `${f.minVersionLevel}-${f.maxVersionLevel}`])),
    };
  };

  test('4.4 finalizes metadata.version 33, transaction.version 2 (KIP-890 part 2), group.version 1 (KIP-848) and share.version 2 (KIP-932, KIP-1191), never streams', async () => {
    const v4 = await features('4.4', 4);
    expect(v4.finalized).toEqual({ 'metadata.version': '33-33', 'transaction.version': '2-2', 'group.version': '1-1', 'share.version': '2-2' });
    expect(v4.epoch).toBe(0);
    expect(v4.supported).toEqual({
      'metadata.version': '7-33',
      'kraft.version': '0-0',
      'transaction.version': '0-2',
      'group.version': '0-1',
      'share.version': '0-2',
      'streams.version': '0-0',
      'eligible.leader.replicas.version': '0-0',
    });
    // v3 leaves out the features that start at 0, as the real broker does.
    expect((await features('4.4', 3)).supported).toEqual({ 'metadata.version': '7-33' });
    expect(Object.keys(real('4.4.0', 3).supported)).toEqual(['metadata.version']);
  });

  test('each KRaft profile: the real release answer, less only the levels docs/protocol.md names', async () => {
    // What kafkaesque leaves out of a real default cluster's answer (docs/protocol.md#finalized-features).
    const capped: Record<string, Record<string, string>> = {
      'kraft.version': { supported: '0-0' },
      'streams.version': { supported: '0-0' },
      'eligible.leader.replicas.version': { supported: '0-0' },
    };
    for (const [v, release] of [['3.9', '3.9.0'], ['4.0', '4.0.0'], ['4.4', '4.4.0']] as const) {
      const want = real(release, 4);
      for (const [name, cap] of Object.entries(capped)) {
        if (name in want.supported) want.supported[name] = cap.supported!;
        if (name in want.finalized) {
          if (cap.finalized) want.finalized[name] = cap.finalized;
          else delete want.finalized[name];
        }
      }
      const got = await features(v, 4);
      expect([v, got.supported, got.finalized]).toEqual([v, want.supported, want.finalized]);
    }
  });

  test('2.8 answers no features; below v3 there are none to answer', async () => {
    expect(await features('2.8', 3)).toEqual({ supported: {}, finalized: {}, epoch: -1 });
    const c = await WireClient.connect(bootstrap('4.4'));
    const res = await c.request(ApiKey.ApiVersions, 2, {});
    expect([res.supportedFeatures, res.finalizedFeatures, res.finalizedFeaturesEpoch]).toEqual([[], [], -1]);
    c.close();
  });
});

describe('versions a profile does not serve are refused as that Kafka refuses them', () => {
  const produceV = (version: number) => ({
    acks: 1,
    timeoutMs: 1000,
    ...(version >= 3 ? { transactionalId: null } : {}),
    topicData: [{ name: 'orders', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from('x') }]) }] }],
  });

  test('4.0: Produce v2 closes the connection (SocketServer#parseRequestHeader), though ApiVersions lists it; v3 is served', async () => {
    const c = await WireClient.connect(bootstrap('4.0'));
    c.send(ApiKey.Produce, 2, produceV(2));
    expect(await c.whenClosed()).toBe(true);
    const d = await WireClient.connect(bootstrap('4.0'));
    const res = await d.request(ApiKey.Produce, 3, produceV(3));
    expect(res.responses[0].partitionResponses[0].errorCode).toBe(ErrorCode.NONE);
    d.close();
  });

  test('4.0: Fetch v3 closes the connection; 3.9 serves it', async () => {
    const fetchV3 = { replicaId: -1, maxWaitMs: 0, minBytes: 0, maxBytes: 1 << 20, topics: [{ topic: 'orders', partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20 }] }] };
    const c = await WireClient.connect(bootstrap('4.0'));
    c.send(ApiKey.Fetch, 3, fetchV3);
    expect(await c.whenClosed()).toBe(true);
    const d = await WireClient.connect(bootstrap('3.9'));
    const res = await d.request(ApiKey.Fetch, 3, fetchV3);
    expect(res.responses[0].partitions[0].errorCode).toBe(ErrorCode.NONE);
    d.close();
  });

  test('2.8: Produce v10 (after 2.8) closes; ApiVersions v4 gets the v0 UNSUPPORTED_VERSION answer with 2.8 range 0-3', async () => {
    const c = await WireClient.connect(bootstrap('2.8'));
    c.send(ApiKey.Produce, 10, produceV(10));
    expect(await c.whenClosed()).toBe(true);
    const d = await WireClient.connect(bootstrap('2.8'));
    expect((await d.request(ApiKey.ApiVersions, 0, {})).errorCode).toBe(ErrorCode.NONE);
    const id = d.send(ApiKey.ApiVersions, 4, { clientSoftwareName: 'x', clientSoftwareVersion: '1' });
    const frame = (await d.nextFrame())!;
    const answer = decodeResponse(frame, ApiKey.ApiVersions, 0, id) as { errorCode: number; apiKeys: unknown[] };
    expect(answer.errorCode).toBe(ErrorCode.UNSUPPORTED_VERSION);
    expect(answer.apiKeys).toEqual([{ apiKey: ApiKey.ApiVersions, minVersion: 0, maxVersion: 3 }]);
    d.close();
  });
});

describe('an auto-created topic', () => {
  const metadataFor = async (v: string, topic: string) => {
    const c = await WireClient.connect(bootstrap(v));
    try {
      return await c.request(ApiKey.Metadata, 4, { topics: [{ name: topic }], allowAutoTopicCreation: true });
    } finally {
      c.close();
    }
  };

  test('is LEADER_NOT_AVAILABLE under ZooKeeper (2.8) and UNKNOWN_TOPIC_OR_PARTITION under KRaft (3.9, 4.0)', async () => {
    expect((await metadataFor('2.8', 'auto-a')).topics[0].errorCode).toBe(ErrorCode.LEADER_NOT_AVAILABLE);
    expect((await metadataFor('3.9', 'auto-a')).topics[0].errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    expect((await metadataFor('4.0', 'auto-a')).topics[0].errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    // Either way the topic exists at the next request.
    expect((await metadataFor('2.8', 'auto-a')).topics[0].errorCode).toBe(ErrorCode.NONE);
  });

  test('kafkajs subscribes to a topic that does not exist yet on 2.8 (it retries LEADER_NOT_AVAILABLE), and fails on 3.9', async () => {
    const subscribe = async (v: string) => {
      const consumer = kafkajs(bootstrap(v)).consumer({ groupId: `g-${v}` });
      await consumer.connect();
      try {
        await consumer.subscribe({ topic: 'not-yet' });
        return 'subscribed';
      } catch (err) {
        return (err as { type?: string }).type;
      } finally {
        await consumer.disconnect();
      }
    };
    expect(await subscribe('2.8')).toBe('subscribed');
    expect(await subscribe('3.9')).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });
});

describe('transactions without the partition added (KIP-890 verification, 3.6+ and 3.8+)', () => {
  /** A transactional producer id at epoch 0 with nothing added to its transaction. */
  const initProducer = async (c: WireClient, transactionalId: string) => {
    const res = await c.request(ApiKey.InitProducerId, 1, { transactionalId, transactionTimeoutMs: 60_000 });
    expect(res.errorCode).toBe(ErrorCode.NONE);
    return { producerId: Number(res.producerId), producerEpoch: res.producerEpoch };
  };

  test('TxnOffsetCommit without AddOffsetsToTxn: 2.8 stores it, 3.9 answers INVALID_TXN_STATE (v3)', async () => {
    const commit = async (v: string) => {
      const c = await WireClient.connect(bootstrap(v));
      try {
        const { producerId, producerEpoch } = await initProducer(c, `txn-commit-${v}`);
        const res = await c.request(ApiKey.TxnOffsetCommit, 3, {
          transactionalId: `txn-commit-${v}`,
          groupId: `txn-group-${v}`,
          producerId,
          producerEpoch,
          generationIdOrMemberEpoch: -1,
          memberId: '',
          groupInstanceId: null,
          topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, committedMetadata: '' }] }],
        });
        return res.topics[0].partitions[0].errorCode;
      } finally {
        c.close();
      }
    };
    expect(await commit('2.8')).toBe(ErrorCode.NONE);
    expect(await commit('3.9')).toBe(ErrorCode.INVALID_TXN_STATE);
  });

  test('TxnOffsetCommit member checks: a generation without a member id is ILLEGAL_GENERATION on 2.8, UNKNOWN_MEMBER_ID on 3.9', async () => {
    const commit = async (v: string) => {
      const c = await WireClient.connect(bootstrap(v));
      try {
        const transactionalId = `txn-member-${v}`;
        const groupId = `member-group-${v}`;
        const { producerId, producerEpoch } = await initProducer(c, transactionalId);
        expect((await c.request(ApiKey.AddOffsetsToTxn, 1, { transactionalId, producerId, producerEpoch, groupId })).errorCode).toBe(ErrorCode.NONE);
        const res = await c.request(ApiKey.TxnOffsetCommit, 3, {
          transactionalId,
          groupId,
          producerId,
          producerEpoch,
          generationIdOrMemberEpoch: 5,
          memberId: '',
          groupInstanceId: null,
          topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, committedMetadata: '' }] }],
        });
        return res.topics[0].partitions[0].errorCode;
      } finally {
        c.close();
      }
    };
    expect(await commit('2.8')).toBe(ErrorCode.ILLEGAL_GENERATION);
    expect(await commit('3.9')).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  test('a transactional Produce to a partition never added: 2.8 appends it, 3.9 answers INVALID_TXN_STATE (v3)', async () => {
    const send = async (v: string) => {
      const c = await WireClient.connect(bootstrap(v));
      try {
        const { producerId, producerEpoch } = await initProducer(c, `txn-produce-${v}`);
        const records = buildRecordBatch([{ value: Buffer.from('t') }], { producerId, producerEpoch, baseSequence: 0, transactional: true });
        const res = await c.request(ApiKey.Produce, 3, { transactionalId: `txn-produce-${v}`, acks: -1, timeoutMs: 1000, topicData: [{ name: 'orders', partitionData: [{ index: 0, records }] }] });
        return res.responses[0].partitionResponses[0].errorCode;
      } finally {
        c.close();
      }
    };
    expect(await send('2.8')).toBe(ErrorCode.NONE);
    expect(await send('3.9')).toBe(ErrorCode.INVALID_TXN_STATE);
  });
});

describe('OffsetCommit and OffsetFetch v0 (ZooKeeper offsets)', () => {
  const commitV0 = (groupId: string) => ({ groupId, topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, committedOffset: 7, committedMetadata: 'm' }] }] });
  const fetch = (groupId: string) => ({ groupId, topics: [{ name: 'orders', partitionIndexes: [0] }] });

  test('2.8 stores v0 commits apart from the coordinator offsets, as ZooKeeper did; 3.9 answers UNSUPPORTED_VERSION', async () => {
    const c = await WireClient.connect(bootstrap('2.8'));
    const committed = await c.request(ApiKey.OffsetCommit, 0, commitV0('zk-group'));
    expect(committed.topics[0].partitions[0].errorCode).toBe(ErrorCode.NONE);
    const v0 = await c.request(ApiKey.OffsetFetch, 0, fetch('zk-group'));
    expect(v0.topics[0].partitions[0]).toMatchObject({ committedOffset: 7, metadata: '', errorCode: ErrorCode.NONE });
    // The group coordinator (v1+) never saw it.
    const v1 = await c.request(ApiKey.OffsetFetch, 1, fetch('zk-group'));
    expect(v1.topics[0].partitions[0]).toMatchObject({ committedOffset: -1, errorCode: ErrorCode.NONE });
    c.close();
    const d = await WireClient.connect(bootstrap('3.9'));
    const refused = await d.request(ApiKey.OffsetCommit, 0, commitV0('zk-group'));
    expect(refused.topics[0].partitions[0].errorCode).toBe(ErrorCode.UNSUPPORTED_VERSION);
    d.close();
  });
});

describe('DescribeConfigs keys', () => {
  const topicConfigs = async (v: string) => {
    const admin = kafkajs(bootstrap(v)).admin();
    await admin.connect();
    try {
      const res = await admin.describeConfigs({ resources: [{ type: 2, name: 'orders' }], includeSynonyms: false });
      return new Map(res.resources[0]!.configEntries.map((e) => [e.configName, e.configValue]));
    } finally {
      await admin.disconnect();
    }
  };

  test('topic configs follow each release LogConfig', async () => {
    const [c28, c39, c40] = [await topicConfigs('2.8'), await topicConfigs('3.9'), await topicConfigs('4.0')];
    expect(c28.get('message.format.version')).toBe('2.8-IV1');
    expect(c28.has('message.timestamp.before.max.ms')).toBe(false);
    expect(c28.get('message.downconversion.enable')).toBe('true');
    expect(c39.get('message.format.version')).toBe('3.0-IV1');
    expect(c39.has('message.timestamp.before.max.ms')).toBe(true);
    expect(c40.has('message.format.version')).toBe(false);
    expect(c40.has('message.downconversion.enable')).toBe(false);
    expect(c40.has('message.timestamp.difference.max.ms')).toBe(false);
    expect(c40.get('retention.ms')).toBe('604800000');
    // The compression levels (KIP-390, 3.8) as a real 3.9.1 and 4.0.2 list them; 4.0 lowers message.timestamp.after.max.ms to one hour (KIP-1030).
    expect([c28.has('compression.zstd.level'), c39.get('compression.zstd.level'), c40.get('compression.zstd.level')]).toEqual([false, '3', '3']);
    expect([c39.get('message.timestamp.after.max.ms'), c40.get('message.timestamp.after.max.ms')]).toEqual(['9223372036854775807', '3600000']);
  });

  test('a topic config a release does not have is refused at CreateTopics (INVALID_CONFIG)', async () => {
    const create = async (v: string, configs: Record<string, string>) => {
      const c = await WireClient.connect(bootstrap(v));
      try {
        const res = await c.request(ApiKey.CreateTopics, 4, { topics: [{ name: `cfg-${Object.keys(configs)[0]}`, numPartitions: 1, replicationFactor: 1, assignments: [], configs: Object.entries(configs).map(([name, value]) => ({ name, value })) }], timeoutMs: 1000, validateOnly: true });
        return res.topics[0].errorCode;
      } finally {
        c.close();
      }
    };
    expect(await create('4.0', { 'message.downconversion.enable': 'false' })).toBe(ErrorCode.INVALID_CONFIG);
    expect(await create('3.9', { 'message.downconversion.enable': 'false' })).toBe(ErrorCode.NONE);
    expect(await create('2.8', { 'message.timestamp.before.max.ms': '1000' })).toBe(ErrorCode.INVALID_CONFIG);
    expect(await create('2.8', { 'compression.gzip.level': '5' })).toBe(ErrorCode.INVALID_CONFIG);
    expect(await create('3.9', { 'compression.gzip.level': '5' })).toBe(ErrorCode.NONE);
    expect(await create('4.0', { 'compression.lz4.level': '18' })).toBe(ErrorCode.INVALID_CONFIG);
    // 4.4.0's new topic configs exist on 4.4 only, with LogConfig's bounds.
    for (const name of ['errors.deadletterqueue.group.enable', 'max.decompressed.message.bytes', 'remote.copy.lag.bytes', 'remote.copy.lag.ms']) {
      const value = name.endsWith('enable') ? 'true' : '1000';
      expect([name, await create('4.4', { [name]: value }), await create('4.0', { [name]: value })]).toEqual([name, ErrorCode.NONE, ErrorCode.INVALID_CONFIG]);
    }
    expect(await create('4.4', { 'max.decompressed.message.bytes': '0' })).toBe(ErrorCode.INVALID_CONFIG);
    expect(await create('4.4', { 'max.decompressed.message.bytes': '2147483640' })).toBe(ErrorCode.INVALID_CONFIG);
    expect(await create('4.4', { 'remote.copy.lag.ms': '-1' })).toBe(ErrorCode.NONE);
    expect(await create('4.4', { 'remote.copy.lag.bytes': '-2' })).toBe(ErrorCode.INVALID_CONFIG);
  });

  test("4.4's topic configs are 4.0's and the four 4.4 adds, with 4.4.0's defaults", async () => {
    const c44 = await topicConfigs('4.4');
    const added = ['errors.deadletterqueue.group.enable', 'max.decompressed.message.bytes', 'remote.copy.lag.bytes', 'remote.copy.lag.ms'];
    expect([...c44.keys()].sort()).toEqual([...(await topicConfigs('4.0')).keys(), ...added].sort());
    expect(added.map((name) => c44.get(name))).toEqual(['false', '2147483639', '-1', '0']);
  });

  test('broker configs: 2.8 (ZooKeeper) has no process.roles nor node.id', async () => {
    const brokerConfigs = async (v: string) => {
      const admin = kafkajs(bootstrap(v)).admin();
      await admin.connect();
      try {
        const res = await admin.describeConfigs({ resources: [{ type: 4, name: '0' }], includeSynonyms: false });
        return res.resources[0]!.configEntries.map((e) => e.configName);
      } finally {
        await admin.disconnect();
      }
    };
    expect(await brokerConfigs('2.8')).not.toContain('process.roles');
    expect(await brokerConfigs('3.9')).toEqual(expect.arrayContaining(['process.roles', 'node.id', 'broker.id']));
  });
});

describe('the option', () => {
  test('takes a patch release as its minor profile, and refuses a version without a profile by name', async () => {
    expect(resolveOptions({ kafkaVersion: '3.9.1' }).kafkaVersion).toBe('3.9.1');
    const k = clusters.get('2.8')!;
    expect(k.cluster.profile.name).toBe('2.8');
    expect(() => resolveOptions({ kafkaVersion: '2.7' })).toThrow(/kafkaVersion: must be one of 2\.8, 3\.9, 4\.0, 4\.4 /);
    expect(resolveOptions({ kafkaVersion: '4.4.0' }).kafkaVersion).toBe('4.4.0');
    expect(clusters.get('4.4')!.cluster.profile.release).toBe('4.4.0');
    expect(() => resolveOptions({ kafkaVersion: 39 as unknown as string })).toThrow(/kafkaVersion: must be a Kafka version string/);
  });

  test('the test-runner fixture starts a 4.4 cluster from its options', async () => {
    const [fixture] = await startFixtureClusters({ port: 0, controlPort: 0, brokers: 1, kafkaVersion: '4.4' }, 1);
    try {
      expect((fixture as RunningCluster).cluster.profile.name).toBe('4.4');
      const c = await WireClient.connect(fixture!.bootstrap);
      const res = await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'fixture-test', clientSoftwareVersion: '1.0' });
      expect(res.finalizedFeatures.map((f: { name: string }) => f.name)).toEqual(['group.version', 'transaction.version', 'share.version', 'metadata.version']);
      c.close();
    } finally {
      await fixture!.stop();
    }
  });

  test('the control API says which profile runs', async () => {
    const res = await fetch(`${clusters.get('4.0')!.controlUrl}/v1/cluster`);
    expect((await res.json()).kafkaVersion).toBe('4.0');
  });
});
