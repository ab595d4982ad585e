// Leader change (DESIGN.md): leadership moves mid-stream and the request
// that triggered it meets the new leadership (NOT_LEADER_OR_FOLLOWER on the
// old leader). With acks=all nothing acknowledged is lost; with acks=1 and a
// lagging follower, an unclean move loses the unreplicated tail.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 5 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

async function createTopic(topic: string, replicationFactor: number) {
  await createTopics(kafkajs(kafka.bootstrap), { topic, numPartitions: 1, replicationFactor });
}

test('acks=all: two leader moves mid-stream lose nothing and double nothing', async () => {
  const topic = 'moving-all';
  await createTopic(topic, 3);
  const p = kafka.cluster.partition(topic, 0)!;
  const firstLeader = p.leader;
  const epoch = p.leaderEpoch;
  kafka.chaos.addRule({ id: 'move-1', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 4 }, action: { type: 'move-leader', topic, partition: 0 } });
  kafka.chaos.addRule({ id: 'move-2', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 10 }, action: { type: 'move-leader', topic, partition: 0 } });
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  try {
    for (let i = 0; i < 15; i++) await producer.send({ topic, acks: -1, messages: messages(5, `m${i}-`) });
  } finally {
    await producer.disconnect();
  }
  expect(kafka.chaos.rule('move-1')!.fired).toBe(1);
  expect(kafka.chaos.rule('move-2')!.fired).toBe(1);
  // 15 sends, and one resend each time the request met NOT_LEADER_OR_FOLLOWER on the old leader.
  expect(kafka.chaos.rule('move-1')!.matched).toBe(17);
  expect(p.leaderEpoch).toBe(epoch + 2);
  const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
  expect(values).toEqual(Array.from({ length: 15 }, (_, i) => [0, 1, 2, 3, 4].map((j) => `m${i}-${j}`)).flat());
  const moves = kafka.chaos.events().filter((e) => e.kind === 'leader-changed' && e.topic === topic);
  expect(moves[0]!.detail!.leader).not.toBe(firstLeader);
  expect(moves[1]!.detail!.leader).not.toBe(moves[0]!.detail!.leader);
  expect(p.leader).toBe(moves[1]!.detail!.leader);
  expect(moves.map((e) => e.detail)).toEqual([expect.objectContaining({ unclean: false, truncatedFrom: null }), expect.objectContaining({ unclean: false, truncatedFrom: null })]);
  const faults = kafka.chaos.events().filter((e) => e.kind === 'fault' && e.topic === topic);
  expect(faults.map((e) => [e.ruleId, e.action, e.nodeId])).toEqual([
    ['move-1', 'move-leader', firstLeader],
    ['move-2', 'move-leader', moves[0]!.detail!.leader],
  ]);
});

test('acks=1: an unclean move to a follower that lags loses the acknowledged tail', async () => {
  const topic = 'moving-unclean';
  await createTopic(topic, 2);
  const p = kafka.cluster.partition(topic, 0)!;
  const follower = p.replicas.find((r) => r !== p.leader)!;
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: 1, messages: messages(4, 'safe-') });
    kafka.cluster.pauseReplication(follower);
    const tail = await producer.send({ topic, acks: 1, messages: messages(3, 'tail-') });
    expect(tail[0]).toMatchObject({ errorCode: 0, baseOffset: '4' }); // acknowledged
    // The next Produce moves the leadership to the follower, which has only the first 4.
    kafka.chaos.addRule({ id: 'unclean', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'move-leader', topic, partition: 0, to: follower, unclean: true } });
    await producer.send({ topic, acks: 1, messages: messages(2, 'after-') });
  } finally {
    await producer.disconnect();
    kafka.cluster.resumeReplication(follower);
  }
  expect(p.leader).toBe(follower);
  const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
  expect(values).toEqual(['safe-0', 'safe-1', 'safe-2', 'safe-3', 'after-0', 'after-1']);
  expect(kafka.chaos.events().find((e) => e.ruleId === 'unclean')).toMatchObject({ action: 'move-leader', detail: { leader: follower, truncatedFrom: 4 } });
});
