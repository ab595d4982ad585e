// Runs inside the nested jest. The matchers come from setupFilesAfterEnv and
// reach the cluster through KAFKAESQUE_URL. The second test is meant to fail:
// the outer test reads its message.
import { Kafka, logLevel } from 'kafkajs';
import { brokers, withFault } from '../../../dist/jest/index.js';

beforeAll(async () => {
  const kafka = new Kafka({ clientId: 'billing-1', brokers: brokers(), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
  const producer = kafka.producer({ idempotent: false });
  await producer.connect();
  await withFault({ id: 'lost-ack', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } },
    () => producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o-1', value: '1' }, { key: 'o-2', value: '2' }] }));
  await producer.disconnect();
});

test('passes: everything processed once (the consumer deduplicated)', async () => {
  await expect(['o-1', 'o-2']).toHaveNoLoss({ topic: 'orders' });
  await expect(['o-1', 'o-2']).toHaveNoDuplicates({ topic: 'orders', in: 'processing' });
});

test('fails: o-2 was never processed, and the log holds both ids twice', async () => {
  await expect(['o-1']).toBeDeliveredExactlyOnce({ topic: 'orders' });
});
