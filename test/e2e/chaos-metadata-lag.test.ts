// metadata-lag with kafkajs over sockets: right after CreateTopics every
// broker answers the new topic as unknown, as a lagging KRaft broker does;
// an application that gives up on the first UNKNOWN_TOPIC_OR_PARTITION is
// caught, one that retries passes, and once the lag has passed (the clock
// skipped past it) every broker answers the topic.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, resolvePreset } from '../../src/presets/index.js';
import { SkipClock } from '../presets/skip-clock.js';
import { Kafka, logLevel, type Admin, type Producer } from 'kafkajs';

let kafka: RunningCluster;
const clock = new SkipClock();
const opened: (Admin | Producer)[] = [];
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 5, clock });
});
beforeEach(() => applyPreset(kafka.chaos, resolvePreset('metadata-lag')));
afterEach(async () => {
  kafka.chaos.clearRules();
  kafka.cluster.resetReplication();
  await Promise.all(opened.splice(0).map((c) => c.disconnect().catch(() => {})));
});
afterAll(() => kafka.stop());

const client = (retries: number) => new Kafka({ clientId: 'lag-app', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries, initialRetryTime: 300 } });
async function connected<T extends Admin | Producer>(c: T): Promise<T> {
  opened.push(c);
  await c.connect();
  return c;
}

test('createTopics with waitForLeaders (kafkajs default) fails on the lagging broker\'s UNKNOWN_TOPIC_OR_PARTITION', async () => {
  const admin = await connected(client(5).admin());
  await expect(admin.createTopics({ topics: [{ topic: 'lag-a', numPartitions: 1, replicationFactor: 3 }] })).rejects.toMatchObject({ type: 'UNKNOWN_TOPIC_OR_PARTITION' });
  expect(kafka.cluster.topic('lag-a')).toBeDefined();
});

test('an application that produces at once and gives up on the first UNKNOWN_TOPIC_OR_PARTITION is caught; one that retries passes', async () => {
  const admin = await connected(client(5).admin());
  await admin.createTopics({ topics: [{ topic: 'lag-b', numPartitions: 1, replicationFactor: 3 }], waitForLeaders: false });
  const impatient = await connected(client(0).producer());
  await expect(impatient.send({ topic: 'lag-b', messages: [{ value: 'x' }] })).rejects.toThrow(/does not host this topic-partition/);
  const patient = await connected(client(8).producer());
  const [sent] = await patient.send({ topic: 'lag-b', messages: [{ value: 'y' }] });
  expect(sent).toMatchObject({ topicName: 'lag-b', errorCode: 0 });
  expect(kafka.cluster.partition('lag-b', 0)!.logEndOffset).toBe(1);
});

test('once the lag has passed every broker answers the topic', async () => {
  const admin = await connected(client(5).admin());
  await admin.createTopics({ topics: [{ topic: 'lag-c', numPartitions: 2, replicationFactor: 3 }], waitForLeaders: false });
  // Each broker asked on its own: a client bootstrapped from that one address asks it for Metadata.
  const partitionsOn = async (address: string) => {
    const one = await connected(new Kafka({ clientId: 'lag-check', brokers: [address], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin());
    return (await one.fetchTopicMetadata({ topics: ['lag-c'] })).topics[0]!.partitions.length;
  };
  const addresses = kafka.bootstrap.split(',');
  expect(addresses).toHaveLength(3);
  for (const address of addresses) await expect(partitionsOn(address)).rejects.toMatchObject({ type: 'UNKNOWN_TOPIC_OR_PARTITION' });
  clock.skip(2000);
  for (const address of addresses) expect(await partitionsOn(address)).toBe(2);
  // Each broker, asked on its own connection (kafkajs's Broker, through the admin's cluster), answers both partitions.
  const metadata = await admin.fetchTopicMetadata({ topics: ['lag-c'] });
  expect(metadata.topics[0]!.partitions).toHaveLength(2);
  const producer = await connected(client(0).producer());
  const acks = await producer.send({ topic: 'lag-c', messages: [{ value: 'a', partition: 0 }, { value: 'b', partition: 1 }] });
  expect(acks.map((a) => a.errorCode)).toEqual([0, 0]);
});

test('a leader move the brokers have not caught up with: a producer whose one retry finds a seen move fails on NOT_LEADER_FOR_PARTITION; one that retries more lands its record once they catch up', async () => {
  expect(kafka.cluster.createTopic('lag-move', { numPartitions: 1, replicationFactor: 3 }).ok).toBe(true);
  const p = kafka.cluster.partition('lag-move', 0)!;
  const move = () => expect(kafka.cluster.electLeader('lag-move', 0, { nodeId: p.replicas.find((r) => r !== p.leader)! }).ok).toBe(true);
  const quick = (retries: number) => new Kafka({ clientId: 'lag-app', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries, initialRetryTime: 5, maxRetryTime: 50 } });
  const once = await connected(quick(1).producer());
  await once.send({ topic: 'lag-move', messages: [{ value: 'before' }] });
  // A move every broker has seen: the old leader's NOT_LEADER_FOR_PARTITION, one metadata refresh, the new leader.
  move();
  await once.send({ topic: 'lag-move', messages: [{ value: 'seen' }] });
  // Each broker answers its next 3 lagged requests from before the move (the metadata-lag action's call, with requests).
  kafka.cluster.setMetadataLag([...kafka.cluster.nodes.keys()], { requests: 3 });
  const oldLeader = p.leader;
  move();
  // The old leader still thinks it leads and refuses the write; the refreshed metadata names it again.
  await expect(once.send({ topic: 'lag-move', messages: [{ value: 'x' }] })).rejects.toThrow(/leader for that topic-partition/);
  // kafkajs 2.2.4 treats NOT_LEADER_FOR_PARTITION as stale metadata: refresh, resend. Each retry spends a lagged
  // answer of some broker or reaches the new leader, so the 9 lagged answers in all bound the retries it needs.
  const patient = await connected(quick(15).producer());
  const [sent] = await patient.send({ topic: 'lag-move', messages: [{ value: 'after' }] });
  expect(sent).toMatchObject({ topicName: 'lag-move', errorCode: 0, baseOffset: '2' });
  expect(p.leader).not.toBe(oldLeader);
  expect(p.logEndOffset).toBe(3);
});

test('rule validation names the field and the reason', () => {
  const add = (action: Record<string, unknown>) => () => kafka.chaos.addRule({ match: { api: 'CreateTopics' }, action: { type: 'metadata-lag', ...action } } as never);
  expect(add({})).toThrow(/action\.ms/);
  expect(add({ ms: -1 })).toThrow(/action\.ms/);
  expect(add({ ms: 100, nodeId: 9 })).toThrow(/action\.nodeId: no node 9/);
  expect(add({ ms: 100, topic: 't' })).toThrow(/action\.topic/);
});
