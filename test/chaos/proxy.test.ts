// The proxy core on the wire, with a raw client: frames pass untouched,
// answers keep request order whatever the faults do, held frames are
// released when their rule goes, and a stopped node looks stopped.
import { connect } from 'node:net';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { RuleValidationError } from '../../src/chaos/api.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { ensureCoordinatorTopic } from '../../src/broker/coordinators.js';
import { buildRecordBatch, decodeRecords, splitBatches, type KafkaRecord } from '../../src/protocol/record-batch.js';
import { WireClient, correlationOf, decodeResponse } from '../support/wire-client.js';
import { encodeRequest } from '../../src/protocol/headers.js';
import { isAcksZeroProduce } from '../../src/chaos/proxy-connection.js';

let kafka: RunningCluster;
const clients: WireClient[] = [];
const open = async (address = kafka.brokers.get(0)!) => {
  const c = await WireClient.connect(address);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  kafka = await startCluster({ brokers: 2, seed: 7, topics: [{ name: 'w', partitions: 1, replicationFactor: 1 }] });
});
afterEach(() => {
  kafka.chaos.clearRules();
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => kafka.stop());

const leaderAddress = () => kafka.brokers.get(kafka.cluster.partition('w', 0)!.leader)!;
const produceBody = (acks: number, value = 'x') => ({
  acks,
  timeoutMs: 1000,
  topicData: [{ name: 'w', partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from(value) }]) }] }],
});
/** The values in partition w-0, read with a Fetch through the proxy. */
async function fetchValues(): Promise<string[]> {
  const c = await open(leaderAddress());
  const r = await c.request(ApiKey.Fetch, 11, {
    maxWaitMs: 0, minBytes: 0, maxBytes: 1 << 20, isolationLevel: 0, sessionEpoch: -1,
    topics: [{ topic: 'w', partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20 }] }],
  });
  return splitBatches(r.responses[0].partitions[0].records).batches.flatMap((b) => decodeRecords(b).map((rec: KafkaRecord) => rec.value?.toString() ?? ''));
}
const logEnd = () => kafka.cluster.partition('w', 0)!.logEndOffset;
const resetOrClose = (c: WireClient) =>
  new Promise<string>((resolve) => {
    c.socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    c.socket.once('close', () => setImmediate(() => resolve('closed')));
  });

test('the cluster advertises the proxy listeners everywhere, and the seed is the one given', async () => {
  expect(kafka.proxy).toBe(true);
  expect(kafka.seed).toBe(7);
  expect(kafka.chaos.seed).toBe(7);
  const c = await open();
  const meta = await c.request(ApiKey.Metadata, 12, { topics: null });
  expect(meta.brokers.map((b: any) => `${b.host}:${b.port}`).sort()).toEqual([...kafka.brokers.values()].sort());
  const cluster = await c.request(ApiKey.DescribeCluster, 1, {});
  expect(cluster.brokers.map((b: any) => `${b.host}:${b.port}`).sort()).toEqual([...kafka.brokers.values()].sort());
  ensureCoordinatorTopic(kafka.cluster, 0); // else the first FindCoordinator meets COORDINATOR_NOT_AVAILABLE
  const coord = (await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['g'] })).coordinators[0];
  expect(coord.errorCode).toBe(0);
  expect([...kafka.brokers.values()]).toContain(`${coord.host}:${coord.port}`);
  // A rule on this connection fires: the traffic went through the proxy.
  kafka.chaos.addRule({ id: 'seen', match: { api: 'ApiVersions' }, action: { type: 'delay', ms: 0 } });
  await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
  expect(kafka.chaos.rule('seen')!.fired).toBe(1);
});

test('a delayed answer holds back the later ones on its connection', async () => {
  kafka.chaos.addRule({ match: { api: 'Metadata' }, trigger: { type: 'first', n: 1 }, action: { type: 'delay', ms: 200 } });
  const c = await open();
  const started = Date.now();
  const first = c.send(ApiKey.Metadata, 9, { topics: [] });
  const second = c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
  const a = await c.nextFrame();
  const b = await c.nextFrame();
  expect([correlationOf(a!), correlationOf(b!)]).toEqual([first, second]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
});

test('an answer the proxy makes itself waits for the answers owed before it', async () => {
  kafka.chaos.addRule({ match: { api: 'Metadata' }, action: { type: 'delay', ms: 150 } });
  kafka.chaos.addRule({ match: { api: 'ApiVersions' }, action: { type: 'error', code: 'COORDINATOR_NOT_AVAILABLE' } });
  const c = await open();
  const first = c.send(ApiKey.Metadata, 9, { topics: [] });
  const second = c.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
  const a = await c.nextFrame();
  const b = await c.nextFrame();
  expect(correlationOf(a!)).toBe(first);
  expect(decodeResponse(b!, ApiKey.ApiVersions, 3, second)).toMatchObject({ errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE });
});

test('removing the rule releases a held answer at once; nothing is dropped', async () => {
  const rule = kafka.chaos.addRule({ match: { api: 'Metadata' }, action: { type: 'delay', ms: 60_000 } });
  const c = await open();
  const id = c.send(ApiKey.Metadata, 9, { topics: [] });
  await kafka.chaos.waitForFired(rule.id, 1, 5000);
  const pending = c.nextFrame(5000);
  kafka.chaos.removeRule(rule.id);
  expect(correlationOf((await pending)!)).toBe(id);
});

test('clearing the rules releases held requests too, in their order', async () => {
  const hold = kafka.chaos.addRule({ match: { api: 'Produce' }, trigger: { type: 'first', n: 1 }, action: { type: 'delay', direction: 'request', ms: 60_000 } });
  const seen = kafka.chaos.addRule({ match: { api: 'Produce' }, action: { type: 'delay', ms: 0 } });
  const c = await open(leaderAddress());
  const before = logEnd();
  const ids = [c.send(ApiKey.Produce, 9, produceBody(1, 'first')), c.send(ApiKey.Produce, 9, produceBody(1, 'second'))];
  await kafka.chaos.waitForFired(hold.id, 1, 5000);
  await kafka.chaos.waitForFired(seen.id, 2, 5000);
  // A round trip to the same broker on another connection, then: it has neither, the second waits behind the first.
  await (await open(leaderAddress())).request(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
  expect(logEnd()).toBe(before);
  expect(kafka.chaos.clearRules()).toBe(2);
  const got = [await c.nextFrame(), await c.nextFrame()].map((f) => correlationOf(f!));
  expect(got).toEqual(ids);
  expect(logEnd()).toBe(before + 2);
  const values = (await fetchValues()).slice(-2);
  expect(values).toEqual(['first', 'second']);
});

test('Produce with acks=0 takes no slot: later answers are not held up by it', async () => {
  kafka.chaos.addRule({ action: { type: 'delay', ms: 0 } }); // rules on: the slow path
  const c = await open(leaderAddress());
  const before = logEnd();
  c.send(ApiKey.Produce, 9, produceBody(0));
  const id = c.send(ApiKey.Metadata, 9, { topics: [] });
  expect(correlationOf((await c.nextFrame(3000))!)).toBe(id);
  expect(logEnd()).toBe(before + 1);
});

test('error before: the broker never sees the request; error after: it did, the client is told otherwise', async () => {
  const c = await open(leaderAddress());
  const before = logEnd();
  kafka.chaos.addRule({ id: 'b', match: { api: 'Produce' }, trigger: { type: 'first', n: 1 }, action: { type: 'error', code: 'NOT_ENOUGH_REPLICAS' } });
  const r1 = await c.request(ApiKey.Produce, 9, produceBody(1));
  expect(r1.responses[0].partitionResponses[0]).toMatchObject({ index: 0, errorCode: ErrorCode.NOT_ENOUGH_REPLICAS, baseOffset: -1 });
  expect(logEnd()).toBe(before);
  kafka.chaos.addRule({ id: 'a', match: { api: 'Produce' }, action: { type: 'error', code: 'REQUEST_TIMED_OUT', when: 'after' } });
  const r2 = await c.request(ApiKey.Produce, 9, produceBody(1));
  expect(r2.responses[0].partitionResponses[0]).toMatchObject({ errorCode: ErrorCode.REQUEST_TIMED_OUT });
  expect(logEnd()).toBe(before + 1);
});

test('close resets the connection instead of forwarding', async () => {
  kafka.chaos.addRule({ match: { api: 'Produce' }, action: { type: 'close' } });
  const c = await open(leaderAddress());
  const before = logEnd();
  const how = resetOrClose(c);
  c.send(ApiKey.Produce, 9, produceBody(1));
  expect(await how).toBe('ECONNRESET');
  expect(logEnd()).toBe(before);
});

test('drop-response: the broker appends, the answer is lost and the connection resets', async () => {
  kafka.chaos.addRule({ match: { api: 'Produce' }, action: { type: 'drop-response' } });
  const c = await open(leaderAddress());
  const before = logEnd();
  const how = resetOrClose(c);
  c.send(ApiKey.Produce, 9, produceBody(1));
  expect(await how).toBe('ECONNRESET');
  expect(logEnd()).toBe(before + 1);
});

test("drop-response then 'hang': that answer never comes, later ones still do", async () => {
  kafka.chaos.addRule({ match: { api: 'Produce' }, trigger: { type: 'first', n: 1 }, action: { type: 'drop-response', then: 'hang' } });
  const c = await open(leaderAddress());
  const before = logEnd();
  c.send(ApiKey.Produce, 9, produceBody(1));
  const id = c.send(ApiKey.Produce, 9, produceBody(1));
  const frame = await c.nextFrame(3000);
  expect(correlationOf(frame!)).toBe(id);
  expect(logEnd()).toBe(before + 2);
  expect(c.closed).toBe(false);
});

test('a stopped node resets its proxied connections and refuses new ones; started, it accepts again', async () => {
  const address = kafka.brokers.get(1)!;
  const c = await open(address);
  await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
  const how = resetOrClose(c);
  await kafka.stopNode(1);
  expect(await how).toBe('ECONNRESET');
  const [host, port] = address.split(':');
  const refused = await new Promise<string>((resolve) => {
    const s = connect({ host, port: Number(port) }, () => resolve('connected'));
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
  expect(refused).toBe('ECONNREFUSED');
  await kafka.startNode(1);
  const again = await open(address);
  expect(await again.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' })).toMatchObject({ errorCode: 0 });
  expect(kafka.chaos.events().filter((e) => e.nodeId === 1 && e.kind.startsWith('node-')).map((e) => e.kind).slice(-2)).toEqual(['node-stopped', 'node-started']);
});

test('a connection the broker closes is closed through the proxy', async () => {
  const c = await open();
  // A header too short to read: the broker closes; so does the proxy.
  c.writeRaw(Buffer.from([0, 0, 0, 2, 0, 1]));
  expect(await c.whenClosed(3000)).toBe(true);
});

test('without the proxy, clients reach the brokers directly and rules are refused', async () => {
  const direct = await startCluster({ brokers: 1, proxy: false, seed: 3 });
  try {
    expect(direct.proxy).toBe(false);
    expect(direct.chaos.proxy).toBe(false);
    expect(() => direct.chaos.addRule({ action: { type: 'close' } })).toThrow(RuleValidationError);
    const c = await WireClient.connect(direct.bootstrap);
    clients.push(c);
    expect(await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 't', clientSoftwareVersion: '1' })).toMatchObject({ errorCode: 0 });
  } finally {
    await direct.stop();
  }
});

test('acks=0 is read from the bytes of every Produce version, whatever the client id and transactional id', () => {
  for (let v = 0; v <= 11; v++) {
    for (const acks of [0, 1, -1]) {
      for (const clientId of [null, '', 'a-rather-long-client-id-'.repeat(6)]) {
        for (const transactionalId of [null, 'tx-1']) {
          const frame = encodeRequest(ApiKey.Produce, v, 5, clientId, { ...produceBody(acks), transactionalId: v >= 3 ? transactionalId : null });
          expect([v, acks, clientId, transactionalId, isAcksZeroProduce(frame, v)]).toEqual([v, acks, clientId, transactionalId, acks === 0]);
        }
      }
    }
  }
});
