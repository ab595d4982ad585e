// message.timestamp.before/after.max.ms as LogValidator#validateTimestamp
// checks them: 4.0 refuses a record stamped more than an hour ahead (its
// default, KIP-1030), 3.9 only when a topic sets the bound; both as a real
// broker answers (test/conformance, produce-errors).
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

const produce = (c: WireClient, topic: string, timestamps: number[]) =>
  c.request(ApiKey.Produce, 9, {
    transactionalId: null,
    acks: 1,
    timeoutMs: 1000,
    topicData: [{ name: topic, partitionData: [{ index: 0, records: buildRecordBatch(timestamps.map((timestamp, i) => ({ value: `v${i}`, timestamp }))) }] }],
  }).then((r: any) => r.responses[0].partitionResponses[0]);

async function withBroker(kafkaVersion: string, body: (c: WireClient, k: RunningCluster) => Promise<void>) {
  const k = await startCluster({ brokers: 1, kafkaVersion, topics: [{ name: 't', partitions: 1 }, { name: 'bounded', partitions: 1, configs: { 'message.timestamp.after.max.ms': '1000' } }] });
  const c = await WireClient.connect(k.bootstrap);
  try {
    await body(c, k);
  } finally {
    c.close();
    await k.stop();
  }
}

test('4.0: a record two hours ahead is INVALID_TIMESTAMP, with its index in record_errors, and nothing is appended', async () => {
  await withBroker('4.0', async (c, k) => {
    const now = Date.now();
    const r = await produce(c, 't', [now, now + 2 * 3_600_000]);
    expect(r).toMatchObject({ errorCode: ErrorCode.INVALID_TIMESTAMP, baseOffset: -1, errorMessage: 'One or more records have been rejected due to invalid timestamp' });
    expect(r.recordErrors).toHaveLength(1);
    expect(r.recordErrors[0].batchIndex).toBe(1);
    expect(r.recordErrors[0].batchIndexErrorMessage).toMatch(/^Timestamp \d+ of message with offset 1 is out of range\. The timestamp should be within \[-\d+, \d+\]$/);
    expect(k.cluster.topic('t')!.partitions[0]!.logEndOffset).toBe(0);
    expect((await produce(c, 't', [now])).errorCode).toBe(ErrorCode.NONE);
  });
});

test('3.9: no bound by default; a topic that sets message.timestamp.after.max.ms refuses beyond it', async () => {
  await withBroker('3.9', async (c) => {
    const ahead = Date.now() + 2 * 3_600_000;
    expect((await produce(c, 't', [ahead])).errorCode).toBe(ErrorCode.NONE);
    expect((await produce(c, 'bounded', [ahead])).errorCode).toBe(ErrorCode.INVALID_TIMESTAMP);
  });
});
