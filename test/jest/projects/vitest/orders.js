// What each test file of this project does: check that it reaches its
// worker's cluster, and reset and produce on it several times over.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from 'kafkaesque/vitest';

export function ordersTest(name) {
  test(`${name}: its own cluster, reset and produce`, async () => {
    expect(process.env.KAFKA_BROKERS).toBe(brokers().join(','));
    expect(inject('kafkaesque').map((c) => c.url)).toContain(process.env.KAFKAESQUE_URL);
    if (process.env.RUN_REPORT) {
      mkdirSync(process.env.RUN_REPORT, { recursive: true });
      writeFileSync(join(process.env.RUN_REPORT, `${name}.json`), JSON.stringify({ worker: process.env.VITEST_POOL_ID, url: process.env.KAFKAESQUE_URL }));
    }
    const control = kafkaesque();
    const kafka = new Kafka({ clientId: name, brokers: process.env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    for (let round = 0; round < 5; round++) {
      await control.reset();
      await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o', value: `${name}-${round}` }] });
      expect((await control.records('orders', 0)).records.map((r) => r.value)).toEqual([`${name}-${round}`]);
    }
    await producer.disconnect();
  });
}
