// Client certificates (mTLS, Kafka's ssl.client.auth): with `required` a
// client must present a certificate the client CA signed, with `requested`
// one without is let in but a bad one is refused, as a Kafka broker's
// SSLEngine does; kafkajs through the proxy and direct, librdkafka
// (confluent-kafka-python) with ssl.certificate.location, kafka-python with
// ssl_certfile, a given PKI, the
// proxy in upstream mode, and the option checks.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { generate } from 'selfsigned';
import { startCluster, startProxy, type RunningCluster } from '../../src/index.js';
import { fetchPartition, messages } from '../support/kafkajs.js';
import { debianPython, requireTool } from '../support/external-client.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-mtls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Pair {
  cert: string;
  key: string;
}

/** A CA of the test's own, and a client certificate it signed: what a foreign PKI hands out. */
async function otherPki(): Promise<{ ca: string; caKey: string; client: Pair }> {
  const ca = await generate([{ name: 'commonName', value: 'some other CA' }], { keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true }] });
  const client = await generate([{ name: 'commonName', value: 'stranger' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'extKeyUsage', clientAuth: true }],
  });
  return { ca: ca.cert, caKey: ca.private, client: { cert: client.cert, key: client.private } };
}

/** What the helpers need of a running cluster or proxy. */
type Served = Pick<RunningCluster, 'bootstrap' | 'tls'>;

/** The CA and the generated client certificate and key as files, for clients that take paths. */
function identityFiles(k: Served, prefix: string) {
  const files = { ca: join(dir, `${prefix}-ca.pem`), cert: join(dir, `${prefix}-client.pem`), key: join(dir, `${prefix}-client-key.pem`) };
  writeFileSync(files.ca, k.tls!.ca);
  writeFileSync(files.cert, k.tls!.client!.cert);
  writeFileSync(files.key, k.tls!.client!.key);
  return files;
}

const client = (k: Served, identity?: Pair) =>
  new Kafka({
    brokers: k.bootstrap.split(','),
    ssl: { ca: [k.tls!.ca], ...(identity ?? {}) },
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 3000,
    requestTimeout: 5000,
  });

async function produced(k: Served, identity: Pair | undefined, topic: string, n: number): Promise<string[]> {
  const c = client(k, identity);
  const producer = c.producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: messages(n, `${topic}-`) });
  } finally {
    await producer.disconnect();
  }
  return (await fetchPartition(c, topic, 0)).map((m) => String(m.value));
}

async function refused(k: Served, identity: Pair | undefined): Promise<void> {
  const admin = client(k, identity).admin();
  await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
  await admin.disconnect().catch(() => {});
}

describe("clientAuth 'required', generated CA, through the proxy", () => {
  let kafka: RunningCluster;
  let stranger: Awaited<ReturnType<typeof otherPki>>;
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 2, tls: { clientAuth: 'required' }, topics: [{ name: 'mtls', partitions: 1 }, { name: 'rdk', partitions: 1 }] });
    stranger = await otherPki();
  });
  afterAll(() => kafka?.stop());

  test('a client certificate signed by the generated CA is made and published', () => {
    expect(kafka.tls!.clientAuth).toBe('required');
    expect(kafka.tls!.client!.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(kafka.tls!.client!.key).toMatch(/PRIVATE KEY-----/);
  });

  test('kafkajs presenting it produces and fetches', async () => {
    expect(await produced(kafka, kafka.tls!.client!, 'mtls', 3)).toEqual(['mtls-0', 'mtls-1', 'mtls-2']);
  }, 20_000);

  test('kafkajs without a certificate, or with one another CA signed, is refused; the first client carries on', async () => {
    await refused(kafka, undefined);
    await refused(kafka, stranger.client);
    expect(await produced(kafka, kafka.tls!.client!, 'mtls', 1)).toHaveLength(4);
  }, 30_000);

  test('librdkafka (confluent-kafka-python) with ssl.certificate.location and ssl.key.location produces', async () => {
    requireTool(debianPython);
    const files = identityFiles(kafka, 'rdk');
    const script = [
      'import sys, json',
      'from confluent_kafka import Producer',
      'conf = {"bootstrap.servers": sys.argv[1], "security.protocol": "SSL", "ssl.ca.location": sys.argv[2], "ssl.certificate.location": sys.argv[3], "ssl.key.location": sys.argv[4]}',
      'p = Producer(conf)',
      'errs = []',
      'for i in range(10): p.produce("rdk", b"v%d" % i, on_delivery=lambda e, m: errs.append(str(e)) if e else None)',
      'left = p.flush(20)',
      'print(json.dumps({"left": left, "errors": errs}))',
    ].join('\n');
    const { stdout } = await run(debianPython, ['-c', script, kafka.bootstrap, files.ca, files.cert, files.key], { timeout: 40_000, killSignal: 'SIGKILL' });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ left: 0, errors: [] });
    expect(kafka.cluster.partition('rdk', 0)!.logEndOffset).toBe(10);
  }, 50_000);
});

test('kafka-python with ssl_certfile and ssl_keyfile produces; without them it is refused', async () => {
  requireTool(debianPython);
  const kafka = await startCluster({ brokers: 1, tls: { clientAuth: 'required' }, topics: [{ name: 'py', partitions: 1 }] });
  try {
    const files = identityFiles(kafka, 'py');
    const script = [
      'import sys, json',
      'from kafka import KafkaProducer',
      'identity = {"ssl_certfile": sys.argv[3], "ssl_keyfile": sys.argv[4]} if sys.argv[3] != "-" else {}',
      'try:',
      '    p = KafkaProducer(bootstrap_servers=[sys.argv[1]], security_protocol="SSL", ssl_cafile=sys.argv[2], request_timeout_ms=5000, max_block_ms=5000, **identity)',
      '    offset = p.send("py", b"over mtls", partition=0).get(timeout=10).offset',
      '    p.close()',
      '    print(json.dumps({"ok": True, "offset": offset}))',
      'except Exception as e:  # refused: a KafkaError, or the ssl module\'s own during the version probe',
      '    print(json.dumps({"ok": False, "error": type(e).__name__}))',
    ].join('\n');
    const produce = async (cert: string, key: string) => JSON.parse((await run(debianPython, ['-c', script, kafka.bootstrap, files.ca, cert, key], { timeout: 30_000, killSignal: 'SIGKILL' })).stdout.trim().split('\n').at(-1)!);
    expect(await produce(files.cert, files.key)).toEqual({ ok: true, offset: 0 });
    expect((await produce('-', '-')).ok).toBe(false);
    expect(kafka.cluster.partition('py', 0)!.logEndOffset).toBe(1);
  } finally {
    await kafka.stop();
  }
}, 40_000);

test("clientAuth 'requested', direct to the brokers: no certificate is let in, a bad one is refused", async () => {
  const kafka = await startCluster({ brokers: 1, proxy: false, tls: { clientAuth: 'requested' }, topics: [{ name: 'requested', partitions: 1 }] });
  try {
    expect(await produced(kafka, undefined, 'requested', 1)).toEqual(['requested-0']);
    expect(await produced(kafka, kafka.tls!.client!, 'requested', 1)).toHaveLength(2);
    await refused(kafka, (await otherPki()).client);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('a given PKI: the server certificate given, client certificates checked against clientCa', async () => {
  const pki = await otherPki();
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: pki.caKey, cert: pki.ca },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const kafka = await startCluster({
    brokers: 1,
    tls: { cert: server.cert, key: server.private, ca: pki.ca, clientAuth: 'required', clientCa: pki.ca },
    topics: [{ name: 'given', partitions: 1 }],
  });
  try {
    expect(kafka.tls!.client).toBeNull(); // the user's PKI issues client certificates, not kafkaesque
    expect(await produced(kafka, pki.client, 'given', 2)).toEqual(['given-0', 'given-1']);
    await refused(kafka, undefined);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('a generated server certificate with a clientCa of the user\'s own: no client certificate is made, the user\'s are accepted', async () => {
  const pki = await otherPki();
  const kafka = await startCluster({ brokers: 1, tls: { clientAuth: 'required', clientCa: pki.ca }, topics: [{ name: 'mixed', partitions: 1 }] });
  try {
    expect(kafka.tls!.client).toBeNull(); // one signed by the generated CA would be refused
    expect(await produced(kafka, pki.client, 'mixed', 1)).toEqual(['mixed-0']);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('upstream mode: the proxy in front of another cluster asks for client certificates too', async () => {
  const upstream = await startCluster({ brokers: 1, proxy: false, topics: [{ name: 'fronted', partitions: 1 }] });
  const front = await startProxy({ upstream: upstream.bootstrap, tls: { clientAuth: 'required' } });
  try {
    expect(await produced(front, front.tls!.client!, 'fronted', 2)).toEqual(['fronted-0', 'fronted-1']);
    await refused(front, undefined);
  } finally {
    await front.stop();
    await upstream.stop();
  }
}, 30_000);

test('client certificates and SASL together (SASL_SSL with ssl.client.auth): both must pass', async () => {
  const kafka = await startCluster({ brokers: 1, tls: { clientAuth: 'required' }, sasl: { users: { alice: 'alice-secret' } }, topics: [{ name: 'both', partitions: 1 }] });
  try {
    const withSasl = (password: string, identity?: Pair) =>
      new Kafka({
        brokers: kafka.bootstrap.split(','),
        ssl: { ca: [kafka.tls!.ca], ...identity },
        sasl: { mechanism: 'scram-sha-512', username: 'alice', password },
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
        connectionTimeout: 3000,
      });
    const producer = withSasl('alice-secret', kafka.tls!.client!).producer();
    await producer.connect();
    await producer.send({ topic: 'both', messages: [{ value: 'mtls and scram' }] });
    await producer.disconnect();
    for (const [password, identity] of [['alice-secret', undefined], ['wrong', kafka.tls!.client!]] as const) {
      const admin = withSasl(password, identity).admin();
      await expect(admin.connect()).rejects.toThrow();
      await admin.disconnect().catch(() => {});
    }
    expect(kafka.cluster.partition('both', 0)!.logEndOffset).toBe(1);
  } finally {
    await kafka.stop();
  }
}, 30_000);

test('bad client-auth options are refused at start, naming the field', async () => {
  await expect(startCluster({ brokers: 1, tls: { clientAuth: 'sometimes' } as never })).rejects.toThrow(/tls\.clientAuth: must be one of required, requested, none, got "sometimes"/);
  await expect(startCluster({ brokers: 1, tls: { clientCa: 'x' } })).rejects.toThrow(/tls: tls\.clientCa .* needs tls\.clientAuth/);
  await expect(startCluster({ brokers: 1, tls: { clientAuth: 'required', clientCa: 7 } as never })).rejects.toThrow(/tls\.clientCa: must be PEM text/);
  await expect(startCluster({ brokers: 1, tls: { ca: 'x' } })).rejects.toThrow(/tls: tls\.ca names the CA of a given tls\.cert/);
});
