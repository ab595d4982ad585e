import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kafka, logLevel } from 'kafkajs';
import { useCluster } from 'kafkaesque/node-test';

const kafka = useCluster({ brokers: 1, topics: [{ name: 'orders', partitions: 1 }] });

test('orders 1: a cluster of its own, reached through KAFKA_BROKERS too', async () => {
  assert.equal(process.env.KAFKA_BROKERS, kafka.brokers.join(','));
  const client = new Kafka({ clientId: 'orders-1', brokers: kafka.brokers, logLevel: logLevel.NOTHING });
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o', value: 'orders-1' }] });
  await producer.disconnect();
  assert.deepEqual((await kafka.control.records('orders', 0)).records.map((r) => r.value), ['orders-1']);
  await kafka.control.reset();
  assert.equal(kafka.running.cluster.partition('orders', 0).logEndOffset, 0);
});
