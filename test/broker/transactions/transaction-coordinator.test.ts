// The transaction coordinator's state machine on the manual clock
// (kafka-semantics.md §5), with the cluster model and no sockets.
import { ensureCoordinatorTopic, TRANSACTION_KEY_TYPE } from '../../../src/broker/coordinators.js';
import { appendRecords } from '../../../src/broker/append.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { modelCluster } from '../../support/cluster.js';

function setup() {
  const { cluster, clock } = modelCluster();
  ensureCoordinatorTopic(cluster, TRANSACTION_KEY_TYPE);
  cluster.createTopic('t', { numPartitions: 2, replicationFactor: 3 });
  const tc = cluster.transactions;
  return { cluster, clock, tc };
}

/** A transactional write from (pid, epoch) at a sequence, as a producer would send it. */
function write(cluster: ReturnType<typeof setup>['cluster'], pid: number, epoch: number, seq: number, partition = 0, txnId = 'tx') {
  const t = cluster.topic('t')!;
  const records = buildRecordBatch([{ value: Buffer.from(`s${seq}`) }], { producerId: pid, producerEpoch: epoch, baseSequence: seq, transactional: true });
  return appendRecords(cluster, t, t.partitions[partition]!, { records, produceVersion: 7, acks: -1, clientId: 'c', transactionalId: txnId });
}

test('InitProducerId: a new transactional id gets epoch 0, each new instance a bump', () => {
  const { tc } = setup();
  const a = tc.initProducerId('tx', 60000, -1, -1);
  expect(a).toMatchObject({ error: 'NONE', producerEpoch: 0 });
  expect(tc.initProducerId('tx', 60000, -1, -1)).toEqual({ error: 'NONE', producerId: a.producerId, producerEpoch: 1 });
  expect(tc.initProducerId(null, 60000, -1, -1).producerId).not.toBe(a.producerId);
  expect(tc.initProducerId('tx', 0, -1, -1).error).toBe('INVALID_TRANSACTION_TIMEOUT');
  expect(tc.initProducerId('tx', 900_001, -1, -1).error).toBe('INVALID_TRANSACTION_TIMEOUT');
  expect(tc.initProducerId('tx', 1000, 5, -1).error).toBe('INVALID_REQUEST');
  expect(tc.initProducerId('', 1000, -1, -1).error).toBe('INVALID_REQUEST');
});

test('InitProducerId with the previous (pid, epoch): a bump, a retry answered again, anything else fenced', () => {
  const { tc } = setup();
  const a = tc.initProducerId('tx', 60000, -1, -1); // epoch 0
  const bumped = tc.initProducerId('tx', 60000, a.producerId, 0);
  expect(bumped).toEqual({ error: 'NONE', producerId: a.producerId, producerEpoch: 1 });
  // The same request again (its answer was lost) gets the same epoch, not a second bump.
  expect(tc.initProducerId('tx', 60000, a.producerId, 0)).toEqual({ error: 'NONE', producerId: a.producerId, producerEpoch: 1 });
  expect(tc.initProducerId('tx', 60000, a.producerId + 100, 1).error).toBe('PRODUCER_FENCED');
});

test('an exhausted epoch rotates to a new producer id at epoch 0', () => {
  const { tc } = setup();
  const a = tc.initProducerId('tx', 60000, -1, -1);
  tc.get('tx')!.producerEpoch = 32766;
  const rotated = tc.initProducerId('tx', 60000, -1, -1);
  expect(rotated.producerId).not.toBe(a.producerId);
  expect(rotated.producerEpoch).toBe(0);
  expect(tc.get('tx')!.lastProducerId).toBe(a.producerId);
});

test('EndTxn follows the state table, and a retried commit of a finished one answers NONE', () => {
  const { cluster, tc } = setup();
  const { producerId: pid } = tc.initProducerId('tx', 60000, -1, -1);
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('INVALID_TXN_STATE'); // Empty
  expect(tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }])).toBe('NONE');
  expect(write(cluster, pid, 0, 0).error).toBe('NONE');
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('NONE');
  expect(tc.get('tx')!.state).toBe('CompleteCommit');
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('NONE');
  expect(tc.endTxn('tx', pid, 0, false).error).toBe('INVALID_TXN_STATE');
  expect(tc.endTxn('tx', pid, 1, true).error).toBe('PRODUCER_FENCED');
  expect(tc.endTxn('tx', pid + 1, 0, true).error).toBe('INVALID_PRODUCER_ID_MAPPING');
  expect(tc.endTxn('nobody', pid, 0, true).error).toBe('INVALID_PRODUCER_ID_MAPPING');
  const p = cluster.partition('t', 0)!;
  expect(p.logEndOffset).toBe(2); // the record and the COMMIT marker
  expect(p.lastStableOffset).toBe(2);
});

test('a write to a partition never added to the transaction is refused by verification', () => {
  const { cluster, tc } = setup();
  const { producerId: pid } = tc.initProducerId('tx', 60000, -1, -1);
  tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }]);
  expect(write(cluster, pid, 0, 0, 1)).toMatchObject({ error: 'INVALID_TXN_STATE', errorMessage: 'Partition was not added to the transaction' });
  expect(cluster.partition('t', 1)!.logEndOffset).toBe(0);
});

test('the timeout aborts an open transaction with a bumped epoch, fencing the late producer', () => {
  const { cluster, clock, tc } = setup();
  const { producerId: pid } = tc.initProducerId('tx', 10_000, -1, -1);
  tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }]);
  write(cluster, pid, 0, 0);
  const p = cluster.partition('t', 0)!;
  expect(p.lastStableOffset).toBe(0);
  clock.advance(9_999);
  expect(tc.get('tx')!.state).toBe('Ongoing');
  clock.advance(1);
  expect(tc.get('tx')).toMatchObject({ state: 'CompleteAbort', producerEpoch: 1, lastProducerEpoch: -1 });
  expect(p.producers.aborted).toEqual([{ producerId: pid, firstOffset: 0, lastOffset: 1 }]);
  expect(p.lastStableOffset).toBe(2);
  // The late producer: produce, AddPartitions, EndTxn, and InitProducerId with its old epoch.
  expect(write(cluster, pid, 0, 1).error).toBe('INVALID_PRODUCER_EPOCH');
  expect(tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 1 }])).toBe('PRODUCER_FENCED');
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('PRODUCER_FENCED');
  expect(tc.initProducerId('tx', 10_000, pid, 0).error).toBe('PRODUCER_FENCED');
  expect(tc.initProducerId('tx', 10_000, -1, -1).producerEpoch).toBe(2);
});

test('a new instance during an open transaction aborts it and answers CONCURRENT_TRANSACTIONS; the retry gets epoch + 2', () => {
  const { cluster, tc } = setup();
  const { producerId: pid } = tc.initProducerId('tx', 60000, -1, -1);
  tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }]);
  write(cluster, pid, 0, 0);
  expect(tc.initProducerId('tx', 60000, -1, -1).error).toBe('CONCURRENT_TRANSACTIONS');
  expect(tc.get('tx')!.state).toBe('CompleteAbort');
  expect(tc.initProducerId('tx', 60000, -1, -1)).toMatchObject({ error: 'NONE', producerEpoch: 2 });
});

test('markers wait for a leader: meanwhile the transaction is pending and answers CONCURRENT_TRANSACTIONS', () => {
  const { cluster, tc } = setup();
  const { producerId: pid } = tc.initProducerId('tx', 60000, -1, -1);
  tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }, { topic: 't', partition: 1 }]);
  write(cluster, pid, 0, 0, 1);
  const p0 = cluster.partition('t', 0)!;
  for (const n of p0.replicas) cluster.stopNode(n);
  expect(p0.leader).toBe(-1);
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('NONE');
  expect(tc.get('tx')).toMatchObject({ state: 'PrepareCommit', pendingState: 'CompleteCommit' });
  expect(tc.addPartitions('tx', pid, 0, [{ topic: 't', partition: 0 }])).toBe('CONCURRENT_TRANSACTIONS');
  expect(tc.endTxn('tx', pid, 0, true).error).toBe('CONCURRENT_TRANSACTIONS');
  expect(tc.initProducerId('tx', 60000, -1, -1).error).toBe('CONCURRENT_TRANSACTIONS');
  for (const n of p0.replicas) cluster.startNode(n);
  expect(tc.get('tx')).toMatchObject({ state: 'CompleteCommit', pendingState: null });
  expect(p0.log.batchCount).toBe(1); // the COMMIT marker, written once a leader returned
});
