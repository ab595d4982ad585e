import getPort from 'get-port';
import yargs from 'yargs';
import { Kafka } from 'kafkajs';

test('ESM-only and CommonJS dependencies load side by side', async () => {
  const port = await getPort();
  expect(port).toBeGreaterThan(0);
  expect(typeof yargs).toBe('function');
  expect(typeof Kafka).toBe('function');
});
