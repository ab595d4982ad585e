// Transaction APIs on the wire: coordinator routing, per-partition errors of
// AddPartitionsToTxn, and the inspection APIs (DescribeProducers,
// DescribeTransactions, ListTransactions).
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
const clients: WireClient[] = [];
const connect = async (nodeId: number) => {
  const c = await WireClient.connect(kafka.brokers.get(nodeId)!);
  clients.push(c);
  return c;
};
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, topics: [{ name: 'ta', partitions: 2, replicationFactor: 3 }] });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await kafka.stop();
});

/** FindCoordinator until the internal topic exists, then a connection to the coordinator. */
async function coordinatorOf(txnId: string): Promise<{ nodeId: number; client: WireClient }> {
  const any = await connect(0);
  for (let i = 0; i < 5; i++) {
    const r = await any.request(ApiKey.FindCoordinator, 1, { key: txnId, keyType: 1 });
    if (r.errorCode === 0) return { nodeId: r.nodeId, client: await connect(r.nodeId) };
  }
  throw new Error('no coordinator');
}

test('transaction APIs answer NOT_COORDINATOR away from the coordinator', async () => {
  const { nodeId, client } = await coordinatorOf('ta-1');
  const other = await connect((nodeId + 1) % 3);
  expect((await other.request(ApiKey.InitProducerId, 1, { transactionalId: 'ta-1', transactionTimeoutMs: 60000 })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  const init = await client.request(ApiKey.InitProducerId, 1, { transactionalId: 'ta-1', transactionTimeoutMs: 60000 });
  expect(init).toMatchObject({ errorCode: 0, producerEpoch: 0 });
  expect((await other.request(ApiKey.EndTxn, 1, { transactionalId: 'ta-1', producerId: init.producerId, producerEpoch: 0, committed: true })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
});

test('AddPartitionsToTxn: an unknown partition fails and the others are not attempted; v1 reports PRODUCER_FENCED as INVALID_PRODUCER_EPOCH', async () => {
  const { client } = await coordinatorOf('ta-2');
  const init = await client.request(ApiKey.InitProducerId, 1, { transactionalId: 'ta-2', transactionTimeoutMs: 60000 });
  const add = (partitions: number[], epoch = init.producerEpoch) =>
    client.request(ApiKey.AddPartitionsToTxn, 1, { v3AndBelowTransactionalId: 'ta-2', v3AndBelowProducerId: init.producerId, v3AndBelowProducerEpoch: epoch, v3AndBelowTopics: [{ name: 'ta', partitions }] });
  const res = await add([0, 7]);
  expect(res.resultsByTopicV3AndBelow[0].resultsByPartition).toEqual([
    { partitionIndex: 0, partitionErrorCode: ErrorCode.OPERATION_NOT_ATTEMPTED },
    { partitionIndex: 7, partitionErrorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
  ]);
  expect((await add([0], 5)).resultsByTopicV3AndBelow[0].resultsByPartition[0].partitionErrorCode).toBe(ErrorCode.INVALID_PRODUCER_EPOCH);
  expect((await add([0, 1])).resultsByTopicV3AndBelow[0].resultsByPartition.map((p: any) => p.partitionErrorCode)).toEqual([0, 0]);
});

test('DescribeTransactions, ListTransactions and DescribeProducers show an open transaction', async () => {
  const { client, nodeId } = await coordinatorOf('ta-3');
  const init = await client.request(ApiKey.InitProducerId, 1, { transactionalId: 'ta-3', transactionTimeoutMs: 60000 });
  await client.request(ApiKey.AddPartitionsToTxn, 1, { v3AndBelowTransactionalId: 'ta-3', v3AndBelowProducerId: init.producerId, v3AndBelowProducerEpoch: 0, v3AndBelowTopics: [{ name: 'ta', partitions: [1] }] });
  const leader = kafka.cluster.partition('ta', 1)!.leader;
  const toLeader = await connect(leader);
  const batch = buildRecordBatch([{ value: Buffer.from('open') }], { producerId: init.producerId, producerEpoch: 0, baseSequence: 0, transactional: true });
  const produced = await toLeader.request(ApiKey.Produce, 7, { transactionalId: 'ta-3', acks: -1, timeoutMs: 1000, topicData: [{ name: 'ta', partitionData: [{ index: 1, records: batch }] }] });
  expect(produced.responses[0].partitionResponses[0].errorCode).toBe(0);

  const desc = await client.request(ApiKey.DescribeTransactions, 0, { transactionalIds: ['ta-3'] });
  expect(desc.transactionStates[0]).toMatchObject({ errorCode: 0, transactionState: 'Ongoing', producerId: init.producerId, producerEpoch: 0, topics: [{ topic: 'ta', partitions: [1] }] });
  const nobody = await coordinatorOf('nobody');
  expect((await nobody.client.request(ApiKey.DescribeTransactions, 0, { transactionalIds: ['nobody'] })).transactionStates[0].errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);

  const list = await client.request(ApiKey.ListTransactions, 1, { stateFilters: ['Ongoing', 'Bogus'], producerIdFilters: [], durationFilter: -1 });
  expect(list.unknownStateFilters).toEqual(['Bogus']);
  expect(list.transactionStates).toContainEqual({ transactionalId: 'ta-3', producerId: init.producerId, transactionState: 'Ongoing' });
  // Only the transactional ids this node coordinates are listed.
  const elsewhere = await connect((nodeId + 1) % 3);
  const otherList = await elsewhere.request(ApiKey.ListTransactions, 1, { stateFilters: [], producerIdFilters: [init.producerId], durationFilter: -1 });
  expect(otherList.transactionStates).toEqual([]);

  const producers = await toLeader.request(ApiKey.DescribeProducers, 0, { topics: [{ name: 'ta', partitionIndexes: [1] }] });
  expect(producers.topics[0].partitions[0]).toMatchObject({ errorCode: 0, activeProducers: [{ producerId: init.producerId, producerEpoch: 0, lastSequence: 0, currentTxnStartOffset: 0 }] });
  const notLeader = await connect((leader + 1) % 3);
  expect((await notLeader.request(ApiKey.DescribeProducers, 0, { topics: [{ name: 'ta', partitionIndexes: [1] }] })).topics[0].partitions[0].errorCode).toBe(ErrorCode.NOT_LEADER_OR_FOLLOWER);
});
