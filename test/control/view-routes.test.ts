// The read routes the web view needs, over the typed client against a real
// cluster and real kafkajs clients: nodes with their leaderships, a topic's
// partitions by page, a record's batch saying whether its transaction was
// aborted, and the audits that found something.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let control: ControlClient;

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, topics: [{ name: 'orders', partitions: 3 }, { name: 'txn', partitions: 1 }] });
  control = new ControlClient(kafka.controlUrl);
}, 30_000);
afterAll(() => kafka.stop());

test('GET /v1/nodes: every node with the partitions it leads', async () => {
  const nodes = await control.nodes();
  expect(nodes.map((n) => n.nodeId)).toEqual([0, 1, 2]);
  const partitions = [...kafka.cluster.topics.values()].reduce((n, t) => n + t.partitions.length, 0);
  expect(nodes.reduce((n, x) => n + x.leaderships, 0)).toBe(partitions);
  await kafka.stopNode(1);
  try {
    expect((await control.nodes()).find((n) => n.nodeId === 1)).toMatchObject({ alive: false, leaderships: 0 });
  } finally {
    await kafka.startNode(1);
  }
});

test('GET /v1/topics/:name/partitions pages a topic, with its total', async () => {
  expect(await control.partitions('orders', { from: 1, limit: 1 })).toMatchObject({ topic: 'orders', total: 3, from: 1, partitions: [{ partition: 1 }] });
  expect((await control.partitions('orders')).partitions.map((p) => p.partition)).toEqual([0, 1, 2]);
  expect((await control.partitions('orders', { from: 5 })).partitions).toEqual([]);
  await expect(control.partitions('orders', { limit: 0 })).rejects.toMatchObject({ status: 400, field: 'limit' });
  await expect(control.partitions('nope')).rejects.toBeInstanceOf(ControlError);
});

test("a record's batch says whether its transaction was aborted", async () => {
  const producer = kafkajs(kafka.bootstrap, 'txn-app').producer({ transactionalId: 'view-tx', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const aborted = await producer.transaction();
  await aborted.send({ topic: 'txn', messages: [{ key: 'a', value: 'aborted' }] });
  await aborted.abort();
  const committed = await producer.transaction();
  await committed.send({ topic: 'txn', messages: [{ key: 'c', value: 'committed' }] });
  await committed.commit();
  await producer.disconnect();
  const { records } = await control.records('txn', 0);
  const data = records.filter((r) => r.control === null);
  expect(data.map((r) => [r.value, r.batch.transactional, r.batch.aborted])).toEqual([
    ['aborted', true, true],
    ['committed', true, false],
  ]);
  expect(records.filter((r) => r.control !== null).map((r) => [r.control, r.batch.aborted])).toEqual([
    ['ABORT', false],
    ['COMMIT', false],
  ]);
});

test('GET /v1/audits: the audits that found something, not the clean ones', async () => {
  expect(await control.audits()).toEqual([]);
  const producer = kafkajs(kafka.bootstrap, 'audited').producer();
  await producer.connect();
  await producer.send({ topic: 'orders', messages: [{ key: 'o-1', value: 'x', partition: 0 }, { key: 'o-2', value: 'y', partition: 0 }] });
  await producer.disconnect();
  expect((await control.audit({ topics: ['orders'], processed: ['o-1', 'o-2'] })).ok).toBe(true);
  expect(await control.audits()).toEqual([]);
  const missed = await control.audit({ topics: ['orders'], processed: ['o-1'] });
  const audits = await control.audits();
  expect(audits).toEqual([{ seq: 1, time: expect.any(Number), topics: ['orders'], ok: false, counts: missed.counts, anomalies: missed.anomalies }]);
  expect(audits[0]!.anomalies.map((a) => a.kind)).toEqual(['unseen']);
});
