// SASL on every connection: PLAIN and SCRAM-SHA-256/512 with kafkajs
// (SaslHandshake v1 + SaslAuthenticate), kafka-python (SaslHandshake v0 +
// raw tokens) and librdkafka; wrong credentials get
// SASL_AUTHENTICATION_FAILED and nothing else is served on that connection.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';
import { debianPython, runClient } from '../support/external-client.js';
import { WireClient } from '../support/wire-client.js';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 2, sasl: { users: { alice: 'alice-secret', bob: 'b0b' } }, topics: [{ name: 'sasl', partitions: 1 }] });
});
afterAll(() => kafka.stop());

const client = (sasl: SASLOptions) =>
  new Kafka({ brokers: kafka.bootstrap.split(','), sasl, logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 3000, authenticationTimeout: 3000 });

test.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('kafkajs authenticates with %s and then works normally', async (mechanism) => {
  const k = client({ mechanism, username: 'alice', password: 'alice-secret' } as SASLOptions);
  const producer = k.producer();
  await producer.connect();
  await producer.send({ topic: 'sasl', acks: -1, messages: messages(3, `${mechanism}-`) });
  await producer.disconnect();
  const got = await fetchPartition(k, 'sasl', 0);
  expect(got.map((m) => m.value)).toEqual(expect.arrayContaining(messages(3, `${mechanism}-`).map((m) => m.value)));
});

test.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('kafkajs with a wrong password (%s) is refused', async (mechanism) => {
  const k = client({ mechanism, username: 'alice', password: 'wrong' } as SASLOptions);
  const admin = k.admin();
  await expect(admin.connect()).rejects.toThrow(/SASL|[Aa]uthentication/);
  await admin.disconnect().catch(() => {});
});

test('a request before authentication closes the connection; a failed authentication serves nothing more', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  c.send(ApiKey.Metadata, 1, { topics: null });
  expect(await c.whenClosed()).toBe(true);

  const d = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  expect((await d.request(ApiKey.SaslHandshake, 1, { mechanism: 'GSSAPI' })).errorCode).toBe(ErrorCode.UNSUPPORTED_SASL_MECHANISM);
  const ok = await d.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' });
  expect(ok).toEqual({ errorCode: 0, mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] });
  const auth = await d.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from('\u0000bob\u0000nope') });
  expect(auth).toMatchObject({ errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED, errorMessage: 'Authentication failed: Invalid username or password' });
  expect(await d.whenClosed()).toBe(true);
});

describe('kafka-python: SaslHandshake v0 and raw tokens, through the proxy', () => {
  // Raw tokens carry no Kafka header: the proxy must pass them through untouched.
  test.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])('authenticates with %s', async (mechanism) => {
    const summary = await runClient(debianPython, ['test/clients/kafka_python_sasl.py', kafka.bootstrap, 'sasl', mechanism, 'bob', 'b0b']);
    expect(summary.errors).toEqual([]);
    expect(summary.ok).toBe(true);
  }, 60_000);

  test('a wrong password closes the connection (the client sees an authentication failure)', async () => {
    const summary = await runClient(debianPython, ['test/clients/kafka_python_sasl.py', kafka.bootstrap, 'sasl', 'PLAIN', 'bob', 'wrong', '--timeout', '10']);
    expect(summary.ok).toBe(false);
    expect(summary.errors.join(' ')).toMatch(/Authentication|NoBrokersAvailable/);
  }, 60_000);
});

// librdkafka 2.0.2 sends client nonce + server nonce in its SCRAM final message:
// it works only because the server, like Kafka's, checks that the nonce ENDS with its own.
test.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])('librdkafka (confluent-kafka-python) authenticates with %s', async (mechanism) => {
  const { execFile } = await import('node:child_process');
  const script = [
    'import sys, json',
    'from confluent_kafka import Producer',
    `p = Producer({"bootstrap.servers": sys.argv[1], "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": sys.argv[3], "sasl.username": "alice", "sasl.password": sys.argv[2]})`,
    'errs = []',
    'p.produce("sasl", b"rdk", on_delivery=lambda e, m: errs.append(str(e)) if e else None)',
    'left = p.flush(15)',
    'print(json.dumps({"left": left, "errors": errs}))',
  ].join('\n');
  const run = (password: string) =>
    new Promise<{ left: number; errors: string[] }>((resolve, reject) =>
      execFile(debianPython, ['-c', script, kafka.bootstrap, password, mechanism], { timeout: 40_000 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout)))),
    );
  expect(await run('alice-secret')).toEqual({ left: 0, errors: [] });
}, 60_000);

test('without SASL configured, SaslHandshake answers ILLEGAL_SASL_STATE', async () => {
  const plain = await startCluster({ brokers: 1 });
  const c = await WireClient.connect(plain.bootstrap);
  expect((await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' })).errorCode).toBe(ErrorCode.ILLEGAL_SASL_STATE);
  c.close();
  await plain.stop();
  void kafkajs;
});
