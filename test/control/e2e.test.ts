// The control API end to end: the typed client over HTTP and kafkajs over the
// wire through the chaos proxy, against one 3-broker cluster. What one side
// does, the other sees.
import type { Consumer } from 'kafkajs';
import { ControlClient, ControlError, startCluster, type RunningCluster } from '../../src/index.js';
import { EVENTS_MAX_LIMIT } from '../../src/control/routes.js';
import { kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let control: ControlClient;
const consumers: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
  control = new ControlClient(kafka.controlUrl, { timeoutMs: 5000 });
});
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(consumers.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

test('a topic created over HTTP takes kafkajs writes, which read back decoded over HTTP', async () => {
  const created = await control.createTopic({ name: 'ctl-orders', partitions: 2, replicationFactor: 3 });
  expect(created.partitions.map((p) => p.replicas.length)).toEqual([3, 3]);
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({
      topic: 'ctl-orders',
      acks: -1,
      messages: [
        { partition: 0, key: 'order-1', value: '{"total":10}', headers: { source: 'web' } },
        { partition: 0, key: 'order-2', value: '{"total":20}' },
        { partition: 1, key: 'order-3', value: null },
      ],
    });
  } finally {
    await producer.disconnect();
  }
  const page = await control.records('ctl-orders', 0);
  expect(page).toMatchObject({ logEndOffset: 2, highWatermark: 2, nextOffset: 2 });
  expect(page.records.map((r) => [r.offset, r.key, r.value, r.headers.map((h) => `${h.key}=${h.value}`)])).toEqual([
    [0, 'order-1', '{"total":10}', ['source=web']],
    [1, 'order-2', '{"total":20}', []],
  ]);
  expect(page.records[0]!.batch).toMatchObject({ producerEpoch: 0, baseSequence: 0, transactional: false });
  const pid = page.records[0]!.batch.producerId;
  expect(pid).toBeGreaterThanOrEqual(0);
  expect((await control.records('ctl-orders', 1)).records).toEqual([expect.objectContaining({ offset: 0, key: 'order-3', value: null })]);
  expect(await control.producers('ctl-orders', 0)).toEqual([expect.objectContaining({ producerId: pid, producerEpoch: 0, lastSequence: 1, currentTxnStartOffset: null })]);
});

test('a kafkajs consumer group shows its member, assignment and committed offsets', async () => {
  const client = kafkajs(kafka.bootstrap);
  const consumer = client.consumer({ groupId: 'ctl-group', sessionTimeout: 2000, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
  consumers.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic: 'ctl-orders', fromBeginning: true });
  let seen = 0;
  const all = new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async () => {
        if (++seen === 3) resolve();
      },
    });
  });
  await all;
  // Commits follow processing; poll the committed offsets over HTTP until both partitions are done.
  let group = await control.group('ctl-group');
  for (let i = 0; i < 100 && group.offsets.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 50));
    group = await control.group('ctl-group');
  }
  expect(group).toMatchObject({ state: 'Stable', protocolType: 'consumer', protocolName: 'RoundRobinAssigner' });
  expect(group.members).toEqual([expect.objectContaining({ clientId: 'kafkaesque-test', assignment: [{ topic: 'ctl-orders', partitions: [0, 1] }] })]);
  expect(group.offsets.map((o) => [o.topic, o.partition, o.offset, o.lag]).sort()).toEqual([
    ['ctl-orders', 0, 2, 0],
    ['ctl-orders', 1, 1, 0],
  ]);
  expect(await control.groups()).toContainEqual(expect.objectContaining({ groupId: 'ctl-group', state: 'Stable', members: 1 }));
  await consumer.disconnect();
  expect((await control.group('ctl-group')).state).toBe('Empty');
});

test('a kafkajs transaction shows in the coordinator and as a COMMIT marker', async () => {
  const producer = kafkajs(kafka.bootstrap).producer({ transactionalId: 'ctl-tx', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const tx = await producer.transaction();
    await tx.send({ topic: 'ctl-orders', messages: [{ partition: 1, value: 'in-tx' }] });
    expect(await control.transaction('ctl-tx')).toMatchObject({ state: 'Ongoing', partitions: [{ topic: 'ctl-orders', partition: 1 }] });
    expect((await control.topic('ctl-orders')).partitions[1]!.lastStableOffset).toBe(1);
    await tx.commit();
  } finally {
    await producer.disconnect();
  }
  expect(await control.transaction('ctl-tx')).toMatchObject({ state: 'CompleteCommit', partitions: [] });
  const records = (await control.records('ctl-orders', 1, { from: 1 })).records;
  expect(records.map((r) => [r.offset, r.value, r.control])).toEqual([
    [1, 'in-tx', null],
    [2, null, 'COMMIT'],
  ]);
});

test('a fault added over HTTP fires on kafkajs traffic through the proxy; its count, wait and event say so', async () => {
  await control.createTopic({ name: 'ctl-faulty', partitions: 1, replicationFactor: 3 });
  const refused = await control.addFault({ action: { type: 'no-such-action' } }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ControlError);
  expect(refused).toMatchObject({ status: 400, error: 'invalid_rule', field: 'action.type' });

  const since = (await control.events({ limit: EVENTS_MAX_LIMIT })).next;
  const rule = await control.addFault({
    id: 'first-produce-fails',
    match: { api: 'Produce', topic: 'ctl-faulty' },
    trigger: { type: 'first', n: 1 },
    action: { type: 'error', code: 'NOT_LEADER_OR_FOLLOWER' },
  });
  expect(rule).toMatchObject({ id: 'first-produce-fails', fired: 0 });
  const fired = control.waitForFault(rule.id, { timeoutMs: 10_000 });
  const producer = kafkajs(kafka.bootstrap).producer();
  await producer.connect();
  try {
    await producer.send({ topic: 'ctl-faulty', acks: -1, messages: [{ value: 'retried' }] });
  } finally {
    await producer.disconnect();
  }
  expect(await fired).toMatchObject({ id: rule.id, fired: 1 });
  expect((await control.fault(rule.id)).matched).toBeGreaterThanOrEqual(2); // the retry matched too, and went through
  const events = (await control.events({ since })).events.filter((e) => e.kind === 'fault');
  expect(events).toEqual([expect.objectContaining({ ruleId: rule.id, action: 'error', api: 'Produce', topic: 'ctl-faulty' })]);
  expect((await control.records('ctl-faulty', 0)).records.map((r) => r.value)).toEqual(['retried']);
  await control.removeFault(rule.id);
  expect(await control.faults()).toEqual([]);
});

test('a node stopped over HTTP leaves kafkajs metadata, and comes back when started', async () => {
  const admin = kafkajs(kafka.bootstrap).admin();
  await admin.connect();
  try {
    const leader = (await control.topic('ctl-orders')).partitions[0]!.leader;
    expect(await control.stopNode(leader)).toMatchObject({ nodeId: leader, alive: false });
    const meta = await admin.fetchTopicMetadata({ topics: ['ctl-orders'] });
    const p0 = meta.topics[0]!.partitions.find((p) => p.partitionId === 0)!;
    expect(p0.leader).not.toBe(leader);
    expect(p0.isr).not.toContain(leader);
    expect((await admin.describeCluster()).brokers.map((b) => b.nodeId).sort()).toEqual([0, 1, 2].filter((n) => n !== leader));

    await control.startNode(leader);
    expect((await admin.describeCluster()).brokers.map((b) => b.nodeId).sort()).toEqual([0, 1, 2]);
    const moved = await control.moveLeader('ctl-orders', 0, { to: leader });
    expect(moved.leader).toBe(leader);
    const back = await admin.fetchTopicMetadata({ topics: ['ctl-orders'] });
    expect(back.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader).toBe(leader);
  } finally {
    await admin.disconnect();
  }
});
