import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque, withFault } from 'kafkaesque/jest';
import type { FaultRuleInput } from 'kafkaesque';

const lostAck: FaultRuleInput = { match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } };

test('a lost ack: the idempotent producer retries, and orders-0 holds the order once', async () => {
  await kafkaesque().reset();
  const kafka = new Kafka({ clientId: 'swc', brokers: brokers(), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await withFault(lostAck, () => producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o-1', value: 'created' }] }));
  await producer.disconnect();
  await expect(['o-1']).toHaveNoDuplicates({ topic: 'orders' });
});
