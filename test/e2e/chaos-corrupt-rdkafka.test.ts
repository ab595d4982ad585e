// corrupt through the proxy with librdkafka 2.0.2 (confluent-kafka-python,
// test/clients/rdkafka_corrupt.py), a client that checks CRCs:
// - Fetch: a consumer with check.crcs=true gets a _BAD_MSG message error
//   naming the batch's base offset and the failed CRC32C check, fetches the
//   same offset again and, the rule having stopped firing (times: 1), reads
//   every record intact and in order.
// - Produce: the broker answers the damaged batch with CORRUPT_MESSAGE,
//   which librdkafka calls INVALID_MSG and takes as permanent: that value's
//   delivery report fails, nothing is retried, and the later values (each
//   its own Produce) land, with and without idempotence.
import { execFileSync } from 'node:child_process';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';
import { fetchPartition, kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;

beforeAll(async () => {
  requireTool(debianPython);
  execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
  kafka = await startCluster({
    brokers: 1,
    seed: 23,
    topics: [
      { name: 'crc-fetch', partitions: 1 },
      { name: 'crc-produce', partitions: 1 },
      { name: 'crc-produce-idempotent', partitions: 1 },
    ],
  });
});
afterAll(() => kafka?.stop());

const script = 'test/clients/rdkafka_corrupt.py';

interface ClientError {
  name: string;
  text: string;
  retriable: boolean;
  offset?: number;
  value?: string;
}

test('Fetch: librdkafka with check.crcs reports _BAD_MSG at the batch, then reads every record intact once the rule stops firing', async () => {
  const topic = 'crc-fetch';
  const producer = kafkajs(kafka.bootstrap, 'crc-seed').producer();
  await producer.connect();
  await producer.send({ topic, messages: [{ value: 'a' }, { value: 'b' }] }); // batch at offset 0
  await producer.send({ topic, messages: [{ value: 'c' }] }); // batch at offset 2
  await producer.disconnect();

  const rule = kafka.chaos.addRule({ match: { api: 'Fetch', topic }, trigger: { type: 'always', times: 1 }, action: { type: 'corrupt' } });
  const summary = await runClient(debianPython, [script, kafka.bootstrap, topic, 'consume', '--expect', '3'], 30);
  expect(summary.errors).toEqual([]);

  const errors = summary.message_errors as ClientError[];
  expect(errors.length).toBeGreaterThanOrEqual(1);
  expect(errors[0]).toMatchObject({ name: '_BAD_MSG', retriable: false, offset: 0 });
  expect(errors[0]!.text).toMatch(/^MessageSet at offset 0 \(\d+ bytes\) failed CRC32C check \(original 0x[0-9a-f]+ != calculated 0x[0-9a-f]+\)$/);
  for (const e of errors) expect(e.name).toBe('_BAD_MSG');
  // The damaged answer delivered nothing; the next Fetch, at the same offset, everything.
  expect(summary.records).toEqual([
    { offset: 0, value: 'a' },
    { offset: 1, value: 'b' },
    { offset: 2, value: 'c' },
  ]);
  const after = kafka.chaos.rule(rule.id)!;
  expect(after.fired).toBe(1);
  expect(after.matched).toBeGreaterThan(1);
  expect(kafka.chaos.events().filter((e) => e.ruleId === rule.id)).toEqual([
    expect.objectContaining({ action: 'corrupt', api: 'Fetch', topic, clientId: 'kafkaesque-rdkafka-corrupt', detail: { mode: 'crc', direction: 'response' } }),
  ]);
}, 60_000);

test.each([
  ['without idempotence', 'crc-produce', []],
  ['with idempotence', 'crc-produce-idempotent', ['--idempotence']],
])('Produce %s: librdkafka fails the damaged value with INVALID_MSG (CORRUPT_MESSAGE) and does not retry it; the next values land', async (_how, topic, flags) => {
  const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'always', times: 1 }, action: { type: 'corrupt' } });
  const summary = await runClient(debianPython, [script, kafka.bootstrap, topic, 'produce', '-n', '3', ...flags], 30);
  expect(summary.errors).toEqual([]);
  expect(summary.delivery_errors).toEqual([expect.objectContaining({ name: 'INVALID_MSG', text: 'Broker: Invalid message', retriable: false, value: 'value-0' })]);
  expect((summary.log as string[]).some((line) => /Invalid message \(actions Permanent/.test(line))).toBe(true);
  expect(summary.delivered).toEqual([
    { offset: 0, value: 'value-1' },
    { offset: 1, value: 'value-2' },
  ]);
  // One Produce per value: the damaged one was never sent again.
  expect(kafka.chaos.rule(rule.id)).toMatchObject({ matched: 3, fired: 1 });
  expect((await fetchPartition(kafkajs(kafka.bootstrap, 'crc-check'), topic, 0)).map((m) => m.value)).toEqual(['value-1', 'value-2']);
}, 60_000);
