// The jest fixture end to end: a nested jest run of a user's project
// (fixture-project/) whose config names kafkaesque's globalSetup and
// globalTeardown from dist/ (npm test builds first). The inner test checks
// what globalSetup published; here we check that it passed and that
// globalTeardown stopped the cluster. Plus the option merge, in process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureOptions } from '../../src/jest/options.js';

test('a nested jest run gets a cluster from globals.kafkaesque, and teardown stops it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-jest-'));
  const report = join(dir, 'report.json');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, FIXTURE_REPORT: report };
  const run = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '-c', 'test/jest/fixture-project/jest.config.mjs', '--runInBand', '--ci'],
      { env, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout + stderr }),
    );
  });
  expect([run.code, run.out]).toEqual([0, expect.stringMatching(/Tests:\s+1 passed, 1 total/)]);
  const { url, brokers } = JSON.parse(readFileSync(report, 'utf8')) as { url: string; brokers: string };
  rmSync(dir, { recursive: true, force: true });
  expect(brokers.split(',')).toHaveLength(2);
  // globalTeardown stopped the cluster: its control API is gone.
  await expect(fetch(`${url}/v1/version`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
}, 70_000);

test('options: jest globals, then KAFKAESQUE_OPTIONS and KAFKAESQUE_PRESETS, over free-port defaults', () => {
  expect(fixtureOptions(undefined, {})).toEqual({ port: 0, controlPort: 0 });
  const globals = { kafkaesque: { brokers: 2, presets: ['lost-ack'], seed: 1 } };
  expect(fixtureOptions(globals, { KAFKAESQUE_OPTIONS: '{"seed":9}', KAFKAESQUE_PRESETS: 'slow-broker, ./x.json' })).toEqual({
    port: 0,
    controlPort: 0,
    brokers: 2,
    seed: 9,
    presets: ['lost-ack', 'slow-broker', './x.json'],
  });
  expect(() => fixtureOptions({ kafkaesque: 3 }, {})).toThrow('globals.kafkaesque: must be an object of startCluster options, got 3');
  expect(() => fixtureOptions(undefined, { KAFKAESQUE_OPTIONS: '{' })).toThrow(/^KAFKAESQUE_OPTIONS: not JSON/);
  expect(() => fixtureOptions(undefined, { KAFKAESQUE_OPTIONS: '[]' })).toThrow('KAFKAESQUE_OPTIONS: must be an object of startCluster options, got []');
});

test('options: the one schema checks each source, naming it, the key and the value (typos are errors)', () => {
  // Before: KAFKAESQUE_OPTIONS='{"brokerz":3}' started 3 brokers as if nothing was said.
  expect(() => fixtureOptions(undefined, { KAFKAESQUE_OPTIONS: '{"brokerz":3}' })).toThrow('KAFKAESQUE_OPTIONS: brokerz: unknown option; did you mean brokers?');
  expect(() => fixtureOptions({ kafkaesque: { brokers: 1, topic: [{ name: 'x' }] } }, {})).toThrow('globals.kafkaesque: topic: unknown option; did you mean topics?');
  expect(() => fixtureOptions({ kafkaesque: { topics: [{ nam: 'x' }] } }, {})).toThrow('globals.kafkaesque: topics[0].name: required (given instead: nam)');
  expect(() => fixtureOptions(undefined, { KAFKAESQUE_OPTIONS: '{"proxy":"no"}' })).toThrow('KAFKAESQUE_OPTIONS: proxy: must be true or false, got "no"');
  expect(() => fixtureOptions(undefined, { KAFKAESQUE_OPTIONS: '{"brokers":100000}' })).toThrow(/^KAFKAESQUE_OPTIONS: brokers: must be a whole number from 1 to 64/);
  // Not JSON, so not the fixture's: a logger or a clock belongs to a cluster the test file starts.
  expect(() => fixtureOptions({ kafkaesque: { logger: {} } }, {})).toThrow(/^globals.kafkaesque: logger: not available in the jest fixture/);
  expect(() => fixtureOptions({ kafkaesque: { clock: {} } }, {})).toThrow(/^globals.kafkaesque: clock: not available in the jest fixture/);
});

test('with tls: globalSetup publishes the CA in KAFKAESQUE_TLS_CA, and a kafkajs client that trusts it produces', async () => {
  const { default: globalSetup } = await import('../../src/jest/global-setup.js');
  const { default: globalTeardown } = await import('../../src/jest/global-teardown.js');
  const { Kafka, logLevel } = await import('kafkajs');
  await globalSetup(undefined, { globals: { kafkaesque: { brokers: 1, tls: true } } });
  try {
    const ca = process.env.KAFKAESQUE_TLS_CA;
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const kafka = new Kafka({ brokers: process.env.KAFKA_BROKERS!.split(','), ssl: { ca: [ca!] }, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const [ack] = await producer.send({ topic: 'fixture-tls', messages: [{ value: 'over tls' }] });
    await producer.disconnect();
    expect(ack.errorCode).toBe(0);
  } finally {
    await globalTeardown();
  }
  expect(process.env.KAFKAESQUE_TLS_CA).toBeUndefined();
}, 30_000);

test('with tls.clientAuth: globalSetup publishes a client certificate and key, and kafkajs presenting them produces', async () => {
  const { default: globalSetup } = await import('../../src/jest/global-setup.js');
  const { default: globalTeardown } = await import('../../src/jest/global-teardown.js');
  const { Kafka, logLevel } = await import('kafkajs');
  await globalSetup(undefined, { globals: { kafkaesque: { brokers: 1, tls: { clientAuth: 'required' } } } });
  try {
    const { KAFKAESQUE_TLS_CA: ca, KAFKAESQUE_TLS_CLIENT_CERT: cert, KAFKAESQUE_TLS_CLIENT_KEY: key } = process.env;
    expect(cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(key).toMatch(/PRIVATE KEY-----/);
    const kafka = new Kafka({ brokers: process.env.KAFKA_BROKERS!.split(','), ssl: { ca: [ca!], cert, key }, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const [ack] = await producer.send({ topic: 'fixture-mtls', messages: [{ value: 'over mtls' }] });
    await producer.disconnect();
    expect(ack.errorCode).toBe(0);
  } finally {
    await globalTeardown();
  }
  expect(process.env.KAFKAESQUE_TLS_CLIENT_CERT).toBeUndefined();
  expect(process.env.KAFKAESQUE_TLS_CLIENT_KEY).toBeUndefined();
}, 30_000);
