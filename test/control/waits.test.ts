// Waits instead of sleeps (issue 13): waitForRecords, waitForCommitted and
// waitForGroup, in the library (RunningCluster) and over the control API
// (ControlClient, long-poll routes), against kafkajs producers and a kafkajs
// consumer group over real sockets through the proxy. Each wait is started
// before what it waits for happens, so that it must be woken by the event.
import { setMaxListeners } from 'node:events';
import type { Consumer, Kafka } from 'kafkajs';
import { ControlClient, ControlError, startCluster, WaitTimeoutError, type RunningCluster } from '../../src/index.js';
import { createTopics, kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
let control: ControlClient;
const consumers: Consumer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3 });
  kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
  client = kafkajs(kafka.bootstrap, 'waits');
  control = new ControlClient(kafka.controlUrl);
});
afterAll(async () => {
  const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
  await Promise.all(consumers.map((c) => bounded(c.disconnect())));
  await kafka.stop();
});

function consumer(groupId: string, extra: Partial<Parameters<Kafka['consumer']>[0]> = {}): Consumer {
  const c = client.consumer({ groupId, sessionTimeout: 2000, rebalanceTimeout: 4000, heartbeatInterval: 200, maxWaitTimeInMs: 100, ...extra });
  consumers.push(c);
  return c;
}

async function produce(topic: string, messages: { partition: number; value: string }[]) {
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages });
  await producer.disconnect();
}

const tenMessages = () => Array.from({ length: 10 }, (_, i) => ({ partition: i % 2, value: `m-${i}` }));

/** The rejection of a promise that must reject. */
async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('resolved');
    },
    (err: Error) => err,
  );
}

describe('in the library', () => {
  test('waitForRecords resolves once the topic holds the count, and times out naming what it holds', async () => {
    await createTopics(client, { topic: 'lib-records', numPartitions: 2, replicationFactor: 3 });
    const whole = kafka.waitForRecords('lib-records', 10);
    const one = kafka.waitForRecords('lib-records', 5, { partition: 1 });
    await produce('lib-records', tenMessages());
    expect(await whole).toEqual({ topic: 'lib-records', records: 10, partitions: [{ partition: 0, records: 5 }, { partition: 1, records: 5 }] });
    expect(await one).toEqual({ topic: 'lib-records', records: 5, partitions: [{ partition: 1, records: 5 }] });
    const late = await rejection(kafka.waitForRecords('lib-records', 11, { timeoutMs: 100 }));
    expect(late).toBeInstanceOf(WaitTimeoutError);
    expect(late.message).toBe('topic lib-records holds 10 of 11 records (lib-records-0: 5, lib-records-1: 5) (gave up after 100 ms)');
    expect((await rejection(kafka.waitForRecords('no-such-topic', 1, { timeoutMs: 50 }))).message).toBe('topic no-such-topic does not exist, waiting for 1 records (gave up after 50 ms)');
  });

  test('waitForRecords counts data records, not the transaction markers that take offsets', async () => {
    await createTopics(client, { topic: 'lib-txn', numPartitions: 1, replicationFactor: 3 });
    const producer = client.producer({ transactionalId: 'waits-txn', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const waiting = kafka.waitForRecords('lib-txn', 6);
    for (let t = 0; t < 2; t++) {
      const txn = await producer.transaction();
      await txn.send({ topic: 'lib-txn', messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
      await txn.commit();
    }
    await producer.disconnect();
    expect((await waiting).records).toBe(6);
    expect(kafka.cluster.partition('lib-txn', 0)!.highWatermark).toBe(8); // 6 records and 2 COMMIT markers
    expect((await rejection(kafka.waitForRecords('lib-txn', 7, { timeoutMs: 50 }))).message).toMatch(/^topic lib-txn holds 6 of 7 records/);
  });

  test('a consumer group consuming: waitForGroup (Stable, then lag 0) and waitForCommitted right after the commit', async () => {
    await createTopics(client, { topic: 'lib-orders', numPartitions: 2, replicationFactor: 3 });
    const stable = kafka.waitForGroup('lib-g');
    const committed = kafka.waitForCommitted('lib-g', 'lib-orders', 0, 5);
    // Every commit the group makes, in order, to see which one the wait answered to.
    const commits: number[] = [];
    kafka.cluster.groups.on('offsets-committed', (e) => e.groupId === 'lib-g' && commits.push(...e.offsets.filter((o) => o.topic === 'lib-orders' && o.partition === 0).map((o) => o.offset)));
    let committedSeenAfter: number[] | undefined;
    void committed.then(() => (committedSeenAfter = [...commits]));

    const c = consumer('lib-g', { allowAutoTopicCreation: false });
    await c.connect();
    await c.subscribe({ topic: 'lib-orders', fromBeginning: true });
    await c.run({ autoCommit: false, eachMessage: async ({ partition, message }) => void (await c.commitOffsets([{ topic: 'lib-orders', partition, offset: String(Number(message.offset) + 1) }])) });
    expect(await stable).toMatchObject({ groupId: 'lib-g', state: 'Stable' });
    // Lag counts against the high watermark as it is: wait once the send is acknowledged.
    await produce('lib-orders', tenMessages());
    const caughtUp = kafka.waitForGroup('lib-g', { lag: 0 });

    expect(await committed).toEqual({ groupId: 'lib-g', topic: 'lib-orders', partition: 0, offset: 5 });
    // Resolved on the commit of 5 itself, before any later one.
    expect(committedSeenAfter).toEqual([1, 2, 3, 4, 5]);
    const progress = await caughtUp;
    expect(progress).toMatchObject({ state: 'Stable', lag: 0 });
    expect(progress.partitions).toEqual([
      { topic: 'lib-orders', partition: 0, committed: 5, highWatermark: 5, lag: 0 },
      { topic: 'lib-orders', partition: 1, committed: 5, highWatermark: 5, lag: 0 },
    ]);
  });

  test('timeouts name what was last seen', async () => {
    expect((await rejection(kafka.waitForCommitted('lib-g', 'lib-orders', 0, 9, { timeoutMs: 100 }))).message).toBe('group lib-g committed lib-orders-0 at 5, waiting for 9 (gave up after 100 ms)');
    expect((await rejection(kafka.waitForCommitted('lib-g', 'lib-orders', 7, 1, { timeoutMs: 50 }))).message).toBe('group lib-g has committed no offset for lib-orders-7, waiting for lib-orders-7 at 1 (gave up after 50 ms)');
    expect((await rejection(kafka.waitForGroup('nobody', { timeoutMs: 50 }))).message).toBe('group nobody does not exist, waiting for Stable (gave up after 50 ms)');
    expect((await rejection(kafka.waitForGroup('lib-g', { state: 'Empty', timeoutMs: 50 }))).message).toMatch(/^group lib-g is Stable \(generation \d+\), waiting for Empty/);
    // A partition the group consumes moves on without the group: lag 1, named.
    await produce('lib-orders', [{ partition: 1, value: 'extra' }]);
    const c = consumers[consumers.length - 1]!;
    await c.pause([{ topic: 'lib-orders' }]);
    await produce('lib-orders', [{ partition: 1, value: 'unread' }]);
    const behind = await rejection(kafka.waitForGroup('lib-g', { lag: 0, timeoutMs: 300 }));
    expect(behind.message).toMatch(/^group lib-g is Stable with lag [12] \(lib-orders-1 committed \d of 7\), waiting for lag <= 0/);
    c.resume([{ topic: 'lib-orders' }]);
    expect((await kafka.waitForGroup('lib-g', { lag: 0 })).lag).toBe(0);
  });

  test('an aborted wait rejects with the signal reason and leaves no listener behind', async () => {
    const listeners = () => kafka.cluster.groups.listenerCount('offsets-committed') + kafka.cluster.listenerCount('records-appended');
    const before = listeners();
    const ac = new AbortController();
    setMaxListeners(100, ac.signal);
    const waits = Array.from({ length: 20 }, (_, i) => [kafka.waitForCommitted('x', 't', 0, 1, { signal: ac.signal }), kafka.waitForGroup('x', { signal: ac.signal, lag: 0 }), kafka.waitForRecords(`t-${i}`, 1, { signal: ac.signal })]).flat();
    ac.abort(new Error('test over'));
    for (const w of waits) expect((await rejection(w)).message).toBe('test over');
    // Sixty waits share one listener per event.
    expect(listeners()).toBe(before);
  });
});

describe('over the control API', () => {
  test('waitForRecords, waitForCommitted and waitForGroup long-poll until the event', async () => {
    await createTopics(client, { topic: 'api-orders', numPartitions: 2, replicationFactor: 3 });
    const records = control.waitForRecords('api-orders', 10);
    const committed = control.waitForCommitted('api-g', 'api-orders', 1, 5);
    const stable = control.waitForGroup('api-g');
    const c = consumer('api-g');
    await c.connect();
    await c.subscribe({ topic: 'api-orders', fromBeginning: true });
    await c.run({ autoCommit: false, eachMessage: async ({ partition, message }) => void (await c.commitOffsets([{ topic: 'api-orders', partition, offset: String(Number(message.offset) + 1) }])) });
    expect(await stable).toMatchObject({ groupId: 'api-g', state: 'Stable' });
    await produce('api-orders', tenMessages());
    expect(await records).toMatchObject({ topic: 'api-orders', records: 10 });
    expect(await committed).toEqual({ groupId: 'api-g', topic: 'api-orders', partition: 1, offset: 5 });
    expect(await control.waitForGroup('api-g', { lag: 0 })).toMatchObject({ state: 'Stable', lag: 0, partitions: [{ committed: 5, highWatermark: 5 }, { committed: 5, highWatermark: 5 }] });
  });

  test('a timeout is 408 naming what was last seen; bad bodies are 400 naming the field', async () => {
    const late = await rejection(control.waitForCommitted('api-g', 'api-orders', 1, 50, { timeoutMs: 100 }));
    expect(late).toBeInstanceOf(ControlError);
    expect(late).toMatchObject({ status: 408, error: 'timeout', message: 'POST /v1/groups/api-g/committed/wait: group api-g committed api-orders-1 at 5, waiting for 50 (gave up after 100 ms)' });
    expect(await rejection(control.waitForRecords('api-orders', 11, { timeoutMs: 50 }))).toMatchObject({ status: 408, message: expect.stringContaining('topic api-orders holds 10 of 11 records') });
    expect(await rejection(control.request('POST /v1/topics/:name/wait', { params: { name: 'api-orders' }, body: {} as never }))).toMatchObject({ status: 400, field: 'count' });
    expect(await rejection(control.request('POST /v1/groups/:id/wait', { params: { id: 'api-g' }, body: { state: 'Happy' as never } }))).toMatchObject({ status: 400, field: 'state' });
    expect(await rejection(control.request('POST /v1/groups/:id/committed/wait', { params: { id: 'api-g' }, body: { topic: 'api-orders', partition: 0 } as never }))).toMatchObject({ status: 400, field: 'offset' });
    expect(await rejection(control.request('POST /v1/groups/:id/wait', { params: { id: 'api-g' }, body: { lag: 0, extra: 1 } as never }))).toMatchObject({ status: 400, field: 'extra' });
  });
});
