// The fault-free side door (RunningCluster.directBootstrap): a second
// listener per node, no proxy in front, whose Metadata, FindCoordinator,
// DescribeCluster and KIP-951 node endpoints name the side door itself, so a
// test's own clients never meet, nor use up, a rule meant for the application.
// kafkajs connects through a socket factory that records every address it
// dialled: a client bootstrapped on the side door must never reach a proxy port.
import { connect, type Socket } from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { WireClient } from '../support/wire-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 7, groupInitialRebalanceDelayMs: 0 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

/** A kafkajs client that records each host:port it opens a socket to. */
function recordingClient(bootstrap: string, dialled: Set<string>): Kafka {
  const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
    dialled.add(`${host}:${port}`);
    const socket: Socket = connect({ host, port }, onConnect);
    return socket;
  };
  return new Kafka({ clientId: 'side-door-test', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING, socketFactory, retry: { retries: 3, initialRetryTime: 50 } });
}

/** A rule that every request on the proxy path matches (and that does no harm). */
const countEverything = () => kafka.chaos.addRule({ id: 'everything', match: {}, trigger: { type: 'always' }, action: { type: 'delay', ms: 0 } });

test('is on by default, one free port per node, none of them a proxy port', () => {
  const direct = kafka.directBootstrap!.split(',');
  expect(direct).toEqual([...kafka.directBrokers.values()]);
  expect(direct).toHaveLength(3);
  for (const address of direct) expect([...kafka.brokers.values()]).not.toContain(address);
});

test('an admin, a producer and a group consumer on the side door: no rule sees them, and every socket goes to a side-door port', async () => {
  countEverything();
  const dialled = new Set<string>();
  const client = recordingClient(kafka.directBootstrap!, dialled);
  const topic = 'side-door-traffic';
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 3 }] });
  const described = await admin.describeCluster();
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, messages: Array.from({ length: 9 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })) });
  const consumer = client.consumer({ groupId: 'side-door-group', maxWaitTimeInMs: 100 });
  const seen: string[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            seen.push(message.value!.toString());
            if (seen.length === 9) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
  expect(seen.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `v${i}`).sort());
  // DescribeCluster answered with side-door addresses.
  const direct = new Set(kafka.directBootstrap!.split(','));
  expect(new Set(described.brokers.map((b) => `${b.host}:${b.port}`))).toEqual(direct);
  // Metadata (leaders) and FindCoordinator (the group's coordinator) never sent it to the proxy.
  expect(dialled.size).toBeGreaterThan(1);
  for (const address of dialled) expect(direct).toContain(address);
  expect(kafka.chaos.rule('everything')).toMatchObject({ matched: 0, fired: 0 });
});

test('the proxied path still advertises the proxy, and its rules see its traffic', async () => {
  countEverything();
  const dialled = new Set<string>();
  const admin = recordingClient(kafka.bootstrap, dialled).admin();
  await admin.connect();
  try {
    const described = await admin.describeCluster();
    const proxied = new Set(kafka.brokers.values());
    expect(new Set(described.brokers.map((b) => `${b.host}:${b.port}`))).toEqual(proxied);
    for (const address of dialled) expect(proxied).toContain(address);
  } finally {
    await admin.disconnect();
  }
  expect(kafka.chaos.rule('everything')!.matched).toBeGreaterThan(0);
});

test('FindCoordinator v4 and Produce v10 to a former leader (KIP-951 node endpoints) name side-door addresses', async () => {
  const topic = 'side-door-endpoints';
  kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  const doorOf = (nodeId: number) => ({ host: '127.0.0.1', port: doorPort(nodeId) });
  const old = kafka.cluster.partition(topic, 0)!.leader;
  expect(kafka.cluster.electLeader(topic, 0, {}).ok).toBe(true);
  const now = kafka.cluster.partition(topic, 0)!.leader;
  expect(now).not.toBe(old);
  const wire = await WireClient.connect(`127.0.0.1:${doorPort(old)}`);
  try {
    const produced = await wire.request(ApiKey.Produce, 10, { transactionalId: null, acks: -1, timeoutMs: 5000, topicData: [{ name: topic, partitionData: [{ index: 0, records: null }] }] });
    expect(produced.responses[0].partitionResponses[0].errorCode).toBe(6);
    expect(produced.nodeEndpoints).toEqual([expect.objectContaining({ nodeId: now, ...doorOf(now) })]);
    // The first lookup creates __consumer_offsets (COORDINATOR_NOT_AVAILABLE); the second names the coordinator.
    await wire.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['g'] });
    const found = await wire.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['g'] });
    const coordinator = found.coordinators[0];
    expect(coordinator).toMatchObject({ errorCode: 0, ...doorOf(coordinator.nodeId) });
  } finally {
    wire.close();
  }
});

const doorPort = (nodeId: number): number => Number(kafka.directBrokers.get(nodeId)!.split(':')[1]);

function canConnect(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const s = connect({ host: host!, port: Number(port) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

test("a stopped node's side door refuses connections and resets its own; started, it listens on the same port", async () => {
  const address = `127.0.0.1:${doorPort(2)}`;
  const wire = await WireClient.connect(address);
  const closed = new Promise<void>((resolve) => wire.socket.once('close', () => resolve()));
  await kafka.stopNode(2);
  try {
    await closed;
    expect(await canConnect(address)).toBe(false);
    expect(kafka.directBootstrap!.split(',')).not.toContain(address);
  } finally {
    await kafka.startNode(2);
  }
  expect(await canConnect(address)).toBe(true);
  expect(kafka.directBootstrap!.split(',')).toContain(address);
});

test('without the proxy the brokers are the direct way in; with direct: false there is no side door', async () => {
  const plain = await startCluster({ brokers: 1, proxy: false });
  try {
    expect(plain.directBootstrap).toBe(plain.bootstrap);
    expect(plain.directBrokers).toEqual(plain.brokers);
  } finally {
    await plain.stop();
  }
  const closed = await startCluster({ brokers: 1, direct: false });
  try {
    expect(closed.directBootstrap).toBeNull();
    expect(closed.directBrokers.size).toBe(0);
  } finally {
    await closed.stop();
  }
});

test('with TLS and SASL the side door serves both, as the proxy does: a client with the same config but the direct bootstrap works, one without SASL is refused', async () => {
  const secure = await startCluster({ brokers: 1, tls: true, sasl: { users: { tester: 'secret' } }, topics: [{ name: 'secured' }] });
  const client = (sasl?: { mechanism: 'plain'; username: string; password: string }) =>
    new Kafka({ clientId: 'side-door-tls', brokers: [secure.directBootstrap!], ssl: { ca: [secure.tls!.ca] }, sasl, logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000 });
  try {
    const producer = client({ mechanism: 'plain', username: 'tester', password: 'secret' }).producer();
    await producer.connect();
    await producer.send({ topic: 'secured', messages: [{ value: 'x' }] });
    await producer.disconnect();
    expect(secure.cluster.partition('secured', 0)!.highWatermark).toBe(1);
    const anonymous = client().admin();
    await expect(anonymous.connect().then(() => anonymous.listTopics())).rejects.toThrow();
    await anonymous.disconnect();
  } finally {
    await secure.stop();
  }
});
