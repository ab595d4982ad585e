// The lost-ack story at the protocol level: the same Produce request (same
// producer id, epoch and sequence) arrives twice, on two connections, as a
// client's retry after its first answer was lost. It is written once and
// both answers carry the same offset.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, topics: [{ name: 'acks', partitions: 1 }] });
});
afterAll(() => kafka.stop());

const produce = (batch: Buffer, version = 7) => ({ acks: -1, timeoutMs: 1000, topicData: [{ name: 'acks', partitionData: [{ index: 0, records: batch }] }] });

test('a retried batch on another connection is written once and answered with the original offset', async () => {
  const a = await WireClient.connect(kafka.bootstrap);
  const b = await WireClient.connect(kafka.bootstrap);
  const init = await a.request(ApiKey.InitProducerId, 1, { transactionalId: null, transactionTimeoutMs: 60000 });
  expect(init.errorCode).toBe(0);
  const opts = { producerId: init.producerId, producerEpoch: init.producerEpoch, baseSequence: 0 };

  const first = buildRecordBatch([{ value: Buffer.from('one') }, { value: Buffer.from('two') }], opts);
  const r1 = await a.request(ApiKey.Produce, 7, produce(first));
  const r2 = await b.request(ApiKey.Produce, 7, produce(Buffer.from(first)));
  const p1 = r1.responses[0].partitionResponses[0];
  const p2 = r2.responses[0].partitionResponses[0];
  expect([p1.errorCode, p2.errorCode]).toEqual([0, 0]);
  expect(p2.baseOffset).toBe(p1.baseOffset);
  expect(kafka.cluster.partition('acks', 0)!.logEndOffset).toBe(2);

  // The next batch goes on at sequence 2; one that skips ahead is refused.
  const gap = buildRecordBatch([{ value: Buffer.from('x') }], { ...opts, baseSequence: 5 });
  expect((await a.request(ApiKey.Produce, 7, produce(gap))).responses[0].partitionResponses[0].errorCode).toBe(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  const next = buildRecordBatch([{ value: Buffer.from('three') }], { ...opts, baseSequence: 2 });
  expect((await a.request(ApiKey.Produce, 7, produce(next))).responses[0].partitionResponses[0]).toMatchObject({ errorCode: 0, baseOffset: 2 });
  a.close();
  b.close();
});

test('after the producer id expires, the same late retry becomes a duplicate in the log (as in Kafka 3.9)', async () => {
  const c = await WireClient.connect(kafka.bootstrap);
  const init = await c.request(ApiKey.InitProducerId, 1, { transactionalId: null, transactionTimeoutMs: 60000 });
  const batch = buildRecordBatch([{ value: Buffer.from('late') }], { producerId: init.producerId, producerEpoch: 0, baseSequence: 0 });
  const p = kafka.cluster.partition('acks', 0)!;
  const before = p.logEndOffset;
  await c.request(ApiKey.Produce, 7, produce(batch));
  expect(p.producers.expire(init.producerId)).toBe(true);
  const again = (await c.request(ApiKey.Produce, 7, produce(Buffer.from(batch)))).responses[0].partitionResponses[0];
  expect(again).toMatchObject({ errorCode: 0, baseOffset: before + 1 });
  expect(p.logEndOffset).toBe(before + 2);
  c.close();
});

test('transactional batches without a transactional id, or with an unknown one, are refused', async () => {
  const c = await WireClient.connect(kafka.bootstrap);
  const batch = buildRecordBatch([{ value: Buffer.from('t') }], { producerId: 9999, producerEpoch: 0, baseSequence: 0, transactional: true });
  const noId = await c.request(ApiKey.Produce, 7, produce(batch));
  expect(noId.responses[0].partitionResponses[0].errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  const unknown = await c.request(ApiKey.Produce, 7, { ...produce(batch), transactionalId: 'nobody' });
  expect(unknown.responses[0].partitionResponses[0].errorCode).toBe(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
  c.close();
});
