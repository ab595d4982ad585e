// What each test file of this project does: a cluster of the file's own
// (useCluster registers the file's before/after hooks), reached through
// KAFKA_BROKERS as well.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kafka, logLevel } from 'kafkajs';
import { useCluster } from 'kafkaesque/node-test';

export function ordersTest(name) {
  const kafka = useCluster({ brokers: 1, topics: [{ name: 'orders', partitions: 1 }] });
  test(`${name}: a cluster of its own, reached through KAFKA_BROKERS too`, async () => {
    assert.equal(process.env.KAFKA_BROKERS, kafka.brokers.join(','));
    const producer = new Kafka({ clientId: name, brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o', value: name }] });
    await producer.disconnect();
    assert.deepEqual((await kafka.control.records('orders', 0)).records.map((r) => r.value), [name]);
    await kafka.control.reset();
    assert.equal(kafka.running.cluster.partition('orders', 0).logEndOffset, 0);
  });
}
