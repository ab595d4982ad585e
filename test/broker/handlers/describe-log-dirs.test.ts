// DescribeLogDirs (35): @platformatic/kafka's admin asks every broker; each
// answers its one log dir with the replicas it holds and their sizes.
import { Admin } from '@platformatic/kafka';
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { WireClient } from '../../support/wire-client.js';
import { kafkajs, messages } from '../../support/kafkajs.js';

let kafka: RunningCluster;
let admin: Admin;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, logLevel: 'silent' });
  kafka.cluster.createTopic('ld', { assignments: [{ partitionIndex: 0, brokerIds: [0, 1] }, { partitionIndex: 1, brokerIds: [1, 2] }] });
  admin = new Admin({ clientId: 'ld-test', bootstrapBrokers: kafka.bootstrap.split(','), retries: 2, timeout: 10_000 });
});
afterAll(async () => {
  await admin.close();
  await kafka.stop();
});

test('each broker lists the replicas it holds with their sizes; a follower held back has less', async () => {
  const producer = kafkajs(kafka.bootstrap).producer();
  await producer.connect();
  await producer.send({ topic: 'ld', acks: -1, messages: messages(4).map((m) => ({ ...m, partition: 0 })) });
  kafka.cluster.pauseReplication(1);
  await producer.send({ topic: 'ld', acks: 1, messages: messages(2, 'later').map((m) => ({ ...m, partition: 0 })) });
  await producer.disconnect();
  const p0 = kafka.cluster.partition('ld', 0)!;
  const full = p0.log.sizeInBytes;
  try {
    const dirs = await admin.describeLogDirs({ topics: [{ name: 'ld', partitions: [0, 1] }] });
    const byBroker = new Map(dirs.map((d) => [d.broker, d.results]));
    expect([...byBroker.keys()].sort()).toEqual([0, 1, 2]);
    const sizes = (broker: number) =>
      byBroker.get(broker)!.flatMap((r: any) => r.topics.flatMap((t: any) => t.partitions.map((p: any) => [t.name, p.partitionIndex, Number(p.partitionSize)])));
    expect(byBroker.get(0)![0]).toMatchObject({ logDir: '/tmp/kraft-combined-logs' });
    expect(sizes(0)).toEqual([['ld', 0, full]]);
    const follower = sizes(1);
    expect(follower.map(([, i]: any) => i)).toEqual([0, 1]);
    expect(follower[0][2]).toBeGreaterThan(0);
    expect(follower[0][2]).toBeLessThan(full);
    expect(sizes(2)).toEqual([['ld', 1, 0]]);
    const dir = byBroker.get(2)![0] as any;
    expect(Number(dir.totalBytes)).toBeGreaterThan(0);
    expect(Number(dir.usableBytes)).toBeLessThanOrEqual(Number(dir.totalBytes));
  } finally {
    kafka.cluster.resumeReplication(1);
  }
  expect(p0.replicaLogEndOffset(1)).toBe(p0.logEndOffset);
});

test('topics null describes every replica on the broker; v0-3 carry no sizes of the disk', async () => {
  const c = await WireClient.connect(kafka.brokers.get(2)!);
  try {
    const all = await c.request(ApiKey.DescribeLogDirs, 1, { topics: null });
    const held = all.results[0].topics.flatMap((t: any) => t.partitions.map((p: any) => `${t.name}-${p.partitionIndex}`));
    const expected = [...kafka.cluster.topics.values()].flatMap((t) => t.partitions.filter((p) => p.replicas.includes(2)).map((p) => `${t.name}-${p.index}`));
    expect(held.sort()).toEqual(expected.sort());
    expect(held).toContain('ld-1');
    expect(all.results[0]).toMatchObject({ errorCode: 0, totalBytes: -1, usableBytes: -1 });
    // A topic or partition the broker does not hold is left out.
    const none = await c.request(ApiKey.DescribeLogDirs, 4, { topics: [{ topic: 'ld', partitions: [0] }, { topic: 'nope', partitions: [0] }] });
    expect(none.results[0].topics).toEqual([]);
  } finally {
    c.close();
  }
});
