// close: the connection resets instead of the request reaching the broker.
// kafkajs reconnects and resends; the broker saw the request once, so even
// without idempotence nothing is doubled.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 4 });
});
afterAll(() => kafka.stop());

test('a reset Produce is resent on a new connection and lands once', async () => {
  const topic = 'reset-produce';
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer();
  await producer.connect();
  try {
    const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 2 }, action: { type: 'close' } });
    // Fires on every Produce and changes nothing: its events say which connection each one came on.
    const seen = kafka.chaos.addRule({ match: { api: 'Produce', topic }, action: { type: 'delay', ms: 0 } });
    for (let i = 0; i < 3; i++) await producer.send({ topic, acks: -1, messages: messages(2, `c${i}-`) });
    expect(kafka.chaos.rule(rule.id)).toMatchObject({ matched: 4, fired: 1 });
    const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
    expect(values).toEqual(['c0-0', 'c0-1', 'c1-0', 'c1-1', 'c2-0', 'c2-1']);
    expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'close', api: 'Produce', clientId: 'kafkaesque-test', topic, partition: 0 });
    const connections = kafka.chaos.events().filter((e) => e.ruleId === seen.id).map((e) => e.connectionId);
    expect(connections).toHaveLength(4);
    expect(connections[1]).toBe(connections[0]);
    expect(connections[2]).not.toBe(connections[1]); // the resend, on a new connection
  } finally {
    await producer.disconnect();
  }
});
