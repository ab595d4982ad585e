// SASL/OAUTHBEARER with Kafka's default validator (unsecured JWTs): kafkajs
// with an oauthBearerProvider, librdkafka with its built-in unsecured JWT
// (enable.sasl.oauthbearer.unsecure.jwt) and kafka-python (SaslHandshake v0,
// raw tokens) authenticate and produce; an expired
// token or one without the required scope gets RFC 7628's JSON error as a
// challenge, and after the client's 0x01 the exchange fails with it, through
// the proxy as well as direct.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { startCluster, unsecuredJwt, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { fetchPartition, messages } from '../support/kafkajs.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';
import { WireClient } from '../support/wire-client.js';

const run = promisify(execFile);
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 2, sasl: { oauthbearer: { requiredScope: ['kafka'] } }, topics: [{ name: 'oauth', partitions: 1 }, { name: 'rdk-oauth', partitions: 1 }] });
});
afterAll(() => kafka?.stop());

const client = (token: string) =>
  new Kafka({
    brokers: kafka.bootstrap.split(','),
    sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: token }) },
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 3000,
    authenticationTimeout: 3000,
  });

test('only OAUTHBEARER is offered when only oauthbearer is configured', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  expect(await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' })).toEqual({ errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms: ['OAUTHBEARER'] });
  c.close();
});

test('kafkajs with an unsecured JWT carrying the required scope produces and fetches', async () => {
  const k = client(unsecuredJwt({ sub: 'alice', exp: inAnHour(), scope: ['kafka', 'other'] }));
  const producer = k.producer();
  await producer.connect();
  await producer.send({ topic: 'oauth', acks: -1, messages: messages(3, 'jwt-') });
  await producer.disconnect();
  expect((await fetchPartition(k, 'oauth', 0)).map((m) => m.value)).toEqual(['jwt-0', 'jwt-1', 'jwt-2']);
}, 20_000);

test.each([
  ['an expired token', { sub: 'alice', exp: Math.floor(Date.now() / 1000) - 10, scope: 'kafka' }],
  ['a token without the required scope', { sub: 'alice', exp: inAnHour(), scope: 'other' }],
])('kafkajs with %s is refused', async (_what, claims) => {
  const admin = client(unsecuredJwt(claims)).admin();
  await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
  await admin.disconnect().catch(() => {});
}, 20_000);

test('on the wire: the JSON error comes as a challenge, and the 0x01 that acknowledges it fails the exchange with it', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'OAUTHBEARER' });
  const token = unsecuredJwt({ sub: 'alice', exp: inAnHour(), scope: 'other' });
  const challenge = await c.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from(`n,,\u0001auth=Bearer ${token}\u0001\u0001`) });
  expect(challenge.errorCode).toBe(ErrorCode.NONE);
  expect(challenge.authBytes.toString()).toBe('{"status":"insufficient_scope", "scope":"[kafka]"}');
  const final = await c.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from([0x01]) });
  expect(final).toMatchObject({ errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED, errorMessage: '{"status":"insufficient_scope", "scope":"[kafka]"}' });
  expect(await c.whenClosed()).toBe(true);
});

test('an authorization id other than the token\'s principal is refused', async () => {
  const c = await WireClient.connect(kafka.bootstrap.split(',')[0]!);
  await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'OAUTHBEARER' });
  const token = unsecuredJwt({ sub: 'alice', exp: inAnHour(), scope: 'kafka' });
  const r = await c.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from(`n,a=bob,\u0001auth=Bearer ${token}\u0001\u0001`) });
  expect(r).toMatchObject({
    errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED,
    errorMessage: "Authentication failed: Client requested an authorization id (bob) that is different from the token's principal name (alice)",
  });
});

test('librdkafka (confluent-kafka-python) with enable.sasl.oauthbearer.unsecure.jwt produces; without the scope it reports the error', async () => {
  requireTool(debianPython);
  const script = [
    'import sys, json',
    'from confluent_kafka import Producer',
    'errs = []',
    'conf = {"bootstrap.servers": sys.argv[1], "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "OAUTHBEARER",',
    '        "enable.sasl.oauthbearer.unsecure.jwt": True, "sasl.oauthbearer.config": sys.argv[2], "error_cb": lambda e: errs.append(str(e)),',
    '        "message.timeout.ms": int(sys.argv[3])}',
    'p = Producer(conf)',
    'p.produce("rdk-oauth", b"rdk", on_delivery=lambda e, m: errs.append(str(e)) if e else None)',
    'left = p.flush(15)',
    'print(json.dumps({"left": left, "errors": errs}))',
  ].join('\n');
  const produce = async (config: string, timeoutMs: number) =>
    JSON.parse((await run(debianPython, ['-c', script, kafka.bootstrap, config, String(timeoutMs)], { timeout: 40_000, killSignal: 'SIGKILL' })).stdout.trim().split('\n').at(-1)!);
  expect(await produce('principal=alice scope=kafka', 15_000)).toEqual({ left: 0, errors: [] });
  expect(kafka.cluster.partition('rdk-oauth', 0)!.logEndOffset).toBe(1);
  const refused = await produce('principal=alice scope=other', 2_000);
  expect(refused.errors.join(' ')).toMatch(/insufficient_scope/);
  expect(kafka.cluster.partition('rdk-oauth', 0)!.logEndOffset).toBe(1);
}, 60_000);

test('kafka-python (SaslHandshake v0, raw tokens) with a token provider produces and reads; a token without the scope is refused', async () => {
  const good = await runClient(debianPython, ['test/clients/kafka_python_sasl.py', kafka.bootstrap, 'oauth', 'OAUTHBEARER', unsecuredJwt({ sub: 'py', exp: inAnHour(), scope: 'kafka' }), '-']);
  expect(good.errors).toEqual([]);
  expect(good.ok).toBe(true);
  const bad = await runClient(debianPython, ['test/clients/kafka_python_sasl.py', kafka.bootstrap, 'oauth', 'OAUTHBEARER', unsecuredJwt({ sub: 'py', exp: inAnHour() }), '-', '--timeout', '5']);
  expect(bad.ok).toBe(false);
  expect(bad.errors.join(' ')).toMatch(/Authentication|NoBrokersAvailable/);
}, 60_000);

test('with users too, the password mechanisms and OAUTHBEARER are all offered, direct to the brokers', async () => {
  const both = await startCluster({ brokers: 1, proxy: false, sasl: { users: { bob: 'b0b' }, oauthbearer: {} } });
  try {
    const c = await WireClient.connect(both.bootstrap);
    expect((await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'OAUTHBEARER' })).mechanisms).toEqual(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER']);
    c.close();
  } finally {
    await both.stop();
  }
  await expect(startCluster({ brokers: 1, sasl: {} })).rejects.toThrow(/sasl needs users \(PLAIN, SCRAM\) or oauthbearer \(OAUTHBEARER\)/);
});
