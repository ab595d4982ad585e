// TLS listeners (Kafka's SSL and SASL_SSL): a certificate generated at start
// and trusted through its CA, by kafkajs (through the proxy and direct),
// librdkafka (confluent-kafka-python) and kcat, with hostname verification
// on; a given key and certificate; a plaintext client against a TLS
// listener is disconnected and nothing else notices.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { generate } from 'selfsigned';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { fetchPartition, messages, readInGroup } from '../support/kafkajs.js';
import { debianPython, requireTool } from '../support/external-client.js';
import { WireClient } from '../support/wire-client.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tlsClient = (k: RunningCluster, sasl?: SASLOptions) =>
  new Kafka({
    brokers: k.bootstrap.split(','),
    ssl: { ca: [k.tls!.ca] },
    sasl,
    logLevel: logLevel.NOTHING,
    retry: { retries: 2, initialRetryTime: 100 },
    connectionTimeout: 5000,
  });

async function produceAndRead(k: RunningCluster, client: Kafka, topic: string, n: number) {
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: messages(n, `${topic}-`) });
  await producer.disconnect();
  return fetchPartition(client, topic, 0);
}

describe('generated certificate, through the proxy', () => {
  let kafka: RunningCluster;
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 2, tls: true, topics: [{ name: 'tls', partitions: 1 }, { name: 'tls-group', partitions: 2 }, { name: 'rdk', partitions: 1 }, { name: 'kcat', partitions: 1 }] });
  });
  afterAll(() => kafka?.stop());

  test('exposes a CA that verifies the certificate the listeners present', () => {
    expect(kafka.proxy).toBe(true);
    expect(kafka.tls!.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(kafka.tls!.cert).not.toEqual(kafka.tls!.ca);
  });

  test('kafkajs with ssl: { ca } produces, fetches, and consumes in a group', async () => {
    const client = tlsClient(kafka);
    const got = await produceAndRead(kafka, client, 'tls', 5);
    expect(got.map((m) => m.value)).toEqual(messages(5, 'tls-').map((m) => m.value));

    const producer = client.producer();
    await producer.connect();
    await producer.send({ topic: 'tls-group', acks: -1, messages: messages(6, 'g') });
    await producer.disconnect();
    const seen = await readInGroup(client, 'tls-group', 6, { groupId: 'tls-readers', sessionTimeout: 10_000, heartbeatInterval: 500 });
    expect(seen.sort()).toEqual(messages(6, 'g').map((m) => m.value).sort());
  }, 40_000);

  test('a plaintext client is disconnected; the process and TLS clients carry on', async () => {
    const plain = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
    plain.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'plain', clientSoftwareVersion: '1' });
    expect(await plain.whenClosed(5000)).toBe(true);
    // kafkajs without ssl against the TLS listener fails too, with an error rather than a hang.
    const noTls = new Kafka({ brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 2000, requestTimeout: 3000 });
    const admin = noTls.admin();
    await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
    await admin.disconnect().catch(() => {});
    const got = await fetchPartition(tlsClient(kafka), 'tls', 0);
    expect(got.length).toBeGreaterThanOrEqual(5);
  }, 30_000);

  test('a client that does not trust the CA is refused by its own verification', async () => {
    const [host, port] = kafka.bootstrap.split(',')[0]!.split(':');
    const err = await new Promise<Error>((resolve) => {
      const s = tlsConnect({ host, port: Number(port), servername: undefined }, () => resolve(new Error('handshake succeeded')));
      s.on('error', resolve);
    });
    expect(err.message).toMatch(/self[- ]signed|unable to verify|local issuer/i);
  });

  test('librdkafka (confluent-kafka-python) with security.protocol=SSL and ssl.ca.location produces and consumes', async () => {
    requireTool(debianPython);
    const ca = join(dir, 'proxy-ca.pem');
    writeFileSync(ca, kafka.tls!.ca);
    const script = [
      'import sys, json',
      'from confluent_kafka import Producer, Consumer, TopicPartition',
      'conf = {"bootstrap.servers": sys.argv[1], "security.protocol": "SSL", "ssl.ca.location": sys.argv[2]}',
      'p = Producer(dict(conf, **{"enable.idempotence": True}))',
      'errs = []',
      'for i in range(20): p.produce("rdk", b"v%d" % i, on_delivery=lambda e, m: errs.append(str(e)) if e else None)',
      'left = p.flush(20)',
      'c = Consumer(dict(conf, **{"group.id": "rdk-tls", "enable.auto.commit": False}))',
      'c.assign([TopicPartition("rdk", 0, 0)])',
      'got = []',
      'import time',
      'deadline = time.time() + 20',
      'while len(got) < 20 and time.time() < deadline:',
      '    m = c.poll(0.5)',
      '    if m is None: continue',
      '    if m.error(): errs.append(str(m.error())); continue',
      '    got.append(m.value().decode())',
      'c.close()',
      'print(json.dumps({"left": left, "errors": errs, "got": got}))',
    ].join('\n');
    const { stdout } = await run(debianPython, ['-c', script, kafka.bootstrap, ca], { timeout: 50_000, killSignal: 'SIGKILL' });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.errors).toEqual([]);
    expect(out.left).toBe(0);
    expect(out.got).toEqual(Array.from({ length: 20 }, (_, i) => `v${i}`));
  }, 60_000);

  test('kcat with -X security.protocol=ssl produces and consumes', async () => {
    requireTool('/usr/bin/kcat');
    const ca = join(dir, 'kcat-ca.pem');
    writeFileSync(ca, kafka.tls!.ca);
    const ssl = ['-X', 'security.protocol=ssl', '-X', `ssl.ca.location=${ca}`];
    // Asynchronously: the cluster answers from this very process.
    const producer = execFile('kcat', ['-b', kafka.bootstrap, ...ssl, '-P', '-t', 'kcat', '-p', '0'], { timeout: 30_000, killSignal: 'SIGKILL' });
    producer.stdin!.end('one\ntwo\nthree\n');
    expect(await new Promise((resolve) => producer.on('exit', resolve))).toBe(0);
    const { stdout: out } = await run('kcat', ['-b', kafka.bootstrap, ...ssl, '-C', '-t', 'kcat', '-p', '0', '-o', 'beginning', '-e', '-q'], { timeout: 30_000, killSignal: 'SIGKILL' });
    expect(out.trim().split('\n')).toEqual(['one', 'two', 'three']);
  }, 60_000);
});

test('direct to the brokers (proxy: false): kafkajs over TLS', async () => {
  const kafka = await startCluster({ brokers: 2, proxy: false, tls: true, topics: [{ name: 'direct', partitions: 1 }] });
  try {
    expect(kafka.proxy).toBe(false);
    const got = await produceAndRead(kafka, tlsClient(kafka), 'direct', 4);
    expect(got.map((m) => m.value)).toEqual(messages(4, 'direct-').map((m) => m.value));
    const plain = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
    plain.send(ApiKey.ApiVersions, 3, { clientSoftwareName: 'plain', clientSoftwareVersion: '1' });
    expect(await plain.whenClosed(5000)).toBe(true);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test.each([true, false])('SASL_SSL: kafkajs authenticates over TLS (proxy: %s); a wrong password is refused', async (proxy) => {
  const kafka = await startCluster({ brokers: 1, proxy, tls: true, sasl: { users: { alice: 's3cret' } }, topics: [{ name: 'sasl-ssl', partitions: 1 }] });
  try {
    const got = await produceAndRead(kafka, tlsClient(kafka, { mechanism: 'scram-sha-256', username: 'alice', password: 's3cret' }), 'sasl-ssl', 3);
    expect(got.map((m) => m.value)).toEqual(messages(3, 'sasl-ssl-').map((m) => m.value));
    const admin = tlsClient(kafka, { mechanism: 'plain', username: 'alice', password: 'nope' }).admin();
    await expect(admin.connect()).rejects.toThrow(/SASL|[Aa]uthentication/);
    await admin.disconnect().catch(() => {});
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('a given key and certificate are served; clients trust the given CA', async () => {
  const ca = await generate([{ name: 'commonName', value: 'test CA' }], { keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true }] });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const kafka = await startCluster({ brokers: 1, tls: { cert: server.cert, key: Buffer.from(server.private), ca: ca.cert }, topics: [{ name: 'given', partitions: 1 }] });
  try {
    expect(kafka.tls).toEqual({ ca: ca.cert, cert: server.cert, clientAuth: 'none', client: null });
    const got = await produceAndRead(kafka, tlsClient(kafka), 'given', 2);
    expect(got).toHaveLength(2);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('a key that does not match the certificate is refused at start, naming tls', async () => {
  const a = await generate(undefined, { keyType: 'ec' });
  const b = await generate(undefined, { keyType: 'ec' });
  await expect(startCluster({ brokers: 1, tls: { cert: a.cert, key: b.private } })).rejects.toThrow(/^tls: the certificate and key cannot be used/);
  await expect(startCluster({ brokers: 1, tls: { cert: a.cert } as never })).rejects.toThrow(/tls: tls\.cert and tls\.key go together/);
  await expect(startCluster({ brokers: 1, tls: { cert: a.cert, key: 42 } as never })).rejects.toThrow(/tls\.key: must be PEM text/);
});

test('stopping a node resets its TLS connections (through the proxy); clients fail over and come back', async () => {
  const kafka = await startCluster({ brokers: 2, tls: true, topics: [{ name: 'failover', partitions: 1, replicationFactor: 2 }] });
  try {
    const client = tlsClient(kafka);
    const producer = client.producer();
    await producer.connect();
    await producer.send({ topic: 'failover', acks: -1, messages: [{ value: 'before' }] });
    const leader = kafka.cluster.partition('failover', 0)!.leader;
    const [host, port] = kafka.brokers.get(leader)!.split(':');
    const socket = tlsConnect({ host, port: Number(port), ca: [kafka.tls!.ca] });
    await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    await kafka.stopNode(leader);
    await closed;
    await producer.send({ topic: 'failover', acks: -1, messages: [{ value: 'after' }] });
    await kafka.startNode(leader);
    await producer.disconnect();
    const got = await fetchPartition(tlsClient(kafka), 'failover', 0);
    expect(got.map((m) => m.value)).toEqual(['before', 'after']);
  } finally {
    await kafka.stop();
  }
}, 30_000);
