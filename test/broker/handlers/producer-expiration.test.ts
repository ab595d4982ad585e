// producer.id.expiration.ms over the wire: idle producer ids are forgotten only
// by the periodic scan (producer.id.expiration.check.interval.ms) on the
// cluster clock, as Kafka's UnifiedLog does, never when a batch is looked up.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ManualClock } from '../../../src/broker/clock.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

const FIXTURE_TIME = Date.UTC(2020, 0, 1); // a fixed date, as test fixtures have
const CHECK_INTERVAL_MS = 600_000;

let kafka: RunningCluster;
let clock: ManualClock;
let c: WireClient;
beforeAll(async () => {
  clock = new ManualClock(Date.now());
  kafka = await startCluster({ brokers: 1, proxy: false, clock, logLevel: 'silent', topics: [{ name: 'old', partitions: 1 }, { name: 'fresh', partitions: 1 }] });
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

async function produce(topic: string, producerId: number, baseSequence: number, count: number, timestamp: number) {
  const records = Array.from({ length: count }, (_, i) => ({ value: Buffer.from(`r${baseSequence + i}`) }));
  const batch = buildRecordBatch(records, { producerId, producerEpoch: 0, baseSequence, timestamp });
  const res = await c.request(ApiKey.Produce, 9, { transactionalId: null, acks: -1, timeoutMs: 1000, topicData: [{ name: topic, partitionData: [{ index: 0, records: batch }] }] });
  const p = res.responses[0].partitionResponses[0];
  return { errorCode: p.errorCode, baseOffset: p.baseOffset };
}
const newProducerId = async () => (await c.request(ApiKey.InitProducerId, 4, { transactionalId: null, transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 })).producerId as number;

test('regression: a producer whose records carry old timestamps keeps its sequence state until the periodic scan', async () => {
  const pid = await newProducerId();
  expect(await produce('old', pid, 0, 3, FIXTURE_TIME)).toEqual({ errorCode: 0, baseOffset: 0 });
  // Before the fix, the state expired at this lookup (now − 2020 ≥ 24 h) and these were appended at offset 3.
  expect(await produce('old', pid, 1, 1, FIXTURE_TIME)).toEqual({ errorCode: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, baseOffset: -1 });
  expect(await produce('old', pid, 0, 3, FIXTURE_TIME)).toEqual({ errorCode: 0, baseOffset: 0 }); // the retry is a duplicate
  expect(kafka.cluster.partition('old', 0)!.logEndOffset).toBe(3);

  // Just before the scan nothing changes; at the scan Kafka compares the last batch's own timestamp with now, so this producer goes.
  clock.advance(CHECK_INTERVAL_MS - 1);
  expect(await produce('old', pid, 1, 1, FIXTURE_TIME)).toMatchObject({ errorCode: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER });
  clock.advance(1);
  expect(kafka.cluster.partition('old', 0)!.producers.get(pid)).toBeUndefined();
  // Unknown again: any sequence is accepted.
  expect(await produce('old', pid, 1, 1, FIXTURE_TIME)).toEqual({ errorCode: 0, baseOffset: 3 });
});

test('the scan keeps a producer whose last batch is younger than producer.id.expiration.ms, and forgets it once it is older', async () => {
  const pid = await newProducerId();
  expect(await produce('fresh', pid, 0, 2, clock.now())).toEqual({ errorCode: 0, baseOffset: 0 });
  clock.advance(CHECK_INTERVAL_MS); // a scan: the producer is seconds old
  expect(await produce('fresh', pid, 5, 1, clock.now())).toMatchObject({ errorCode: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER });
  const lastBatchAt = clock.now();
  expect(await produce('fresh', pid, 2, 1, lastBatchAt)).toEqual({ errorCode: 0, baseOffset: 2 });
  // 24 h after that batch: the next scan forgets it, not before.
  clock.advance(86_400_000 - CHECK_INTERVAL_MS);
  expect(kafka.cluster.partition('fresh', 0)!.producers.get(pid)).toBeDefined();
  clock.advance(CHECK_INTERVAL_MS);
  expect(kafka.cluster.partition('fresh', 0)!.producers.get(pid)).toBeUndefined();
});

test('producerIdExpirationCheckIntervalMs sets how often the scan runs; a bad value is refused naming the option', async () => {
  const own = new ManualClock(Date.now());
  const small = await startCluster({ brokers: 1, proxy: false, clock: own, logLevel: 'silent', producerIdExpirationMs: 5000, producerIdExpirationCheckIntervalMs: 1000, topics: [{ name: 't', partitions: 1 }] });
  try {
    const p = small.cluster.partition('t', 0)!;
    p.producers.recordAppend({ producerId: 7, producerEpoch: 0, baseSequence: 0, lastOffsetDelta: 0, transactional: false }, 0, own.now());
    own.advance(4999);
    expect(p.producers.get(7)).toBeDefined();
    own.advance(1); // the scan at 5000 ms finds it 5000 ms idle
    expect(p.producers.get(7)).toBeUndefined();
  } finally {
    await small.stop();
  }
  // stop() ends the scan: no timer is left on the clock.
  expect(own.timersPending).toBe(0);
  await expect(startCluster({ producerIdExpirationCheckIntervalMs: 0 })).rejects.toThrow('startCluster: producerIdExpirationCheckIntervalMs: must be a whole number from 1 to 2147483647, got 0');
});
