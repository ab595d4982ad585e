// Idempotence only lasts as long as the broker remembers the producer id
// (producer.id.expiration.ms). Here the answer to a Produce is lost, and
// the producer id is forgotten before the retry arrives: the broker takes
// the retry for new data, and the idempotent producer leaves a duplicate.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 9 });
});
afterAll(() => kafka.stop());

test('expire-producer between a lost ack and its retry: the idempotent retry is appended again', async () => {
  const topic = 'expired-pid';
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: messages(1, 'first') });
    const p = kafka.cluster.partition(topic, 0)!;
    const [entry] = p.producers.producers();
    const producerId = entry!.producerId;
    // The next Produce is appended and its answer lost; its retry finds the producer id forgotten.
    kafka.chaos.addRule({ id: 'lose', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
    kafka.chaos.addRule({ id: 'forget', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 2 }, action: { type: 'expire-producer', producerId, topic } });
    await producer.send({ topic, acks: -1, messages: messages(2, 'again') });
    expect(kafka.chaos.rule('lose')!.fired).toBe(1);
    expect(kafka.chaos.events().find((e) => e.ruleId === 'forget')).toMatchObject({ action: 'expire-producer', detail: { producerId, expired: [`${topic}-0`] } });
    const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
    expect(values).toEqual(['first0', 'again0', 'again1', 'again0', 'again1']);
  } finally {
    await producer.disconnect();
  }
});
