// A small "application under test" for test/cli/sweep.test.ts, run by
// `kafkaesque sweep` once per cell. The application is a producer without
// idempotence (retries on) that sends five orders through the chaos proxy
// (KAFKA_BROKERS); the test's own setup and check go through the fault-free
// side door (KAFKAESQUE_DIRECT_BROKERS): an admin creates the topic, a
// consumer reads it back, and the delivery audit (KAFKAESQUE_URL) judges it,
// writing what it found to KAFKAESQUE_AUDIT_OUT. Exit 1 when the audit finds
// anything: under lost-ack the retried first send lands a duplicate.
import { Kafka, logLevel } from 'kafkajs';
import { auditProcessed } from '../../dist/jest/matchers.js';

const topic = 'orders';
const ids = ['o-0', 'o-1', 'o-2', 'o-3', 'o-4'];
const client = (brokers, clientId) => new Kafka({ clientId, brokers: brokers.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
const direct = client(process.env.KAFKAESQUE_DIRECT_BROKERS, 'test-harness');

const admin = direct.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });

const producer = client(process.env.KAFKA_BROKERS, 'order-service').producer({ idempotent: false });
await producer.connect();
for (const id of ids) await producer.send({ topic, acks: -1, messages: [{ key: id, value: id }] });
await producer.disconnect();

// Read back everything stored, through the side door: the end offset says when.
const [{ high }] = await admin.fetchTopicOffsets(topic);
await admin.disconnect();
const processed = [];
const consumer = direct.consumer({ groupId: 'checker', maxWaitTimeInMs: 100 });
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await new Promise((resolve) => {
  consumer.run({
    eachMessage: async ({ partition, message }) => {
      processed.push({ topic, partition, offset: Number(message.offset) });
      if (processed.length === Number(high)) resolve();
    },
  });
});
await consumer.disconnect();

const report = await auditProcessed(processed, { topic });
console.log(`${processed.length} record(s) read, audit ${report.ok ? 'ok' : 'NOT ok'}`);
process.exit(report.ok ? 0 : 1);
