// GROUP config resources (type 32) over the wire: IncrementalAlterConfigs,
// AlterConfigs and DescribeConfigs as Kafka 4.4 answers them (GroupConfig,
// ControllerConfigurationValidator, ConfigHelper#createGroupConfigEntry),
// 4.0.2's smaller GroupConfig, 3.9's refusal, the GROUP ACLs, and a
// consumer group's override answered by ConsumerGroupHeartbeat.
import { ManualClock, startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

const GROUP = 32;
const SET = 0;
const DELETE = 1;
const APPEND = 2;
const SOURCE = { STATIC_BROKER_CONFIG: 4, DEFAULT_CONFIG: 5, GROUP_CONFIG: 8 };

const clusters: RunningCluster[] = [];
const clients: WireClient[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const k of clusters) await k.stop();
});

async function start(kafkaVersion: string, more: Record<string, unknown> = {}) {
  const clock = new ManualClock();
  const kafka = await startCluster({ brokers: 1, clock, kafkaVersion, topics: [{ name: 't', partitions: 2 }], ...more });
  clusters.push(kafka);
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  clients.push(c);
  return { kafka, clock, c };
}

type Op = [name: string, op: number, value: string | null];

const alter = async (c: WireClient, group: string, ops: Op[], validateOnly = false) =>
  (await c.request(ApiKey.IncrementalAlterConfigs, 1, {
    resources: [{ resourceType: GROUP, resourceName: group, configs: ops.map(([name, configOperation, value]) => ({ name, configOperation, value })) }],
    validateOnly,
  })).responses[0];

const describeGroup = async (c: WireClient, group: string, keys: string[] | null = null, includeSynonyms = true, includeDocumentation = false) =>
  (await c.request(ApiKey.DescribeConfigs, 4, { resources: [{ resourceType: GROUP, resourceName: group, configurationKeys: keys }], includeSynonyms, includeDocumentation })).results[0];

/** name → value of a describe result's configs. */
const values = (r: { configs: { name: string; value: string }[] }) => Object.fromEntries(r.configs.map((e) => [e.name, e.value]));

describe('Kafka 4.4', () => {
  let c: WireClient;
  let kafka: RunningCluster;
  let clock: ManualClock;
  beforeAll(async () => ({ c, kafka, clock } = await start('4.4')));

  test('a group nobody configured: every non-internal GroupConfig key (no streams.*), at the broker synonym or the default', async () => {
    const r = await describeGroup(c, 'never-seen');
    expect(r).toMatchObject({ errorCode: 0, errorMessage: null, resourceType: GROUP, resourceName: 'never-seen' });
    expect(values(r)).toEqual({
      'consumer.session.timeout.ms': '45000',
      'consumer.heartbeat.interval.ms': '5000',
      'consumer.assignment.interval.ms': '1000',
      'share.session.timeout.ms': '45000',
      'share.heartbeat.interval.ms': '5000',
      'share.record.lock.duration.ms': '30000',
      'share.delivery.count.limit': '5',
      'share.partition.max.record.locks': '2000',
      'share.auto.offset.reset': 'latest',
      'share.isolation.level': 'read_uncommitted',
      'share.renew.acknowledge.enable': 'true',
      'share.assignment.interval.ms': '1000',
      'errors.deadletterqueue.topic.name': '',
      'errors.deadletterqueue.copy.record.enable': 'false',
    });
    const hb = r.configs.find((e: { name: string }) => e.name === 'consumer.heartbeat.interval.ms');
    expect(hb).toMatchObject({ readOnly: false, configSource: SOURCE.DEFAULT_CONFIG, isSensitive: false, configType: 3, documentation: null });
    expect(hb.synonyms).toEqual([{ name: 'group.consumer.heartbeat.interval.ms', value: '5000', source: SOURCE.DEFAULT_CONFIG }]);
    // No broker synonym: GroupConfig's own default.
    const iso = r.configs.find((e: { name: string }) => e.name === 'share.isolation.level');
    expect(iso).toMatchObject({ configSource: SOURCE.DEFAULT_CONFIG, configType: 2 });
    expect(iso.synonyms).toEqual([{ name: 'share.isolation.level', value: 'read_uncommitted', source: SOURCE.DEFAULT_CONFIG }]);
  });

  test('SET then describe: the group value with source GROUP_CONFIG, the broker synonym after it; named keys only; documentation when asked', async () => {
    expect(await alter(c, 'g-set', [['consumer.heartbeat.interval.ms', SET, '6000'], ['share.isolation.level', SET, 'read_committed'], ['share.renew.acknowledge.enable', SET, 'FALSE']])).toMatchObject({ errorCode: 0, errorMessage: null });
    const r = await describeGroup(c, 'g-set', ['consumer.heartbeat.interval.ms', 'share.isolation.level', 'share.renew.acknowledge.enable'], true, true);
    expect(r.configs.map((e: { name: string }) => e.name)).toEqual(['consumer.heartbeat.interval.ms', 'share.isolation.level', 'share.renew.acknowledge.enable']);
    const [hb, iso, renew] = r.configs;
    expect(hb).toMatchObject({ value: '6000', configSource: SOURCE.GROUP_CONFIG, documentation: 'The heartbeat interval given to the members of a consumer group.' });
    expect(hb.synonyms).toEqual([
      { name: 'consumer.heartbeat.interval.ms', value: '6000', source: SOURCE.GROUP_CONFIG },
      { name: 'group.consumer.heartbeat.interval.ms', value: '5000', source: SOURCE.DEFAULT_CONFIG },
    ]);
    expect(iso.synonyms).toEqual([
      { name: 'share.isolation.level', value: 'read_committed', source: SOURCE.GROUP_CONFIG },
      { name: 'share.isolation.level', value: 'read_uncommitted', source: SOURCE.DEFAULT_CONFIG },
    ]);
    // ConfigDef.convertToString of the parsed boolean.
    expect(renew).toMatchObject({ value: 'false', configSource: SOURCE.GROUP_CONFIG, configType: 1 });
    // Without IncludeSynonyms: none, the source stays.
    const bare = await describeGroup(c, 'g-set', ['consumer.heartbeat.interval.ms'], false);
    expect(bare.configs).toEqual([expect.objectContaining({ value: '6000', configSource: SOURCE.GROUP_CONFIG, synonyms: [] })]);
    // The share-group view reads the same store.
    expect(kafka.cluster.groupConfigs.share('g-set')).toMatchObject({ isolationLevel: 1, renewAcknowledgeEnable: false });
  });

  test("a broker value changed in-process (the coordinator's config) is the STATIC_BROKER_CONFIG synonym and the fallback", async () => {
    const config = kafka.cluster.groups.consumerGroups.config;
    config['group.consumer.heartbeat.interval.ms'] = 6000;
    try {
      const [hb] = (await describeGroup(c, 'g-static', ['consumer.heartbeat.interval.ms'])).configs;
      expect(hb).toMatchObject({ value: '6000', configSource: SOURCE.STATIC_BROKER_CONFIG });
      expect(hb.synonyms).toEqual([
        { name: 'group.consumer.heartbeat.interval.ms', value: '6000', source: SOURCE.STATIC_BROKER_CONFIG },
        { name: 'group.consumer.heartbeat.interval.ms', value: '5000', source: SOURCE.DEFAULT_CONFIG },
      ]);
    } finally {
      config['group.consumer.heartbeat.interval.ms'] = 5000;
    }
  });

  test('an internal key is described only where the group set it', async () => {
    expect((await describeGroup(c, 'g-internal')).configs.some((e: { name: string }) => e.name === 'consumer.assignor.offload.enable')).toBe(false);
    expect(await alter(c, 'g-internal', [['consumer.assignor.offload.enable', SET, 'false']])).toMatchObject({ errorCode: 0 });
    expect(values(await describeGroup(c, 'g-internal'))['consumer.assignor.offload.enable']).toBe('false');
  });

  test.each([
    [[['no.such.key', SET, '1']], 'Unknown group config name: no.such.key'],
    [[['streams.session.timeout.ms', SET, '50000']], 'Unknown group config name: streams.session.timeout.ms'],
    [[['share.session.timeout.ms', SET, '0']], 'Invalid value 0 for configuration share.session.timeout.ms: Value must be at least 1'],
    [[['share.session.timeout.ms', SET, 'abc']], 'Invalid value abc for configuration share.session.timeout.ms: Not a number of type INT'],
    [[['share.renew.acknowledge.enable', SET, 'yes']], 'Invalid value yes for configuration share.renew.acknowledge.enable: Expected value to be either true or false'],
    [[['share.isolation.level', SET, 'READ_COMMITTED']], 'Invalid value READ_COMMITTED for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted'],
    [[['share.isolation.level', SET, 'foo']], 'Invalid value foo for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted'],
    [[['share.auto.offset.reset', SET, 'foo']], "Invalid value foo for configuration share.auto.offset.reset: Invalid value `foo` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."],
    [[['share.auto.offset.reset', SET, 'by_duration:-PT1H']], "Invalid value by_duration:-PT1H for configuration share.auto.offset.reset: Invalid value `by_duration:-PT1H` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."],
    [[['share.record.lock.duration.ms', SET, '999']], 'Invalid value 999 for configuration share.record.lock.duration.ms: Value must be at least 1000'],
    [[['consumer.session.timeout.ms', SET, '30000']], 'consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.'],
    [[['consumer.heartbeat.interval.ms', SET, '16000']], 'consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.'],
    [[['consumer.assignment.interval.ms', SET, '15001']], 'consumer.assignment.interval.ms must be in the range 0 to 15000 inclusive.'],
    [[['share.session.timeout.ms', SET, '60001']], 'share.session.timeout.ms must be in the range 45000 to 60000 inclusive.'],
    [[['share.heartbeat.interval.ms', SET, '4999']], 'share.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.'],
    [[['share.record.lock.duration.ms', SET, '14999']], 'share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive.'],
    [[['share.delivery.count.limit', SET, '11']], 'share.delivery.count.limit must be in the range 2 to 10 inclusive.'],
    [[['share.partition.max.record.locks', SET, '4001']], 'share.partition.max.record.locks must be in the range 100 to 4000 inclusive.'],
    [[['share.assignment.interval.ms', SET, '15001']], 'share.assignment.interval.ms must be in the range 0 to 15000 inclusive.'],
    // validateValues' order: consumer.* bounds before share.* ones, parse errors before any bound.
    [[['share.delivery.count.limit', SET, '11'], ['consumer.heartbeat.interval.ms', SET, '16000']], 'consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.'],
    [[['consumer.heartbeat.interval.ms', SET, '16000'], ['share.session.timeout.ms', SET, 'x']], 'Invalid value x for configuration share.session.timeout.ms: Not a number of type INT'],
    [[['errors.deadletterqueue.topic.name', SET, '__dlq']], "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'"],
    [[['share.auto.offset.reset', APPEND, 'earliest']], "Can't APPEND to key share.auto.offset.reset because its type is not LIST."],
    // Several unknown keys: the first in Java's HashMap order is named (as a real 4.4.0 answered).
    [[['zz.a', SET, '1'], ['aa.b', SET, '1'], ['consumer.x', SET, '1'], ['m', SET, '1'], ['share.x.y', SET, '1'], ['errors.q', SET, '1']], 'Unknown group config name: share.x.y'],
  ] as [Op[], string][])('%j → INVALID_CONFIG %s, nothing applied', async (ops, message) => {
    const group = `g-bad-${message.length}-${ops.length}`;
    // A valid key beside the bad one is not applied either (unless the bad one is that key).
    const withValid: Op[] = [...ops, ['share.delivery.count.limit', SET, '3'] as Op].filter(([n], i, a) => a.findIndex(([m]) => m === n) === i);
    expect(await alter(c, group, withValid)).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG, errorMessage: message });
    expect(kafka.cluster.groupConfigs.entries(group).size).toBe(0);
  });

  test('the whole config after the change is validated: a stored key stays, a bad key fails every change of the request', async () => {
    // (Session above heartbeat cannot fail at the broker's default bounds: sessions 45000-60000, heartbeats 5000-15000.)
    expect(await alter(c, 'g-cross', [['share.heartbeat.interval.ms', SET, '15000']])).toMatchObject({ errorCode: 0 });
    expect(await alter(c, 'g-cross', [['share.session.timeout.ms', SET, '50000'], ['share.delivery.count.limit', SET, '1']])).toMatchObject({
      errorCode: ErrorCode.INVALID_CONFIG,
      errorMessage: 'Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2',
    });
    expect(Object.fromEntries(kafka.cluster.groupConfigs.entries('g-cross'))).toEqual({ 'share.heartbeat.interval.ms': '15000' });
  });

  test('validateOnly validates and stores nothing', async () => {
    expect(await alter(c, 'g-vo', [['share.delivery.count.limit', SET, '7']], true)).toMatchObject({ errorCode: 0, errorMessage: null });
    expect(kafka.cluster.groupConfigs.entries('g-vo').size).toBe(0);
    expect(await alter(c, 'g-vo', [['share.delivery.count.limit', SET, '70']], true)).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG, errorMessage: 'share.delivery.count.limit must be in the range 2 to 10 inclusive.' });
  });

  test('DELETE drops the override (an unknown or unset key too): the describe is back to DEFAULT_CONFIG', async () => {
    await alter(c, 'g-del', [['share.delivery.count.limit', SET, '7'], ['share.auto.offset.reset', SET, 'by_duration:PT1H']]);
    expect(values(await describeGroup(c, 'g-del', ['share.delivery.count.limit']))).toEqual({ 'share.delivery.count.limit': '7' });
    expect(await alter(c, 'g-del', [['share.delivery.count.limit', DELETE, null], ['never.a.key', DELETE, null]])).toMatchObject({ errorCode: 0 });
    const [limit] = (await describeGroup(c, 'g-del', ['share.delivery.count.limit'])).configs;
    expect(limit).toMatchObject({ value: '5', configSource: SOURCE.DEFAULT_CONFIG });
    expect(Object.fromEntries(kafka.cluster.groupConfigs.entries('g-del'))).toEqual({ 'share.auto.offset.reset': 'by_duration:PT1H' });
  });

  test('the broker preprocess: null values and duplicate keys are INVALID_REQUEST; the default group "" is refused', async () => {
    expect(await alter(c, 'g-null', [['share.delivery.count.limit', SET, null], ['share.isolation.level', SET, null]])).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Null value not supported for : share.delivery.count.limit, share.isolation.level' });
    expect(await alter(c, 'g-dup', [['share.delivery.count.limit', SET, '3'], ['share.delivery.count.limit', SET, '4']])).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Error due to duplicate config keys' });
    expect(await alter(c, '', [['share.delivery.count.limit', SET, '3']])).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Default group resources are not allowed.' });
    expect(await describeGroup(c, '')).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Group name must not be empty', configs: [] });
  });

  test('AlterConfigs (legacy) replaces the whole group config', async () => {
    await alter(c, 'g-legacy', [['share.delivery.count.limit', SET, '7']]);
    const res = await c.request(ApiKey.AlterConfigs, 2, { resources: [{ resourceType: GROUP, resourceName: 'g-legacy', configs: [{ name: 'share.isolation.level', value: 'read_committed' }] }], validateOnly: false });
    expect(res.responses[0]).toMatchObject({ errorCode: 0, errorMessage: null });
    expect(Object.fromEntries(kafka.cluster.groupConfigs.entries('g-legacy'))).toEqual({ 'share.isolation.level': 'read_committed' });
    const bad = await c.request(ApiKey.AlterConfigs, 2, { resources: [{ resourceType: GROUP, resourceName: 'g-legacy', configs: [{ name: 'share.delivery.count.limit', value: '1' }] }], validateOnly: false });
    expect(bad.responses[0]).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG, errorMessage: 'Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2' });
  });

  test("a consumer group's consumer.heartbeat.interval.ms and consumer.session.timeout.ms apply at the next heartbeat", async () => {
    await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['cg'] });
    const join = (memberEpoch = 0, memberId = '') =>
      c.request(ApiKey.ConsumerGroupHeartbeat, 0, {
        groupId: 'cg', memberId, memberEpoch, instanceId: null, rackId: null,
        rebalanceTimeoutMs: memberEpoch === 0 ? 30_000 : -1, subscribedTopicNames: memberEpoch === 0 ? ['t'] : null,
        subscribedTopicRegex: null, serverAssignor: null, topicPartitions: memberEpoch === 0 ? [] : null,
      });
    const first = await join();
    expect(first).toMatchObject({ errorCode: 0, heartbeatIntervalMs: 5000 });
    expect(await alter(c, 'cg', [['consumer.heartbeat.interval.ms', SET, '7000'], ['consumer.session.timeout.ms', SET, '55000']])).toMatchObject({ errorCode: 0 });
    const next = await join(first.memberEpoch, first.memberId);
    expect(next).toMatchObject({ errorCode: 0, heartbeatIntervalMs: 7000 });
    // The library's describe shows the session the member runs with.
    expect(kafka.cluster.groups.describe('cg')!.members[0]!.sessionTimeoutMs).toBe(55_000);
    // The session armed by that heartbeat is the group's 55 s, not the broker's 45 s.
    clock.advance(50_000);
    const alive = await join(first.memberEpoch, first.memberId);
    expect(alive).toMatchObject({ errorCode: 0, heartbeatIntervalMs: 7000 });
    clock.advance(55_000);
    const gone = await join(first.memberEpoch, first.memberId);
    expect(gone).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID });
    // DELETE: the broker's value again.
    await alter(c, 'cg', [['consumer.heartbeat.interval.ms', DELETE, null]]);
    expect(await join()).toMatchObject({ errorCode: 0, heartbeatIntervalMs: 5000 });
  });
});

describe('Kafka 4.4 with an authorizer', () => {
  let c: WireClient;
  beforeAll(async () => {
    ({ c } = await start('4.4', {
      authorizer: {
        allowEveryoneIfNoAclFound: false,
        acls: [
          { resourceType: 'GROUP', resourceName: 'open', principal: 'User:ANONYMOUS', operation: 'DESCRIBE_CONFIGS' },
          { resourceType: 'GROUP', resourceName: 'open', principal: 'User:ANONYMOUS', operation: 'ALTER_CONFIGS' },
          { resourceType: 'GROUP', resourceName: 'read-only', principal: 'User:ANONYMOUS', operation: 'DESCRIBE_CONFIGS' },
        ],
      },
    }));
  });

  test('ALTER_CONFIGS / DESCRIBE_CONFIGS on the GROUP; refused describes come after the answers, with the error message', async () => {
    expect(await alter(c, 'open', [['share.delivery.count.limit', SET, '3']])).toMatchObject({ errorCode: 0 });
    expect(await alter(c, 'read-only', [['share.delivery.count.limit', SET, '3']])).toMatchObject({ errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, errorMessage: null });
    const res = await c.request(ApiKey.DescribeConfigs, 4, {
      resources: ['closed', 'open'].map((resourceName) => ({ resourceType: GROUP, resourceName, configurationKeys: ['share.delivery.count.limit'] })),
      includeSynonyms: false,
      includeDocumentation: false,
    });
    expect(res.results).toEqual([
      expect.objectContaining({ resourceName: 'open', errorCode: 0, configs: [expect.objectContaining({ value: '3' })] }),
      { resourceType: GROUP, resourceName: 'closed', errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, errorMessage: 'Group authorization failed.', configs: [] },
    ]);
  });
});

describe('Kafka 4.0', () => {
  let c: WireClient;
  beforeAll(async () => ({ c } = await start('4.0')));

  test("4.0.2's GroupConfig: six keys, the group key its own only synonym", async () => {
    const r = await describeGroup(c, 'g40');
    expect(values(r)).toEqual({
      'consumer.session.timeout.ms': '45000',
      'consumer.heartbeat.interval.ms': '5000',
      'share.session.timeout.ms': '45000',
      'share.heartbeat.interval.ms': '5000',
      'share.record.lock.duration.ms': '30000',
      'share.auto.offset.reset': 'latest',
    });
    expect(r.configs[0].synonyms).toEqual([{ name: 'consumer.session.timeout.ms', value: '45000', source: SOURCE.DEFAULT_CONFIG }]);
    expect(await alter(c, 'g40', [['consumer.session.timeout.ms', SET, '50000']])).toMatchObject({ errorCode: 0 });
    expect((await describeGroup(c, 'g40', ['consumer.session.timeout.ms'])).configs[0]).toMatchObject({
      value: '50000',
      configSource: SOURCE.GROUP_CONFIG,
      synonyms: [{ name: 'consumer.session.timeout.ms', value: '50000', source: SOURCE.GROUP_CONFIG }],
    });
  });

  test.each([
    ['share.delivery.count.limit', '3', 'Unknown group config name: share.delivery.count.limit'],
    ['consumer.heartbeat.interval.ms', '4000', 'consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms'],
    ['share.session.timeout.ms', '70000', 'share.session.timeout.ms must be less than or equal to group.share.max.session.timeout.ms'],
    ['share.auto.offset.reset', 'foo', "Invalid value foo for configuration share.auto.offset.reset: Invalid value `foo` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS.>'."],
  ])('%s=%s → INVALID_CONFIG %s', async (name, value, message) => {
    expect(await alter(c, 'g40-bad', [[name, SET, value]])).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG, errorMessage: message });
  });

  test('of two keys 4.0.2 does not know, the first in HashMap order is named (as a real 4.0.2 answered)', async () => {
    const ops: Op[] = [['consumer.heartbeat.interval.ms', SET, '6000'], ['share.isolation.level', SET, 'read_committed'], ['share.renew.acknowledge.enable', SET, 'false']];
    expect(await alter(c, 'g40-bad', ops)).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG, errorMessage: 'Unknown group config name: share.renew.acknowledge.enable' });
  });
});

describe('Kafka 3.9 knows no GROUP resource', () => {
  let c: WireClient;
  beforeAll(async () => ({ c } = await start('3.9')));

  test('DescribeConfigs fails whole: every resource INVALID_REQUEST with the error default message', async () => {
    const res = await c.request(ApiKey.DescribeConfigs, 4, {
      resources: [{ resourceType: 2, resourceName: 't', configurationKeys: null }, { resourceType: GROUP, resourceName: 'g', configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    });
    expect(res.results.map((r: { errorCode: number; errorMessage: string; configs: unknown[] }) => [r.errorCode, r.errorMessage, r.configs.length])).toEqual([
      [ErrorCode.INVALID_REQUEST, expect.stringMatching(/^This most likely occurs because of a request being malformed/), 0],
      [ErrorCode.INVALID_REQUEST, expect.stringMatching(/^This most likely occurs because of a request being malformed/), 0],
    ]);
  });

  test('IncrementalAlterConfigs and AlterConfigs: INVALID_REQUEST "Unknown resource type 32" for that resource', async () => {
    expect(await alter(c, 'g', [['consumer.session.timeout.ms', SET, '50000']])).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Unknown resource type 32' });
    const res = await c.request(ApiKey.AlterConfigs, 2, { resources: [{ resourceType: GROUP, resourceName: 'g', configs: [{ name: 'consumer.session.timeout.ms', value: '50000' }] }], validateOnly: false });
    expect(res.responses[0]).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Unknown resource type 32' });
  });
});
