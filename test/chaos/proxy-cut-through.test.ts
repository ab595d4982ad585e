// Cut-through forwarding: a large answer streams through the proxy as its
// bytes arrive. It must still arrive whole, and answers to requests
// pipelined behind it must come after it, not inside it.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { buildRecordBatch, decodeRecords, splitBatches, verifyCrc } from '../../src/protocol/record-batch.js';
import { WireClient, correlationOf, decodeResponse } from '../support/wire-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, topics: [{ name: 'big', partitions: 1 }, { name: 'rewritten', partitions: 1 }] });
});
afterAll(() => kafka.stop());

test('a 3 MB fetch answer streams through whole, and the answer pipelined behind it follows it', async () => {
  expect(kafka.proxy).toBe(true);
  const c = await WireClient.connect(kafka.bootstrap);
  const value = Buffer.alloc(1000, 'v');
  for (let b = 0; b < 30; b++) {
    const batch = buildRecordBatch(Array.from({ length: 100 }, (_, i) => ({ key: Buffer.from(`${b}-${i}`), value })));
    const r = await c.request(ApiKey.Produce, 7, { acks: 1, timeoutMs: 1000, topicData: [{ name: 'big', partitionData: [{ index: 0, records: batch }] }] });
    expect(r.responses[0].partitionResponses[0].errorCode).toBe(0);
  }
  const fetchId = c.send(ApiKey.Fetch, 11, { maxWaitMs: 0, minBytes: 1, maxBytes: 50 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic: 'big', partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 50 << 20 }] }] });
  const metadataId = c.send(ApiKey.Metadata, 1, { topics: null });
  const first = (await c.nextFrame())!;
  const second = (await c.nextFrame())!;
  expect([correlationOf(first), correlationOf(second)]).toEqual([fetchId, metadataId]);
  expect(first.length).toBeGreaterThan(3_000_000);
  const fetch = decodeResponse(first, ApiKey.Fetch, 11) as any;
  const records: Buffer = fetch.responses[0].partitions[0].records;
  let count = 0;
  for (let at = 0; at < records.length; ) {
    const size = 12 + records.readInt32BE(at + 8);
    count += decodeRecords(records.subarray(at, at + size)).length;
    at += size;
  }
  expect(count).toBe(3000);
  expect((decodeResponse(second, ApiKey.Metadata, 1) as any).brokers).toHaveLength(1);
  c.close();
});

test('an answer a rule rewrites is not cut through: a large Fetch answer arrives whole, every batch corrupted', async () => {
  const c = await WireClient.connect(kafka.bootstrap);
  const value = Buffer.alloc(1000, 'w');
  for (let b = 0; b < 3; b++) {
    const batch = buildRecordBatch(Array.from({ length: 100 }, (_, i) => ({ key: Buffer.from(`${b}-${i}`), value })));
    const r = await c.request(ApiKey.Produce, 7, { acks: 1, timeoutMs: 1000, topicData: [{ name: 'rewritten', partitionData: [{ index: 0, records: batch }] }] });
    expect(r.responses[0].partitionResponses[0].errorCode).toBe(0);
  }
  const rule = kafka.chaos.addRule({ match: { api: 'Fetch', topic: 'rewritten' }, action: { type: 'corrupt' } });
  const fetchId = c.send(ApiKey.Fetch, 11, { maxWaitMs: 0, minBytes: 1, maxBytes: 50 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic: 'rewritten', partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 50 << 20 }] }] });
  const metadataId = c.send(ApiKey.Metadata, 1, { topics: null });
  const first = (await c.nextFrame())!;
  const second = (await c.nextFrame())!;
  kafka.chaos.removeRule(rule.id);
  expect([correlationOf(first), correlationOf(second)]).toEqual([fetchId, metadataId]);
  const records: Buffer = (decodeResponse(first, ApiKey.Fetch, 11) as any).responses[0].partitions[0].records;
  const { batches } = splitBatches(records);
  expect(batches).toHaveLength(3);
  expect(batches.map(verifyCrc)).toEqual([false, false, false]);
  c.close();
});
