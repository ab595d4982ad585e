import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from 'kafkaesque/vitest';

test('orders 2: its own cluster, reset and produce', async () => {
  expect(process.env.KAFKA_BROKERS).toBe(brokers().join(','));
  expect(inject('kafkaesque').map((c) => c.url)).toContain(process.env.KAFKAESQUE_URL);
  if (process.env.RUN_REPORT) {
    mkdirSync(process.env.RUN_REPORT, { recursive: true });
    writeFileSync(join(process.env.RUN_REPORT, 'orders-2.json'), JSON.stringify({ worker: process.env.VITEST_POOL_ID, url: process.env.KAFKAESQUE_URL }));
  }
  const control = kafkaesque();
  const kafka = new Kafka({ clientId: 'orders-2', brokers: process.env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  for (let round = 0; round < 5; round++) {
    await control.reset();
    await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o', value: 'orders-2-' + round }] });
    expect((await control.records('orders', 0)).records.map((r) => r.value)).toEqual(['orders-2-' + round]);
  }
  await producer.disconnect();
});
