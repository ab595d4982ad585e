// KIP-932 from librdkafka: confluent-kafka 2.16's ShareConsumer
// (test/clients/rdkafka_share.py) against a 3-broker 4.4 cluster, so the
// member keeps a share session on each broker that leads one of its
// partitions. Every record is read once; a poison record RELEASEd comes back
// until the delivery count limit (5); REJECTed, once. librdkafka logs every
// error answer it gets: the share sessions answer none.
import { existsSync } from 'node:fs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';
import { runDriver } from '../support/driver-summary.js';

const python = 'test/clients/.venv/bin/python';
const installed = existsSync(python);
if (!installed && process.env.CI) throw new Error(`${python} is missing: run scripts/install-test-clients.sh`);
const it = installed ? test : test.skip;

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, kafkaVersion: '4.4' });
});
afterAll(() => kafka.stop());

interface Summary {
  ok: boolean;
  deliveries: [number, number, string, number][];
  errors: string[];
}

function member(args: string[]): Promise<{ summary: Summary; stderr: string }> {
  return runDriver<Summary>(python, ['test/clients/rdkafka_share.py', kafka.bootstrap, ...args], { timeoutMs: 70_000, what: 'the share member' });
}

async function topicWith(topic: string, values: string[], partitions: number): Promise<void> {
  const admin = kafkajs(kafka.bootstrap).admin();
  const producer = kafkajs(kafka.bootstrap).producer();
  await admin.connect();
  await producer.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 3 }], waitForLeaders: true });
    await producer.send({ topic, messages: values.map((value, i) => ({ value, partition: i % partitions })) });
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

const countsOf = (s: Summary, value: string) => s.deliveries.filter((d) => d[2] === value).map((d) => d[3]);

it('reads every record of a topic led by three brokers exactly once, with no error answer', async () => {
  const values = Array.from({ length: 30 }, (_, i) => `rk-${i}`);
  await topicWith('rk-share', values, 3);
  kafka.cluster.groupConfigs.set('rk-share-app', 'share.auto.offset.reset', 'earliest');
  const { summary, stderr } = await member(['rk-share', 'rk-share-app', '30']);
  expect(summary.errors).toEqual([]);
  expect(summary.deliveries.map((d) => d[2]).sort()).toEqual([...values].sort());
  expect(stderr).not.toMatch(/reply error/);
}, 90_000);

it('a poison record RELEASEd comes back 5 times, then is archived; REJECTed, it comes once', async () => {
  await topicWith('rk-poison', ['ok-a', 'poison', 'ok-b'], 1);
  for (const g of ['rk-release-app', 'rk-reject-app']) kafka.cluster.groupConfigs.set(g, 'share.auto.offset.reset', 'earliest');
  const release = await member(['rk-poison', 'rk-release-app', '3', 'explicit', 'poison', 'release']);
  expect(countsOf(release.summary, 'poison')).toEqual([1, 2, 3, 4, 5]);
  const reject = await member(['rk-poison', 'rk-reject-app', '3', 'explicit', 'poison', 'reject']);
  expect(countsOf(reject.summary, 'poison')).toEqual([1]);
}, 120_000);
