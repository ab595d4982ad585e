// A KIP-848 regex subscription from a real client: librdkafka (the venv's
// confluent-kafka 2.x) subscribes to "^orders-.*" with group.protocol=consumer
// on the 4.4 profile, so it sends ConsumerGroupHeartbeat v1 with
// SubscribedTopicRegex. The coordinator resolves the regex to the matching
// topics (not "audit"), assigns their partitions, and the member reads every
// record of them. Its leaving (the last member of the regex) drops the resolution.
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
  kafka = await startCluster({
    brokers: 1,
    kafkaVersion: '4.4',
    topics: [
      { name: 'orders-eu', partitions: 2 },
      { name: 'orders-us', partitions: 1 },
      { name: 'audit', partitions: 1 },
    ],
  });
});
afterAll(() => kafka.stop());

async function subscriber(group: string, pattern: string, count: number): Promise<{ ok: boolean; messages: string[]; errors: string[] }> {
  const { summary } = await runDriver<{ ok: boolean; messages: string[]; errors: string[] }>(python, ['test/clients/rdkafka_regex.py', kafka.bootstrap, group, pattern, String(count)], { timeoutMs: 60_000, what: 'the subscriber' });
  return summary;
}

it('librdkafka subscribed to ^orders-.* reads the orders topics and nothing of the others', async () => {
  const producer = kafkajs(kafka.bootstrap).producer();
  await producer.connect();
  try {
    await producer.send({ topic: 'orders-eu', messages: [{ value: 'eu-1', partition: 0 }, { value: 'eu-2', partition: 1 }] });
    await producer.send({ topic: 'orders-us', messages: [{ value: 'us-1' }] });
    await producer.send({ topic: 'audit', messages: [{ value: 'audit-1' }] });
    const run = subscriber('regex-app', '^orders-.*', 3);
    // What the coordinator resolved, seen while the member is in the group (its leaving takes the resolution away, as in Kafka).
    let resolved: [string, string[]] | undefined;
    for (let i = 0; i < 1500 && !resolved; i++) {
      const first = kafka.cluster.groups.consumerGroups.get('regex-app')?.resolvedRegularExpressions.entries().next();
      if (first && !first.done) resolved = [first.value[0], [...first.value[1].topics].sort()];
      else await new Promise((r) => setTimeout(r, 20));
    }
    const summary = await run;
    expect(summary).toEqual({ ok: true, errors: [], messages: ['orders-eu:0:eu-1', 'orders-eu:1:eu-2', 'orders-us:0:us-1'] });
    expect(resolved).toEqual([expect.stringContaining('orders-'), ['orders-eu', 'orders-us']]);
    expect(kafka.cluster.groups.committedOffset('regex-app', 'orders-us', 0)).toBe(1);
    expect(kafka.cluster.groups.consumerGroups.get('regex-app')?.resolvedRegularExpressions.size).toBe(0);
  } finally {
    await producer.disconnect();
  }
}, 70_000);
