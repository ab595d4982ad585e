// KIP-932 from a real client: the Java KafkaShareConsumer 4.4
// (test/clients/java/share/Share.java) against the 4.4 profile. Two members
// of one share group read every record once; an application that RELEASEs a
// poison record gets it back until the delivery count limit (5) archives it,
// one that REJECTs it gets it once. The same runs against a real Kafka 4.4.0
// gave the same deliveries and delivery counts.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';
import { runShareDriver, shareDriverBuilt, type ShareSummary } from '../support/share-driver.js';

const it = shareDriverBuilt() ? test : test.skip;

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, kafkaVersion: '4.4' });
});
afterAll(() => kafka.stop());

type Summary = ShareSummary;

const share = (args: string[]) => runShareDriver(kafka.bootstrap, args);

async function produce(topic: string, values: string[], partitions = 1): Promise<void> {
  const admin = kafkajs(kafka.bootstrap).admin();
  const producer = kafkajs(kafka.bootstrap).producer();
  await admin.connect();
  await producer.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
    await producer.send({ topic, messages: values.map((value, i) => ({ value, partition: i % partitions })) });
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

const byValue = (s: Summary) => {
  const m = new Map<string, number[]>();
  for (const [, , , value, count] of s.deliveries) m.set(value, [...(m.get(value) ?? []), count]);
  return m;
};

it('two members of a share group read every record exactly once, each from its share of the partitions', async () => {
  const values = Array.from({ length: 30 }, (_, i) => `v-${i}`);
  await produce('share-pay', values, 3);
  // As an application sets it: Admin#incrementalAlterConfigs on the GROUP resource.
  const s = await share(['share-pay', '--group', 'share-pay-app', '--members', '2', '--distinct', '30', '--config', 'share.auto.offset.reset=earliest']);
  expect(kafka.cluster.groupConfigs.entries('share-pay-app').get('share.auto.offset.reset')).toBe('earliest');
  expect(s.errors).toEqual([]);
  expect([...byValue(s).keys()].sort()).toEqual([...values].sort());
  expect([...byValue(s).values()].every((counts) => counts.length === 1 && counts[0] === 1)).toBe(true);
  // The group's start offsets moved past everything: each partition acknowledged to its end.
  const t = kafka.cluster.topic('share-pay')!;
  expect(t.partitions.map((p) => kafka.cluster.shares.get('share-pay-app', t.topicId, p.index)?.startOffset)).toEqual(t.partitions.map((p) => p.highWatermark));
}, 90_000);

it('a poison record RELEASEd each time comes back until the delivery count limit archives it; REJECTed, it comes once', async () => {
  await produce('share-poison', ['ok-1', 'poison', 'ok-2']);
  for (const group of ['share-release-app', 'share-reject-app']) kafka.cluster.groupConfigs.set(group, 'share.auto.offset.reset', 'earliest');
  const release = await share(['share-poison', '--group', 'share-release-app', '--ack', 'explicit', '--poison', 'poison', '--on-poison', 'release', '--distinct', '3', '--idle-ms', '2500']);
  expect(release.errors).toEqual([]);
  expect(byValue(release).get('poison')).toEqual([1, 2, 3, 4, 5]);
  expect(byValue(release).get('ok-1')).toEqual([1]);
  const reject = await share(['share-poison', '--group', 'share-reject-app', '--ack', 'explicit', '--poison', 'poison', '--on-poison', 'reject', '--distinct', '3', '--idle-ms', '1500']);
  expect(byValue(reject).get('poison')).toEqual([1]);
  const t = kafka.cluster.topic('share-poison')!;
  for (const g of ['share-release-app', 'share-reject-app']) expect(kafka.cluster.shares.get(g, t.topicId, 0)!.startOffset).toBe(3);
}, 90_000);
