// Transactions v2 (KIP-890 part 2) over the wire on the 4.4 profile, on a
// manual clock: what the conformance suite cannot time (a transaction timeout
// under v2 bumps the epoch twice, the markers carry the bumped epoch) and
// what a v1 client on the same cluster still gets (EndTxn v4 keeps its epoch).
// Each answer follows TransactionCoordinator#endTransaction (4.x).
import { ManualClock, startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let clock: ManualClock;
let c: WireClient;
beforeAll(async () => {
  clock = new ManualClock();
  kafka = await startCluster({ brokers: 1, clock, kafkaVersion: '4.4', topics: [{ name: 'orders', partitions: 1 }] });
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

async function init(transactionalId: string, transactionTimeoutMs = 60_000) {
  const r = await c.request(ApiKey.InitProducerId, 5, { transactionalId, transactionTimeoutMs, producerId: -1, producerEpoch: -1 });
  expect(r.errorCode).toBe(0);
  return { producerId: Number(r.producerId), producerEpoch: r.producerEpoch as number };
}

const produce = (transactionalId: string, p: { producerId: number; producerEpoch: number }, baseSequence: number, version = 12) =>
  c
    .request(ApiKey.Produce, version, {
      transactionalId,
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: 'orders', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from(`s${baseSequence}`) }], { ...p, baseSequence, transactional: true, timestamp: clock.now() }) }] }],
    })
    .then((r) => r.responses[0].partitionResponses[0].errorCode as number);

const endTxn = (transactionalId: string, p: { producerId: number; producerEpoch: number }, committed: boolean, version = 5) => c.request(ApiKey.EndTxn, version, { transactionalId, ...p, committed });

/** The epochs of the control batches (markers) in the partition's log, in order. */
function markerEpochs(): number[] {
  const p = kafka.cluster.partition('orders', 0)!;
  return p.log
    .read(0, Infinity, Infinity, true)
    .filter((b) => (b.bytes.readInt16BE(21) & 0x20) !== 0)
    .map((b) => b.bytes.readInt16BE(51));
}

test('the 4.4 profile finalizes transaction.version 2 and serves Produce v12, TxnOffsetCommit v5, EndTxn v5', async () => {
  const r = await c.request(ApiKey.ApiVersions, 4, { clientSoftwareName: 'tv2', clientSoftwareVersion: '1' });
  expect(r.finalizedFeatures).toContainEqual({ name: 'transaction.version', minVersionLevel: 2, maxVersionLevel: 2 });
  const max = (key: number) => r.apiKeys.find((k: { apiKey: number }) => k.apiKey === key).maxVersion;
  expect([max(ApiKey.Produce), max(ApiKey.TxnOffsetCommit), max(ApiKey.EndTxn)]).toEqual([12, 5, 5]);
});

test('v2: a commit bumps the epoch and its marker carries the new one; v1 (EndTxn v4) keeps the epoch', async () => {
  const before = markerEpochs().length;
  const p = await init('tv2-commit');
  expect(await produce('tv2-commit', p, 0)).toBe(ErrorCode.NONE);
  const ended = await endTxn('tv2-commit', p, true);
  expect(ended).toMatchObject({ errorCode: 0, producerId: p.producerId, producerEpoch: p.producerEpoch + 1 });
  expect(markerEpochs().slice(before)).toEqual([p.producerEpoch + 1]);
  // A v1 transaction of another id on the same cluster: AddPartitionsToTxn, Produce v11, EndTxn v4, no bump.
  const q = await init('tv1-commit');
  const added = await c.request(ApiKey.AddPartitionsToTxn, 3, { v3AndBelowTransactionalId: 'tv1-commit', v3AndBelowProducerId: q.producerId, v3AndBelowProducerEpoch: q.producerEpoch, v3AndBelowTopics: [{ name: 'orders', partitions: [0] }] });
  expect(added.resultsByTopicV3AndBelow[0].resultsByPartition[0].partitionErrorCode).toBe(0);
  expect(await produce('tv1-commit', q, 0, 11)).toBe(ErrorCode.NONE);
  expect((await endTxn('tv1-commit', q, true, 4)).errorCode).toBe(0);
  expect(markerEpochs().slice(before)).toEqual([p.producerEpoch + 1, q.producerEpoch]);
  expect(kafka.cluster.transactions.get('tv1-commit')!.producerEpoch).toBe(q.producerEpoch);
});

test('v2: a transaction past its timeout is aborted with the epoch bumped twice (the fence, then the abort); the producer is fenced', async () => {
  const before = markerEpochs().length;
  const p = await init('tv2-timeout', 1000);
  expect(await produce('tv2-timeout', p, 0)).toBe(ErrorCode.NONE);
  clock.advance(1001);
  const txn = kafka.cluster.transactions.get('tv2-timeout')!;
  expect([txn.state, txn.producerEpoch]).toEqual(['CompleteAbort', p.producerEpoch + 2]);
  expect(markerEpochs().slice(before)).toEqual([p.producerEpoch + 2]);
  expect(await endTxn('tv2-timeout', p, true)).toMatchObject({ errorCode: ErrorCode.PRODUCER_FENCED, producerId: -1, producerEpoch: -1 });
  expect(await produce('tv2-timeout', p, 1)).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
});
