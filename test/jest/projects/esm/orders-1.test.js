import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from 'kafkaesque/jest';
import { ControlClient } from 'kafkaesque';

test('orders 1: an idempotent producer writes each order once, and the matchers say so', async () => {
  const control = kafkaesque();
  expect(control).toBeInstanceOf(ControlClient);
  await control.reset();
  const kafka = new Kafka({ clientId: 'orders-1', brokers: brokers(), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true });
  await producer.connect();
  await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o-1', value: 'a' }, { key: 'o-2', value: 'b' }] });
  await producer.disconnect();
  await expect(['o-1', 'o-2']).toBeDeliveredExactlyOnce({ topic: 'orders' });
});
