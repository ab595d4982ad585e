// The control API over real HTTP against a real 3-broker cluster without its
// proxy: every route, its errors, the token and the loopback rule. The fault
// and event routes' own behaviour runs against a second control server on the
// same cluster whose controller is a stand-in (test/support/fake-chaos.ts);
// e2e.test.ts drives the real controller through the proxy.
import { networkInterfaces } from 'node:os';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { startControlServer, crossOriginReason, hasToken, isLoopbackAddress, notLocalReason, type ControlServer } from '../../src/control/server.js';
import { resetCluster } from '../../src/control/reset.js';
import type { ControlTarget } from '../../src/control/target.js';
import { appendRecords } from '../../src/broker/append.js';
import { ensureCoordinatorTopic } from '../../src/broker/coordinators.js';
import { buildRecordBatch, Compression } from '../../src/protocol/record-batch.js';
import { silentLogger } from '../../src/logger.js';
import { FakeChaos } from '../support/fake-chaos.js';

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(base: string, method: string, path: string, opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const res = await fetch(base + path, { method, body, headers: opts.headers, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

let kafka: RunningCluster;
let chaos: FakeChaos;
let withChaos: ControlServer;
const extra: ControlServer[] = [];
const get = (path: string) => call(kafka.controlUrl, 'GET', path);
const post = (path: string, body?: unknown) => call(kafka.controlUrl, 'POST', path, { body });
const del = (path: string) => call(kafka.controlUrl, 'DELETE', path);
const chaosCall = (method: string, path: string, body?: unknown) => call(withChaos.url, method, path, { body });

function chaosTarget(): ControlTarget {
  const target: ControlTarget = {
    cluster: kafka.cluster,
    chaos,
    get bootstrap() {
      return kafka.bootstrap;
    },
    stopNode: (id) => kafka.stopNode(id),
    startNode: (id) => kafka.startNode(id),
    reset: () => resetCluster(target, [{ name: 'start-topic', partitions: 2 }]),
  };
  return target;
}

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, proxy: false, topics: [{ name: 'start-topic', partitions: 2 }] });
  chaos = new FakeChaos();
  withChaos = await startControlServer(chaosTarget(), { log: silentLogger, maxBodyBytes: 4096 });
});
afterAll(async () => {
  await Promise.all([withChaos.close(), ...extra.map((s) => s.close())]);
  await kafka.stop();
});

describe('cluster and nodes', () => {
  test('GET /v1/version and /v1/cluster', async () => {
    expect(await get('/v1/version')).toMatchObject({ status: 200, body: { name: 'kafkaesque', version: '0.1.0', api: 'v1' } });
    const { status, body } = await get('/v1/cluster');
    expect(status).toBe(200);
    expect(body).toMatchObject({ clusterId: 'kafkaesque-cluster', controllerId: 0, bootstrap: kafka.bootstrap, proxy: false, seed: kafka.seed });
    expect(body.nodes.map((n: any) => [n.nodeId, n.alive, `${n.host}:${n.port}`])).toEqual([0, 1, 2].map((id) => [id, true, kafka.brokers.get(id)]));
    expect((await chaosCall('GET', '/v1/cluster')).body).toMatchObject({ proxy: true, seed: 1234 });
  });

  test('POST /v1/nodes/:id/stop and /start move leaderships and the controller', async () => {
    const stopped = await post('/v1/nodes/0/stop');
    expect(stopped).toMatchObject({ status: 200, body: { nodeId: 0, alive: false } });
    expect((await get('/v1/cluster')).body).toMatchObject({ controllerId: 1, bootstrap: [1, 2].map((id) => kafka.brokers.get(id)).join(',') });
    expect((await get('/v1/topics/start-topic')).body.partitions.every((p: any) => p.leader !== 0 && !p.isr.includes(0))).toBe(true);
    expect((await post('/v1/nodes/0/stop')).status).toBe(200); // already stopped: nothing to do
    expect(await post('/v1/nodes/0/start')).toMatchObject({ status: 200, body: { nodeId: 0, alive: true } });
    expect((await get('/v1/cluster')).body.controllerId).toBe(0);
  });

  test('node errors: unknown id 404, malformed id 400', async () => {
    expect(await post('/v1/nodes/7/stop')).toMatchObject({ status: 404, body: { error: 'not_found', message: 'node 7 does not exist' } });
    expect(await post('/v1/nodes/x/start')).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'id' } });
  });
});

describe('topics', () => {
  test('create, list, describe, delete', async () => {
    const created = await post('/v1/topics', { name: 'http-a', partitions: 3, replicationFactor: 2, configs: { 'retention.ms': '1000' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'http-a', internal: false, configs: { 'retention.ms': '1000' } });
    expect(created.body.partitions).toHaveLength(3);
    for (const p of created.body.partitions) {
      expect(p).toMatchObject({ leaderEpoch: 0, logStartOffset: 0, logEndOffset: 0, highWatermark: 0, lastStableOffset: 0 });
      expect(p.replicas).toHaveLength(2);
      expect(p.leader).toBe(p.replicas[0]);
    }
    const list = await get('/v1/topics');
    expect(list.body.topics.find((t: any) => t.name === 'http-a')).toEqual({ name: 'http-a', topicId: created.body.topicId, internal: false, partitions: 3, replicationFactor: 2 });
    expect((await get('/v1/topics/http-a')).body).toEqual(created.body);
    expect(await del('/v1/topics/http-a')).toMatchObject({ status: 200, body: { deleted: 'http-a' } });
    expect(await get('/v1/topics/http-a')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await del('/v1/topics/http-a')).status).toBe(404);
  });

  test('creation errors name the field or carry the Kafka error', async () => {
    await post('/v1/topics', { name: 'http-dup' });
    expect(await post('/v1/topics', { name: 'http-dup' })).toMatchObject({ status: 409, body: { error: 'topic_already_exists' } });
    expect(await post('/v1/topics', { name: 'bad/name' })).toMatchObject({ status: 400, body: { error: 'invalid_topic_exception' } });
    expect(await post('/v1/topics', { name: 'x', replicationFactor: 4 })).toMatchObject({ status: 400, body: { error: 'invalid_replication_factor' } });
    expect(await post('/v1/topics', { name: 'x', partitions: 0 })).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'partitions' } });
    expect(await post('/v1/topics', { name: 'x', partitons: 2 })).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'partitons' } });
    expect(await post('/v1/topics', { name: 'x', configs: { 'retention.ms': 5 } })).toMatchObject({ status: 400, body: { field: 'configs.retention.ms' } });
    expect(await post('/v1/topics', {})).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post('/v1/topics', [1])).toMatchObject({ status: 400, body: { error: 'bad_body' } });
    expect(await post('/v1/topics')).toMatchObject({ status: 400, body: { error: 'bad_body' } });
    expect((await get('/v1/topics')).body.topics.map((t: any) => t.name)).not.toContain('x');
  });
});

describe('records, producers, leaders', () => {
  // Recent timestamps: older producer state would have expired (producer.id.expiration.ms).
  const t0 = Date.now();
  beforeAll(() => {
    kafka.cluster.createTopic('rec', { numPartitions: 1, replicationFactor: 3 });
    const t = kafka.cluster.topic('rec')!;
    const append = (records: Buffer, transactionalId?: string) =>
      appendRecords(kafka.cluster, t, t.partitions[0]!, { records, produceVersion: 9, acks: 1, clientId: 'test', transactionalId });
    append(
      buildRecordBatch(
        [
          { key: 'k0', value: 'v0', headers: [{ key: 'h', value: 'x' }], timestamp: t0 },
          { key: null, value: Buffer.from([0xff, 0x00]), timestamp: t0 + 1 },
          { key: 'k2', value: null, timestamp: t0 + 2 },
        ],
        { producerId: 900, producerEpoch: 0, baseSequence: 0 },
      ),
    );
    append(buildRecordBatch([{ value: 'zipped-1' }, { value: 'zipped-2' }], { compression: Compression.Gzip }));
    // An open transaction, then its commit marker.
    const txns = kafka.cluster.transactions;
    const init = txns.initProducerId('tx-rec', 60_000, -1, -1);
    expect(txns.addPartitions('tx-rec', init.producerId, init.producerEpoch, [{ topic: 'rec', partition: 0 }])).toBe('NONE');
    append(buildRecordBatch([{ value: 'in-txn' }], { producerId: init.producerId, producerEpoch: init.producerEpoch, baseSequence: 0, transactional: true }), 'tx-rec');
  });

  test('GET records decodes keys, values, headers, compression and batch fields', async () => {
    const { status, body } = await get('/v1/topics/rec/partitions/0/records');
    expect(status).toBe(200);
    expect(body).toMatchObject({ topic: 'rec', partition: 0, logStartOffset: 0, logEndOffset: 6, highWatermark: 6, lastStableOffset: 5, nextOffset: 6, errors: [] });
    expect(body.records.map((r: any) => r.offset)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(body.records[0]).toEqual({
      offset: 0,
      timestamp: t0,
      key: 'k0',
      keyBase64: Buffer.from('k0').toString('base64'),
      value: 'v0',
      valueBase64: Buffer.from('v0').toString('base64'),
      headers: [{ key: 'h', value: 'x', valueBase64: Buffer.from('x').toString('base64') }],
      control: null,
      batch: { baseOffset: 0, leaderEpoch: 0, producerId: 900, producerEpoch: 0, baseSequence: 0, transactional: false, aborted: false, compression: 'none' },
    });
    expect(body.records[1]).toMatchObject({ key: null, keyBase64: null, valueBase64: '/wA=' });
    expect(body.records[2]).toMatchObject({ key: 'k2', value: null, valueBase64: null });
    expect(body.records[3]).toMatchObject({ value: 'zipped-1', batch: { baseOffset: 3, compression: 'gzip', producerId: -1 } });
    expect(body.records[5]).toMatchObject({ value: 'in-txn', control: null, batch: { transactional: true } });
  });

  test('records page with from and limit, also inside a batch', async () => {
    const page = (await get('/v1/topics/rec/partitions/0/records?from=1&limit=3')).body;
    expect(page.records.map((r: any) => r.offset)).toEqual([1, 2, 3]);
    expect(page.nextOffset).toBe(4);
    const next = (await get(`/v1/topics/rec/partitions/0/records?from=${page.nextOffset}&limit=3`)).body;
    expect(next.records.map((r: any) => r.offset)).toEqual([4, 5]);
    expect(next.nextOffset).toBe(6);
    expect((await get('/v1/topics/rec/partitions/0/records?from=99')).body).toMatchObject({ records: [], nextOffset: 6 });
  });

  test('records errors', async () => {
    expect(await get('/v1/topics/rec/partitions/0/records?from=-1')).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'from' } });
    expect(await get('/v1/topics/rec/partitions/0/records?limit=0')).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await get('/v1/topics/rec/partitions/0/records?offset=1')).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'offset' } });
    expect(await get('/v1/topics/rec/partitions/1/records')).toMatchObject({ status: 404, body: { message: 'partition rec-1 does not exist' } });
    expect(await get('/v1/topics/nope/partitions/0/records')).toMatchObject({ status: 404 });
    expect(await get('/v1/topics/rec/partitions/p/records')).toMatchObject({ status: 400, body: { field: 'partition' } });
  });

  test('GET producers and the open transaction, then the commit marker among the records', async () => {
    const producers = (await get('/v1/topics/rec/partitions/0/producers')).body.producers;
    const txnPid = kafka.cluster.transactions.get('tx-rec')!.producerId;
    expect(producers).toEqual(
      [
        { producerId: 900, producerEpoch: 0, lastSequence: 2, lastTimestamp: t0 + 2, coordinatorEpoch: -1, currentTxnStartOffset: null },
        { producerId: txnPid, producerEpoch: 0, lastSequence: 0, lastTimestamp: expect.any(Number), coordinatorEpoch: -1, currentTxnStartOffset: 5 },
      ].sort((a, b) => a.producerId - b.producerId),
    );
    const open = (await get('/v1/transactions/tx-rec')).body;
    expect(open).toMatchObject({ transactionalId: 'tx-rec', producerId: txnPid, producerEpoch: 0, state: 'Ongoing', pendingState: null, timeoutMs: 60_000, partitions: [{ topic: 'rec', partition: 0 }] });
    expect((await get('/v1/transactions')).body.transactions.map((t: any) => t.transactionalId)).toContain('tx-rec');

    expect(kafka.cluster.transactions.endTxn('tx-rec', txnPid, 0, true).error).toBe('NONE');
    expect((await get('/v1/transactions/tx-rec')).body).toMatchObject({ state: 'CompleteCommit', partitions: [] });
    const page = (await get('/v1/topics/rec/partitions/0/records?from=6')).body;
    expect(page).toMatchObject({ lastStableOffset: 7, highWatermark: 7 });
    expect(page.records).toEqual([expect.objectContaining({ offset: 6, control: 'COMMIT', key: null, value: null, batch: expect.objectContaining({ producerId: txnPid, transactional: true }) })]);
    expect(await get('/v1/transactions/nope')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  test('POST leader moves it, with the epoch; refusals are 400 or 409', async () => {
    kafka.cluster.createTopic('lead', { numPartitions: 1, replicationFactor: 3 });
    const first = (await get('/v1/topics/lead')).body.partitions[0];
    const moved = await post('/v1/topics/lead/partitions/0/leader', {});
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ topic: 'lead', partition: 0, leaderEpoch: first.leaderEpoch + 1, unclean: false, truncatedFrom: null });
    expect(moved.body.leader).not.toBe(first.leader);
    const to = first.replicas.find((r: number) => r !== moved.body.leader);
    expect((await post('/v1/topics/lead/partitions/0/leader', { to })).body).toMatchObject({ leader: to, leaderEpoch: first.leaderEpoch + 2 });
    expect((await get('/v1/topics/lead')).body.partitions[0]).toMatchObject({ leader: to, leaderEpoch: first.leaderEpoch + 2 });
    expect(await post('/v1/topics/lead/partitions/0/leader', { to: 9 })).toMatchObject({ status: 400, body: { error: 'invalid_replica_assignment' } });
    expect(await post('/v1/topics/lead/partitions/0/leader', { to: 'one' })).toMatchObject({ status: 400, body: { field: 'to' } });
    expect(await post('/v1/topics/lead/partitions/0/leader', { unclean: 'yes' })).toMatchObject({ status: 400, body: { field: 'unclean' } });
    const other = first.replicas.find((r: number) => r !== to);
    await kafka.stopNode(other);
    try {
      expect(await post('/v1/topics/lead/partitions/0/leader', { to: other })).toMatchObject({ status: 409, body: { error: 'broker_not_available' } });
    } finally {
      await kafka.startNode(other);
    }
  });
});

describe('groups', () => {
  test('GET /v1/groups and /v1/groups/:id show committed offsets and lag', async () => {
    ensureCoordinatorTopic(kafka.cluster, 0);
    const coordinator = kafka.cluster.groups.coordinatorFor(0, 'g-http');
    const errors = kafka.cluster.groups.handleCommitOffsets(coordinator, {
      groupId: 'g-http',
      memberId: '',
      groupInstanceId: null,
      generationId: -1,
      offsets: [{ topic: 'rec', partition: 0, offset: 2, leaderEpoch: -1, metadata: 'm' }],
    });
    expect(errors).toEqual(['NONE']);
    const list = (await get('/v1/groups')).body.groups;
    expect(list).toContainEqual({ groupId: 'g-http', state: 'Empty', protocolType: null, protocolName: null, members: 0, coordinator });
    const g = (await get('/v1/groups/g-http')).body;
    expect(g).toMatchObject({ groupId: 'g-http', state: 'Empty', generationId: 0, leaderId: null, coordinator, members: [] });
    const hw = kafka.cluster.partition('rec', 0)!.highWatermark;
    expect(g.offsets).toEqual([{ topic: 'rec', partition: 0, offset: 2, leaderEpoch: -1, metadata: 'm', commitTimestamp: expect.any(Number), lag: hw - 2 }]);
    expect(await get('/v1/groups/nope')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await get(`/v1/groups/${encodeURIComponent('g http/ü')}`)).toMatchObject({ status: 404, body: { message: "group 'g http/ü' does not exist" } });
  });
});

describe('faults and events', () => {
  test('without the proxy, fault routes answer 503; events still come', async () => {
    for (const [method, path] of [
      ['GET', '/v1/faults'],
      ['POST', '/v1/faults'],
      ['DELETE', '/v1/faults'],
      ['GET', '/v1/faults/r'],
      ['DELETE', '/v1/faults/r'],
      ['POST', '/v1/faults/r/wait'],
    ] as const) {
      expect(await call(kafka.controlUrl, method, path, { body: method === 'POST' ? { action: { type: 'drop' } } : undefined })).toMatchObject({ status: 503, body: { error: 'proxy_disabled' } });
    }
    // The node stop and start of the tests above, from the cluster's own controller.
    const kinds = (await get('/v1/events')).body.events.map((e: any) => `${e.kind}:${e.nodeId}`);
    expect(kinds).toEqual(expect.arrayContaining(['node-stopped:0', 'node-started:0']));
  });

  test('add, list with fire counts, get, remove, clear', async () => {
    const added = await chaosCall('POST', '/v1/faults', { id: 'slow', match: { api: 'Produce' }, action: { type: 'delay', ms: 100 } });
    expect(added).toMatchObject({ status: 201, body: { id: 'slow', trigger: { type: 'always' }, fired: 0, matched: 0, action: { type: 'delay', ms: 100 } } });
    const generated = (await chaosCall('POST', '/v1/faults', { action: { type: 'close' }, trigger: { type: 'nth', n: 2 } })).body;
    expect(generated.id).toMatch(/^rule-/);
    chaos.fire('slow');
    chaos.fire('slow');
    const list = (await chaosCall('GET', '/v1/faults')).body.faults;
    expect(list.map((r: any) => [r.id, r.fired])).toEqual([
      ['slow', 2],
      [generated.id, 0],
    ]);
    expect((await chaosCall('GET', '/v1/faults/slow')).body).toMatchObject({ id: 'slow', fired: 2, matched: 2 });
    expect(await chaosCall('DELETE', '/v1/faults/slow')).toMatchObject({ status: 200, body: { removed: 'slow' } });
    expect(await chaosCall('DELETE', '/v1/faults/slow')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await chaosCall('GET', '/v1/faults/slow')).toMatchObject({ status: 404 });
    expect(await chaosCall('DELETE', '/v1/faults')).toMatchObject({ status: 200, body: { removed: 1 } });
    expect((await chaosCall('GET', '/v1/faults')).body.faults).toEqual([]);
  });

  test('a refused rule is 400 invalid_rule with the field and the reason', async () => {
    expect(await chaosCall('POST', '/v1/faults', { action: { type: '' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_rule', field: 'action.type', reason: 'must name an action', message: 'action.type: must name an action' },
    });
    expect(await chaosCall('POST', '/v1/faults', { action: { type: 'drop' }, trigger: { type: 'sometimes' } })).toMatchObject({ status: 400, body: { field: 'trigger.type' } });
    expect(await chaosCall('POST', '/v1/faults', 'drop')).toMatchObject({ status: 400, body: { error: 'bad_body' } });
    expect(await chaosCall('POST', '/v1/faults')).toMatchObject({ status: 400, body: { error: 'bad_body' } });
    expect(chaos.rules()).toEqual([]);
  });

  test('wait resolves when the rule fires, 408 when it does not, 404 for no rule', async () => {
    await chaosCall('POST', '/v1/faults', { id: 'w', action: { type: 'drop' } });
    const waiting = chaosCall('POST', '/v1/faults/w/wait', { count: 2, timeoutMs: 5000 });
    chaos.fire('w');
    setTimeout(() => chaos.fire('w'), 20);
    expect(await waiting).toMatchObject({ status: 200, body: { id: 'w', fired: 2 } });
    expect(await chaosCall('POST', '/v1/faults/w/wait', { count: 3, timeoutMs: 50 })).toMatchObject({ status: 408, body: { error: 'timeout' } });
    expect(await chaosCall('POST', '/v1/faults/w/wait')).toMatchObject({ status: 200, body: { fired: 2 } });
    expect(await chaosCall('POST', '/v1/faults/w/wait', { count: 0 })).toMatchObject({ status: 400, body: { field: 'count' } });
    expect(await chaosCall('POST', '/v1/faults/none/wait')).toMatchObject({ status: 404 });
    chaos.clearRules();
  });

  test('GET events pages with since and limit; wait long-polls for the next one', async () => {
    const first = chaos.emit({ kind: 'node-stopped', nodeId: 1 });
    chaos.emit({ kind: 'node-started', nodeId: 1 });
    const all = (await chaosCall('GET', `/v1/events?since=${first.seq - 1}`)).body;
    expect(all.events.map((e: any) => e.kind)).toEqual(['node-stopped', 'node-started']);
    expect(all.next).toBe(first.seq + 1);
    expect((await chaosCall('GET', `/v1/events?since=${first.seq - 1}&limit=1`)).body).toMatchObject({ events: [{ seq: first.seq }], next: first.seq });
    expect((await chaosCall('GET', `/v1/events?since=${all.next}`)).body).toEqual({ events: [], next: all.next });

    const started = Date.now();
    const polled = chaosCall('GET', `/v1/events?since=${all.next}&wait=5000`);
    setTimeout(() => chaos.emit({ kind: 'leader-changed', topic: 'rec', partition: 0 }), 50);
    const got = (await polled).body;
    expect(got.events).toEqual([expect.objectContaining({ kind: 'leader-changed', seq: all.next + 1 })]);
    expect(Date.now() - started).toBeLessThan(4000);
    // Nothing new: the wait runs out with an empty page.
    expect((await chaosCall('GET', `/v1/events?since=${got.next}&wait=50`)).body).toEqual({ events: [], next: got.next });
    expect(await chaosCall('GET', '/v1/events?since=x')).toMatchObject({ status: 400, body: { field: 'since' } });
  });

  test('closing the server answers a pending long poll at once', async () => {
    const server = await startControlServer(chaosTarget(), { log: silentLogger });
    const polled = call(server.url, 'GET', `/v1/events?since=${chaos.events().length}&wait=20000`);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await server.close();
    expect((await polled).body.events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('HTTP errors', () => {
  test('unknown route 404, wrong method 405 with Allow, bad JSON 400, large body 413', async () => {
    expect(await get('/v1/nope')).toMatchObject({ status: 404, body: { error: 'unknown_route' } });
    expect(await get('/v1')).toMatchObject({ status: 404 });
    const wrong = await call(kafka.controlUrl, 'PUT', '/v1/topics');
    expect(wrong).toMatchObject({ status: 405, body: { error: 'method_not_allowed' } });
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(await call(kafka.controlUrl, 'POST', '/v1/topics', { raw: '{"name":' })).toMatchObject({ status: 400, body: { error: 'bad_json' } });
    expect(await call(withChaos.url, 'POST', '/v1/topics', { raw: JSON.stringify({ name: 'x'.repeat(5000) }) })).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    expect(await get('/v1/topics/%E0%A4%A')).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'name' } });
  });

  test('each route has the body cap it needs: 64 KiB by default, more for the audit and a preset', async () => {
    const big = JSON.stringify({ name: 'x', configs: { 'cleanup.policy': 'd'.repeat(100 * 1024) } });
    expect(await call(kafka.controlUrl, 'POST', '/v1/topics', { raw: big })).toMatchObject({ status: 413, body: { error: 'body_too_large', message: expect.stringContaining('65536 bytes') } });
    const audit = await call(kafka.controlUrl, 'POST', '/v1/audit', { body: { topics: ['start-topic'], processed: Array.from({ length: 20_000 }, (_, i) => `id-${i}`) } });
    expect(audit).toMatchObject({ status: 200, body: { counts: { processed: 20_000, unmatched: 20_000 } } });
    expect(audit.body.unmatched).toHaveLength(100);
    expect(await call(kafka.controlUrl, 'POST', '/v1/audit', { raw: '{"processed":["a"' })).toMatchObject({ status: 400, body: { error: 'bad_json' } });
    expect(await call(kafka.controlUrl, 'POST', '/v1/audit', { raw: '{"processed":["a", nope]}' })).toMatchObject({ status: 400, body: { error: 'bad_parameter', field: 'processed[1]' } });
    expect((await call(kafka.controlUrl, 'POST', '/v1/presets/p/apply', { body: { preset: { name: 'p', description: 'd'.repeat(100 * 1024), rules: [] } } })).status).toBe(503);
  });

  test('presets: listed and shown; apply needs the proxy; an unknown one is 404 (test/presets/ applies them)', async () => {
    const list = await get('/v1/presets');
    expect(list.status).toBe(200);
    expect(list.body.presets.map((p: { name: string }) => p.name)).toContain('lost-ack');
    expect(await get('/v1/presets/lost-ack')).toMatchObject({ status: 200, body: { name: 'lost-ack', rules: [{ action: { type: 'drop-response' } }] } });
    expect((await get('/v1/presets/lost-ack')).body.file).toBeUndefined();
    expect(await get('/v1/presets/nope')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await post('/v1/presets/lost-ack/apply')).toMatchObject({ status: 503, body: { error: 'proxy_disabled' } });
  });
});

describe('token and locality', () => {
  test('with a token: 401 without it or with a wrong one, 200 with it', async () => {
    const server = await startControlServer(chaosTarget(), { log: silentLogger, token: 's3cret' });
    extra.push(server);
    const missing = await call(server.url, 'GET', '/v1/version');
    expect(missing).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="kafkaesque"');
    expect((await call(server.url, 'GET', '/v1/version', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await call(server.url, 'GET', '/v1/version', { headers: { authorization: 's3cret' } })).status).toBe(401);
    expect((await call(server.url, 'GET', '/v1/version', { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
  });

  test('startCluster passes controlToken on', async () => {
    const k = await startCluster({ brokers: 1, controlToken: 'tok' });
    try {
      expect((await call(k.controlUrl, 'GET', '/v1/cluster')).status).toBe(401);
      expect((await call(k.controlUrl, 'GET', '/v1/cluster', { headers: { authorization: 'Bearer tok' } })).status).toBe(200);
    } finally {
      await k.stop();
    }
    await expect(fetch(k.controlUrl + '/v1/version')).rejects.toThrow();
  });

  test('a browser request from another origin (Origin) is refused with 403, with allowRemote too; the API\'s own origin is served', async () => {
    expect(await call(kafka.controlUrl, 'GET', '/v1/version', { headers: { origin: 'http://example.com' } })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await call(kafka.controlUrl, 'GET', '/v1/version', { headers: { origin: kafka.controlUrl } })).status).toBe(200);
    const open = await startControlServer(chaosTarget(), { log: silentLogger, allowRemote: true });
    extra.push(open);
    expect((await call(open.url, 'POST', '/v1/reset', { headers: { origin: 'http://example.com' } })).status).toBe(403);
    expect((await call(open.url, 'GET', '/v1/version', { headers: { origin: 'null' } })).status).toBe(403);
    expect((await call(open.url, 'GET', '/v1/version', { headers: { origin: open.url } })).status).toBe(200);
  });

  test('address and token checks', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', '127.0.0.1.evil', undefined]) expect(isLoopbackAddress(a)).toBe(false);
    expect(notLocalReason('127.0.0.1')).toBeNull();
    expect(notLocalReason('10.1.1.1')).toMatch(/10\.1\.1\.1 are refused/);
    expect(crossOriginReason('http://localhost:3000', 'localhost:4000')).toMatch(/browser requests from another origin/);
    expect(crossOriginReason('http://LOCALHOST:4000', 'localhost:4000')).toBeNull();
    expect(crossOriginReason(undefined, 'localhost:4000')).toBeNull();
    expect(hasToken('Bearer abc', 'abc')).toBe(true);
    expect(hasToken('bearer  abc', 'abc')).toBe(true);
    expect(hasToken('Bearer abcd', 'abc')).toBe(false);
    expect(hasToken('Basic abc', 'abc')).toBe(false);
    expect(hasToken(undefined, 'abc')).toBe(false);
  });

  // A real non-loopback client needs a non-loopback address on this machine: connect to it.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  (external ? test : test.skip)(`a request from a non-loopback address (${external}) is refused with 403 unless allowRemote`, async () => {
    const closed = await startControlServer(chaosTarget(), { log: silentLogger, host: '0.0.0.0' });
    const open = await startControlServer(chaosTarget(), { log: silentLogger, host: '0.0.0.0', allowRemote: true });
    extra.push(closed, open);
    expect(closed.url).toBe(`http://127.0.0.1:${closed.port}`);
    expect((await call(closed.url, 'GET', '/v1/version')).status).toBe(200);
    expect(await call(`http://${external}:${closed.port}`, 'GET', '/v1/version')).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await call(`http://${external}:${open.port}`, 'GET', '/v1/version')).status).toBe(200);
  });
});

describe('reset', () => {
  test('clears faults, starts stopped nodes, deletes topics, groups and transactions, recreates the start topics', async () => {
    await chaosCall('POST', '/v1/faults', { id: 'r', action: { type: 'drop' } });
    await post('/v1/nodes/2/stop');
    expect((await get('/v1/groups')).body.groups.length).toBeGreaterThan(0);
    expect((await get('/v1/transactions')).body.transactions.length).toBeGreaterThan(0);
    kafka.cluster.createTopic('start-topic-extra');
    const ports = (await get('/v1/cluster')).body.nodes.map((n: any) => n.port);
    const { status, body } = await chaosCall('POST', '/v1/reset');
    expect(status).toBe(200);
    // A warm cluster (the default) gets its internal topics back too.
    expect(body).toMatchObject({ rulesCleared: 1, nodesStarted: [2], topicsCreated: ['__consumer_offsets', '__transaction_state', 'start-topic'], groupsDeleted: 1, transactionsDeleted: 1 });
    expect(body.topicsDeleted).toEqual(expect.arrayContaining(['start-topic', 'start-topic-extra', 'rec', '__consumer_offsets']));
    expect((await chaosCall('GET', '/v1/faults')).body.faults).toEqual([]);
    expect((await get('/v1/topics')).body.topics.map((t: any) => t.name)).toEqual(['__consumer_offsets', '__transaction_state', 'start-topic']);
    expect((await get('/v1/groups')).body.groups).toEqual([]);
    expect((await get('/v1/transactions')).body.transactions).toEqual([]);
    const after = (await get('/v1/cluster')).body.nodes;
    expect(after.map((n: any) => n.alive)).toEqual([true, true, true]);
    expect(after.map((n: any) => n.port)).toEqual(ports);
    // RunningCluster's own reset (the cluster's control URL) uses its start topics too.
    const internal = ['__consumer_offsets', '__transaction_state'];
    expect((await post('/v1/reset')).body).toMatchObject({ rulesCleared: 0, topicsDeleted: [...internal, 'start-topic'], topicsCreated: [...internal, 'start-topic'], presetsApplied: [] });
  });

  test('applies the start presets again, with their triggers counting from zero', async () => {
    const running = await startCluster({ brokers: 1, presets: ['lost-ack'], logLevel: 'silent' });
    try {
      const [rule] = running.chaos.rules();
      running.chaos.removeRule(rule.id);
      running.chaos.addRule({ id: 'mine', action: { type: 'delay', ms: 1 } });
      const result = await running.reset();
      expect(result).toMatchObject({ rulesCleared: 1, presetsApplied: ['lost-ack'] });
      expect(running.chaos.rules()).toEqual([expect.objectContaining({ match: rule.match, trigger: rule.trigger, action: rule.action, matched: 0, fired: 0 })]);
    } finally {
      await running.stop();
    }
  });
});
