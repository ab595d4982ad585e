// Upstream mode against a cluster it did not start: kafkaesque's in-memory
// cluster without its own proxy (proxy: false) plays the upstream, and
// startProxy fronts it. Real kafkajs clients over real sockets; every
// socket kafkajs opens is recorded (socketFactory), to prove that no client
// connection bypassed the proxy.
import { connect, createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { RuleValidationError, startCluster, startProxy, type RunningCluster, type RunningProxy } from '../../src/index.js';
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { responseFrame } from '../../src/chaos/response-frame.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { createTopics, fetchPartition, messages, readInGroup } from '../support/kafkajs.js';
import { WireClient, decodeResponse } from '../support/wire-client.js';

let backend: RunningCluster;
let front: RunningProxy;
/** host:port of every socket a kafkajs client of this file opened. */
const dialled: string[] = [];

const recordingSocketFactory: ISocketFactory = ({ host, port, onConnect }) => {
  dialled.push(`${host}:${port}`);
  return connect({ host, port }, onConnect);
};

function client(clientId: string, extra: Partial<ConstructorParameters<typeof Kafka>[0]> = {}): Kafka {
  return new Kafka({
    clientId,
    brokers: front.bootstrap.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 50 },
    socketFactory: recordingSocketFactory,
    ...extra,
  });
}

beforeAll(async () => {
  backend = await startCluster({ brokers: 3, proxy: false });
  // Only the first broker is given: the others must be discovered through Metadata.
  front = await startProxy({ upstream: backend.brokers.get(0)!, seed: 7 });
});
afterEach(() => front.chaos.clearRules());
afterAll(async () => {
  await front?.stop();
  await backend?.stop();
});

/** Every address a client may use: the proxy's bootstrap listener and its listener per upstream node. */
function proxyAddresses(): Set<string> {
  return new Set([...front.bootstrap.split(','), ...front.brokers.values()]);
}

test('kafkajs produces and consumes in a group through the proxy alone; every broker gets a proxy listener', async () => {
  const topic = 'upstream-group';
  const kafka = client('upstream-group');
  await createTopics(kafka, { topic, numPartitions: 3, replicationFactor: 3 });
  // Counts the FindCoordinator answers that go through (a zero delay changes nothing else).
  const coordinator = front.chaos.addRule({ match: { api: 'FindCoordinator' }, action: { type: 'delay', ms: 0 } });

  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, messages: messages(30, 'g') });
  await producer.disconnect();

  const seen = await readInGroup(kafka, topic, 30, { groupId: 'upstream-readers', sessionTimeout: 6000, heartbeatInterval: 500 });
  expect(seen.sort()).toEqual(messages(30, 'g').map((m) => String(m.value)).sort());
  expect(front.chaos.rule(coordinator.id)!.fired).toBeGreaterThanOrEqual(1);
  // The group really lives upstream: kafkaesque's model of it is the backend's.
  expect(backend.cluster.groups.committedOffsets('upstream-readers').length).toBeGreaterThan(0);

  // A proxy listener per upstream broker, forwarding to that broker's own listener.
  expect([...front.brokers.keys()]).toEqual([0, 1, 2]);
  const nodes = await new ControlClient(front.controlUrl).cluster();
  for (const id of [0, 1, 2]) expect(nodes.nodes.find((n) => n.nodeId === id)?.upstream).toBe(backend.brokers.get(id));

  // No connection bypassed the proxy: every socket kafkajs opened went to a proxy listener.
  const allowed = proxyAddresses();
  const upstreamAddresses = new Set(backend.brokers.values());
  expect(dialled.length).toBeGreaterThan(3);
  expect(dialled.filter((a) => !allowed.has(a))).toEqual([]);
  expect(dialled.filter((a) => upstreamAddresses.has(a))).toEqual([]);
});

test('drop-response fires through upstream mode: the idempotent retry is deduplicated by the upstream', async () => {
  const topic = 'upstream-lost-ack';
  const kafka = client('upstream-lost-ack');
  await createTopics(kafka, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const rule = front.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
    const acks = await producer.send({ topic, acks: -1, messages: messages(3, 'v') });
    expect(front.chaos.rule(rule.id)).toMatchObject({ fired: 1 });
    expect(front.chaos.rule(rule.id)!.matched).toBeGreaterThanOrEqual(2);
    expect(acks[0]).toMatchObject({ baseOffset: '0' });
    const events = front.chaos.events().filter((e) => e.ruleId === rule.id);
    expect(events).toEqual([expect.objectContaining({ kind: 'fault', action: 'drop-response', api: 'Produce', topic })]);
  } finally {
    await producer.disconnect();
  }
  expect((await fetchPartition(client('upstream-reader'), topic, 0)).map((m) => m.value)).toEqual(['v0', 'v1', 'v2']);
  const allowed = proxyAddresses();
  expect(dialled.filter((a) => !allowed.has(a))).toEqual([]);
});

test('actions that need the in-memory cluster are refused, naming action.type; so is a preset holding one', async () => {
  for (const action of [
    { type: 'move-leader', topic: 't', partition: 0 },
    { type: 'stop-node', nodeId: 0 },
    { type: 'start-node', nodeId: 0 },
    { type: 'fence', transactionalId: 'x' },
    { type: 'expire-producer', producerId: 1 },
    { type: 'rewind', groupId: 'g', to: 'earliest' },
    { type: 'rebalance', groupId: 'g' },
    { type: 'duplicate-fetch', by: 1 },
  ]) {
    let err: unknown;
    try {
      front.chaos.addRule({ action });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RuleValidationError);
    expect(err).toMatchObject({ field: 'action.type', reason: `'${action.type}' needs kafkaesque's in-memory cluster; not available in upstream mode` });
  }
  // Node ids are the upstream's, known only as they show up: any is accepted.
  expect(front.chaos.addRule({ match: { nodeId: 42 }, action: { type: 'close' } }).match).toEqual({ nodeId: 42 });
  front.chaos.clearRules();

  const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-upstream-'));
  try {
    const file = join(dir, 'mixed-story.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'mixed-story',
        description: 'a wire fault, then one that needs the model',
        expect: 'refused in upstream mode',
        rules: [{ action: { type: 'delay', ms: 5 } }, { action: { type: 'stop-node', nodeId: 0 } }],
      }),
    );
    await expect(startProxy({ upstream: backend.brokers.get(0)!, presets: [file] })).rejects.toThrow(
      `${file}: rules[1].action.type: 'stop-node' needs kafkaesque's in-memory cluster; not available in upstream mode`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(front.chaos.rules()).toEqual([]);
});

test('the control API: faults, events, presets and reset work; cluster-model routes answer 409 upstream_mode', async () => {
  const api = new ControlClient(front.controlUrl);
  const view = await api.cluster();
  expect(view).toMatchObject({ upstream: backend.brokers.get(0), proxy: true, seed: 7, bootstrap: front.bootstrap, clusterId: backend.cluster.clusterId });
  expect(view.nodes.find((n) => n.nodeId === -1)).toMatchObject({ upstream: backend.brokers.get(0) });

  await api.addFault({ id: 'slow', match: { api: 'Metadata' }, action: { type: 'delay', ms: 1 } });
  expect((await api.faults()).map((f) => f.id)).toEqual(['slow']);
  const refused = await api.addFault({ action: { type: 'rewind', groupId: 'g', to: 0 } }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ControlError);
  expect(refused).toMatchObject({ status: 400, error: 'invalid_rule', field: 'action.type' });

  for (const call of [() => api.topics(), () => api.groups(), () => api.stopNode(0), () => api.transactions()]) {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect(err).toMatchObject({ status: 409, error: 'upstream_mode' });
    expect((err as Error).message).toMatch(/not available in upstream mode/);
  }
  expect(await api.version()).toMatchObject({ name: 'kafkaesque', api: 'v1' });
  expect((await api.events()).events.length).toBeGreaterThan(0); // the faults fired by the tests above
  const applied = await api.applyPreset('lost-ack').catch((e: unknown) => e);
  expect(applied).not.toBeInstanceOf(Error);
  expect(await api.reset()).toMatchObject({ rulesCleared: 1 + (applied as { rules: unknown[] }).rules.length, topicsDeleted: [] });
  expect(await api.faults()).toEqual([]);
});

test('Fetch v13+ names topics by id: a topic match works once a Metadata answer taught the proxy the ids', async () => {
  const topic = 'upstream-topic-ids';
  backend.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 1 });
  const leader = backend.cluster.partition(topic, 0)!.leader;
  const wire = await WireClient.connect(front.brokers.get(leader) ?? front.bootstrap.split(',')[0]!);
  try {
    const md = await wire.request(ApiKey.Metadata, 12, { topics: [{ name: topic, topicId: '00000000-0000-0000-0000-000000000000' }], allowAutoTopicCreation: false });
    const topicId = md.topics[0].topicId as string;
    const rule = front.chaos.addRule({ match: { api: 'Fetch', topic }, action: { type: 'error', code: 'NOT_LEADER_OR_FOLLOWER' } });
    const wireLeader = await WireClient.connect(front.brokers.get(leader)!);
    try {
      const res = await wireLeader.request(ApiKey.Fetch, 13, {
        replicaId: -1,
        maxWaitMs: 0,
        minBytes: 0,
        maxBytes: 1 << 20,
        isolationLevel: 0,
        topics: [{ topicId, partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1, logStartOffset: -1, lastFetchedEpoch: -1 }] }],
        forgottenTopicsData: [],
        rackId: '',
      });
      expect(front.chaos.rule(rule.id)!.fired).toBe(1);
      expect(res.responses[0].partitions[0].errorCode).toBe(6);
    } finally {
      wireLeader.close();
    }
  } finally {
    wire.close();
  }
});

test('Produce v10 to a former leader: the new leader endpoint in the answer (KIP-951) is the proxy listener', async () => {
  const topic = 'upstream-node-endpoints';
  backend.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  // Learn every node first (Metadata), then move the leadership away from the node we send to.
  const boot = await WireClient.connect(front.bootstrap.split(',')[0]!);
  await boot.request(ApiKey.Metadata, 12, { topics: [{ name: topic, topicId: '00000000-0000-0000-0000-000000000000' }], allowAutoTopicCreation: false });
  boot.close();
  const old = backend.cluster.partition(topic, 0)!.leader;
  const moved = backend.cluster.electLeader(topic, 0, {});
  expect(moved.ok).toBe(true);
  const now = backend.cluster.partition(topic, 0)!.leader;
  expect(now).not.toBe(old);
  const wire = await WireClient.connect(front.brokers.get(old)!);
  try {
    const res = await wire.request(ApiKey.Produce, 10, { transactionalId: null, acks: -1, timeoutMs: 5000, topicData: [{ name: topic, partitionData: [{ index: 0, records: null }] }] });
    expect(res.responses[0].partitionResponses[0].errorCode).toBe(6);
    const [proxyHost, proxyPort] = front.brokers.get(now)!.split(':');
    expect(res.nodeEndpoints).toEqual([expect.objectContaining({ nodeId: now, host: proxyHost, port: Number(proxyPort) })]);
  } finally {
    wire.close();
  }
});

test('FindCoordinator v1 (one node) and v4 (coordinators[]) and DescribeCluster answers name proxy listeners only', async () => {
  const wire = await WireClient.connect(front.bootstrap.split(',')[0]!);
  const proxied = new Set(front.brokers.values());
  const upstream = new Set(backend.brokers.values());
  const check = (e: { host: string; port: number }) => {
    expect(proxied.has(`${e.host}:${e.port}`)).toBe(true);
    expect(upstream.has(`${e.host}:${e.port}`)).toBe(false);
  };
  try {
    const v1 = await wire.request(ApiKey.FindCoordinator, 1, { key: 'some-group', keyType: 0 });
    expect(v1.errorCode).toBe(0);
    check(v1);
    const v4 = await wire.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['g1', 'g2', 'g3'] });
    expect(v4.coordinators).toHaveLength(3);
    for (const c of v4.coordinators) check(c);
    const dc = await wire.request(ApiKey.DescribeCluster, 0, { includeClusterAuthorizedOperations: false });
    expect(dc.brokers.map((b: { brokerId: number }) => b.brokerId).sort()).toEqual([0, 1, 2]);
    for (const b of dc.brokers) check(b);
  } finally {
    wire.close();
  }
});

test('a Metadata answer too big for cut-through is still rewritten, and pipelined answers keep request order while new listeners start', async () => {
  // A second proxy that has seen no node yet: its first Metadata answer waits for three listeners to start.
  const fresh = await startProxy({ upstream: backend.brokers.get(1)! });
  const wire = await WireClient.connect(fresh.bootstrap);
  try {
    // About 200 KB: it reaches the proxy in several chunks, where cut-through would start streaming it.
    for (let i = 0; i < 1500; i++) backend.cluster.createTopic(`big-metadata-${String(i).padStart(4, '0')}-${'x'.repeat(60)}`, { numPartitions: 1, replicationFactor: 1 });
    const ids = [
      wire.send(ApiKey.Metadata, 9, { topics: null, allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false }),
      wire.send(ApiKey.ApiVersions, 0, {}),
      wire.send(ApiKey.Metadata, 1, { topics: [] }),
      wire.send(ApiKey.ApiVersions, 0, {}),
    ];
    const frames: Buffer[] = [];
    for (let i = 0; i < ids.length; i++) frames.push((await wire.nextFrame())!);
    expect(frames.map((f) => f.readInt32BE(0))).toEqual(ids);
    expect(frames[0]!.length).toBeGreaterThan(128 * 1024); // far past the cut-through threshold
    const big = decodeResponse(frames[0]!, ApiKey.Metadata, 9) as { brokers: { nodeId: number; host: string; port: number }[]; topics: unknown[] };
    expect(big.topics.length).toBeGreaterThanOrEqual(1500);
    const proxied = new Set(fresh.brokers.values());
    expect(big.brokers.map((b) => `${b.host}:${b.port}`).filter((a) => !proxied.has(a))).toEqual([]);
    expect(big.brokers).toHaveLength(3);
  } finally {
    wire.close();
    await fresh.stop();
    for (const name of [...backend.cluster.topics.keys()]) if (name.startsWith('big-metadata-')) backend.cluster.deleteTopic(name);
  }
});

test('the jest fixture runs upstream mode when its options name an upstream', async () => {
  const saved = { brokers: process.env.KAFKA_BROKERS, url: process.env.KAFKAESQUE_URL };
  const { default: globalSetup } = await import('../../src/jest/global-setup.js');
  const { default: globalTeardown } = await import('../../src/jest/global-teardown.js');
  await globalSetup(undefined, { globals: { kafkaesque: { upstream: backend.brokers.get(2)!, seed: 3 } } });
  try {
    const api = new ControlClient(process.env.KAFKAESQUE_URL!);
    expect(await api.cluster()).toMatchObject({ upstream: backend.brokers.get(2), seed: 3, bootstrap: process.env.KAFKA_BROKERS });
    const producer = client('upstream-fixture', { brokers: process.env.KAFKA_BROKERS!.split(',') }).producer();
    await producer.connect();
    await producer.send({ topic: 'upstream-fixture', messages: messages(1, 'f') });
    await producer.disconnect();
    expect(backend.cluster.partition('upstream-fixture', 0)!.highWatermark).toBe(1);
  } finally {
    await globalTeardown();
    process.env.KAFKA_BROKERS = saved.brokers;
    process.env.KAFKAESQUE_URL = saved.url;
  }
});

test('bad input is refused with the field and why', async () => {
  await expect(startProxy({ upstream: 'localhost' })).rejects.toThrow('upstream: "localhost" is not host:port (e.g. localhost:9092)');
  await expect(startProxy({ upstream: ' , ' })).rejects.toThrow('upstream: give at least one bootstrap address, host:port');
  await expect(startProxy({ upstream: backend.brokers.get(0)!, topics: [{ name: 'x' }] })).rejects.toThrow('topics: not available in upstream mode');
  await expect(startProxy({ upstream: backend.brokers.get(0)!, proxy: false })).rejects.toThrow('proxy: not available in upstream mode; upstream mode is the proxy');
  await expect(startCluster({ upstream: backend.brokers.get(0)! })).rejects.toThrow('upstream: startCluster runs the in-memory cluster; put the proxy in front of another cluster with startProxy({ upstream })');
  // A busy bootstrap port is an error naming it, as for the in-memory cluster.
  const taken = Number(front.bootstrap.split(':')[1]);
  await expect(startProxy({ upstream: backend.brokers.get(0)!, port: taken })).rejects.toThrow(`cannot listen on 127.0.0.1:${taken}: EADDRINUSE`);
});

test('ApiVersions from a newer upstream is capped to what the proxy can rewrite', async () => {
  // A stand-in for a newer broker: it answers ApiVersions with a Metadata version past the codecs.
  const metadataMax = apiSchemas.get(ApiKey.Metadata)!.maxVersion;
  const server = createServer((socket) => {
    socket.once('data', (chunk) => {
      const correlationId = chunk.readInt32BE(8);
      socket.write(responseFrame(ApiKey.ApiVersions, 3, correlationId, { errorCode: 0, apiKeys: [{ apiKey: ApiKey.Metadata, minVersion: 0, maxVersion: metadataMax + 2 }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const newer = await startProxy({ upstream: `127.0.0.1:${(server.address() as AddressInfo).port}` });
  const wire = await WireClient.connect(newer.bootstrap);
  try {
    const res = await wire.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'test', clientSoftwareVersion: '1' });
    expect(res.apiKeys).toEqual([{ apiKey: ApiKey.Metadata, minVersion: 0, maxVersion: metadataMax }]);
  } finally {
    wire.close();
    await newer.stop();
    await new Promise((r) => server.close(r));
  }
});
