// Runs inside the nested jest: the cluster globalSetup started is reachable
// through KAFKA_BROKERS and KAFKAESQUE_URL, with the config's options applied.
import { writeFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from '../../../dist/jest/index.js';

test('KAFKA_BROKERS and KAFKAESQUE_URL lead to the cluster of globals.kafkaesque', async () => {
  if (process.env.FIXTURE_REPORT) writeFileSync(process.env.FIXTURE_REPORT, JSON.stringify({ url: process.env.KAFKAESQUE_URL, brokers: process.env.KAFKA_BROKERS }));
  const control = kafkaesque();
  const cluster = await control.cluster();
  expect(cluster).toMatchObject({ proxy: true, seed: 5, nodes: [{ nodeId: 0 }, { nodeId: 1 }] });
  expect(cluster.bootstrap.split(',')).toEqual(brokers());
  expect((await control.topic('fixture-orders')).partitions).toHaveLength(2);
  const [lostAck] = await control.faults();
  expect(lostAck).toMatchObject({ description: expect.stringMatching(/^lost-ack: /), fired: 0 });

  // The lost-ack preset fires on the first Produce; the idempotent producer's retry leaves one copy.
  const kafka = new Kafka({ clientId: 'fixture', brokers: brokers(), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic: 'fixture-orders', acks: -1, messages: [{ key: 'k', value: 'v', partition: 0 }] });
  } finally {
    await producer.disconnect();
  }
  expect(await control.fault(lostAck.id)).toMatchObject({ fired: 1 });
  expect((await control.records('fixture-orders', 0)).records.map((r) => r.value)).toEqual(['v']);
});
