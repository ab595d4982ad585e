import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
  c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const create = (topics: object[], validateOnly = false) => c.request(ApiKey.CreateTopics, 5, { topics, timeoutMs: 1000, validateOnly });

// Found by the fuzzer: a CreateTopics with a numPartitions of 2^31-256 ran the process out of memory.
test('regression: more than 10,000 partitions in one request is POLICY_VIOLATION for every topic, as in KRaft', async () => {
  const res = await create([
    { name: 'huge', numPartitions: 0x7fffff00, replicationFactor: 1 },
    { name: 'small', numPartitions: 1, replicationFactor: 1 },
  ]);
  expect(res.topics.map((t: any) => t.errorCode)).toEqual([ErrorCode.POLICY_VIOLATION, ErrorCode.POLICY_VIOLATION]);
  expect(res.topics[0].errorMessage).toBe('Excessively large number of partitions per request.');
  expect(kafka.cluster.topic('small')).toBeUndefined();
});

test('duplicate names, validate_only, configs and topic ids in the answer', async () => {
  // ControllerApis#createTopics: a name given twice is answered once, after the controller's results (as a real 4.0 broker answers).
  const dup = await create([{ name: 'd', numPartitions: 1, replicationFactor: 1 }, { name: 'd-other', numPartitions: 1, replicationFactor: 1 }, { name: 'd', numPartitions: 1, replicationFactor: 1 }]);
  expect(dup.topics.map((t: any) => [t.name, t.errorCode, t.errorMessage])).toEqual([['d-other', 0, null], ['d', ErrorCode.INVALID_REQUEST, 'Duplicate topic name.']]);

  const dry = await c.request(ApiKey.CreateTopics, 7, { topics: [{ name: 'dry', numPartitions: 2, replicationFactor: 3 }], timeoutMs: 1000, validateOnly: true });
  expect(dry.topics[0]).toMatchObject({ errorCode: 0, numPartitions: 2, replicationFactor: 3 });
  // The controller draws a topic id before it looks at validateOnly, and answers it.
  expect(dry.topics[0].topicId).not.toBe('00000000-0000-0000-0000-000000000000');
  expect(kafka.cluster.topic('dry')).toBeUndefined();

  const real = await c.request(ApiKey.CreateTopics, 7, { topics: [{ name: 'real', numPartitions: -1, replicationFactor: -1, configs: [{ name: 'retention.ms', value: '5' }] }], timeoutMs: 1000 });
  const t = real.topics[0];
  expect(t).toMatchObject({ errorCode: 0, numPartitions: 1, replicationFactor: 3, topicId: kafka.cluster.topic('real')!.topicId });
  expect(t.configs.find((x: any) => x.name === 'retention.ms')).toMatchObject({ value: '5', configSource: 1 });

  const again = await create([{ name: 'real', numPartitions: 1, replicationFactor: 1 }]);
  expect(again.topics[0].errorCode).toBe(ErrorCode.TOPIC_ALREADY_EXISTS);
});

test('metadata auto-creates a missing topic and reports UNKNOWN_TOPIC_OR_PARTITION for it this once, as KRaft does', async () => {
  const first = await c.request(ApiKey.Metadata, 9, { topics: [{ name: 'auto-1' }], allowAutoTopicCreation: true });
  expect(first.topics[0].errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  const second = await c.request(ApiKey.Metadata, 9, { topics: [{ name: 'auto-1' }], allowAutoTopicCreation: true });
  expect(second.topics[0]).toMatchObject({ errorCode: 0, name: 'auto-1' });
  const notAllowed = await c.request(ApiKey.Metadata, 9, { topics: [{ name: 'auto-2' }], allowAutoTopicCreation: false });
  expect(notAllowed.topics[0].errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  expect(kafka.cluster.topic('auto-2')).toBeUndefined();
  const invalid = await c.request(ApiKey.Metadata, 9, { topics: [{ name: 'bad name' }], allowAutoTopicCreation: true });
  expect(invalid.topics[0].errorCode).toBe(ErrorCode.INVALID_TOPIC_EXCEPTION);
});
