// What every test file of this project does: reset its cluster, then produce
// and consume on a topic that every file uses, checking that it reads back
// exactly its own records, several times over. Files that shared a cluster
// would see each other's records, or lose theirs to another file's reset.
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { Kafka, logLevel } = require('kafkajs');
const { brokers, kafkaesque } = require('kafkaesque/jest');

function paymentsTest(name) {
  test(`${name}: reset, produce and consume see only this file's records`, async () => {
    // process.env, as many projects read it, and the helpers agree.
    expect(process.env.KAFKA_BROKERS).toBe(brokers().join(','));
    const control = kafkaesque();
    const url = process.env.KAFKAESQUE_URL;
    if (process.env.RUN_REPORT) {
      mkdirSync(process.env.RUN_REPORT, { recursive: true });
      writeFileSync(join(process.env.RUN_REPORT, `${name}.json`), JSON.stringify({ worker: process.env.JEST_WORKER_ID, url }));
    }
    const kafka = new Kafka({ clientId: name, brokers: process.env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    try {
      for (let round = 0; round < 8; round++) {
        await control.reset();
        const values = Array.from({ length: 5 }, (_, i) => `${name}-${round}-${i}`);
        await producer.send({ topic: 'payments', acks: -1, messages: values.map((value) => ({ key: name, value })) });
        const page = await control.records('payments', 0);
        expect(page.records.map((r) => r.value)).toEqual(values);
      }
    } finally {
      await producer.disconnect();
    }
    const consumer = kafka.consumer({ groupId: name, maxWaitTimeInMs: 100 });
    await consumer.connect();
    const seen = [];
    try {
      await consumer.subscribe({ topic: 'payments', fromBeginning: true });
      await new Promise((resolve, reject) => {
        consumer.run({ eachMessage: async ({ message }) => { seen.push(message.value.toString()); if (seen.length === 5) resolve(); } }).catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    expect(seen).toEqual(Array.from({ length: 5 }, (_, i) => `${name}-7-${i}`));
  });
}

module.exports = { paymentsTest };
