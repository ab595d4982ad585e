#!/usr/bin/env node
// A real Apache Kafka broker the repo can start: one KRaft node (broker and
// controller in one JVM) on loopback, from Kafka's jars on Maven Central, for
// benchmarks (bench/suite.mjs) and as a conformance oracle for tests.
//
//   node scripts/real-kafka.mjs fetch                      # jars into .cache/real-kafka/<version>/lib
//   node scripts/real-kafka.mjs start [--port 9092] [--heap-mb 768] [--lifetime 600] [--kafka-version 4.1.1]
//     # prints {"bootstrap":"127.0.0.1:9092",...} once a client can use it; stops on SIGTERM/SIGINT,
//     # when stdin closes (with --stdin), or after --lifetime seconds
//
//   import { startRealKafka } from '../scripts/real-kafka.mjs'
//   const kafka = await startRealKafka({ port: 29092 })   // { bootstrap, pid, readyMs, stop() }
//   ...; await kafka.stop()
//
// The jars come with Maven (`mvn -q -B dependency:copy-dependencies` on
// scripts/real-kafka/pom.xml, ~45 MB, git-ignored .cache/). Needs a JDK 17+
// and mvn on PATH. The node's data lives in a fresh temporary folder that
// stop() removes. The JVM runs under coreutils `timeout`, so it dies after
// its lifetime even if this process is SIGKILLed; its heap is bounded by
// -Xmx. The settings are those Testcontainers' KafkaContainer gives a
// single node (one partition of __consumer_offsets, replication 1, no
// initial rebalance delay), so the figures are those its users see.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import kafkajs from 'kafkajs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.dirname(here);
const pom = path.join(here, 'real-kafka', 'pom.xml');
export const DEFAULT_KAFKA_VERSION = '4.1.1';
const FETCH_TIMEOUT_MS = 10 * 60_000;

export class RealKafkaError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RealKafkaError';
  }
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** .cache/real-kafka/<version>/lib, or KAFKAESQUE_REAL_KAFKA_LIB. */
export function kafkaLibDir(version = DEFAULT_KAFKA_VERSION) {
  return process.env.KAFKAESQUE_REAL_KAFKA_LIB ?? path.join(repoDir, '.cache', 'real-kafka', version, 'lib');
}

/**
 * The folder of Kafka's jars, fetched with Maven if absent. Fetched into a
 * temporary folder and renamed into place, so a reader never sees half of it
 * and two fetches at once do not mix.
 */
export function ensureKafkaJars({ version = DEFAULT_KAFKA_VERSION, log = (s) => process.stderr.write(`${s}\n`) } = {}) {
  const lib = kafkaLibDir(version);
  if (fs.existsSync(path.join(lib, `kafka_2.13-${version}.jar`))) return lib;
  if (process.env.KAFKAESQUE_REAL_KAFKA_LIB) {
    throw new RealKafkaError(`KAFKAESQUE_REAL_KAFKA_LIB=${lib} holds no kafka_2.13-${version}.jar`);
  }
  if (!have('mvn')) throw new RealKafkaError('cannot fetch Kafka: no `mvn` on PATH (apt-get install maven)');
  const parent = path.dirname(lib);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, 'lib-'));
  log(`fetching Apache Kafka ${version} jars from Maven Central into ${path.relative(process.cwd(), lib)} (~45 MB)`);
  const res = spawnSync(
    'mvn',
    ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`, `-Dkafka.version=${version}`],
    { encoding: 'utf8', timeout: FETCH_TIMEOUT_MS, killSignal: 'SIGKILL' },
  );
  if (res.status !== 0 || !fs.existsSync(path.join(tmp, `kafka_2.13-${version}.jar`))) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const why = res.error ? res.error.message : res.signal ? `killed by ${res.signal}` : `exit code ${res.status}`;
    throw new RealKafkaError(`mvn could not fetch Kafka ${version} (${why}):\n${`${res.stdout}${res.stderr}`.trim().slice(-3000)}`);
  }
  try {
    fs.renameSync(tmp, lib);
  } catch (err) {
    // Another fetch finished first: keep its folder.
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(lib)) throw err;
  }
  return lib;
}

/** A KRaft cluster id: 16 random bytes, base64url (22 chars), not starting with '-' (a flag to StorageTool). */
function clusterId() {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** The user of the SASL listener (`saslPort`): PLAIN and SCRAM-SHA-256 both take this name and password. */
export const REAL_KAFKA_SASL_USER = { username: 'alice', password: 'alice-secret' };

function serverProperties({ port, controllerPort, saslPort, dataDir, properties = {} }) {
  const { username, password } = REAL_KAFKA_SASL_USER;
  const sasl = saslPort
    ? [
        'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256',
        `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${username}="${password}";`,
        'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      ]
    : [];
  return [
    '# One KRaft node, broker and controller in one JVM (written by scripts/real-kafka.mjs)',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}${saslPort ? `,SASL_PLAINTEXT://127.0.0.1:${saslPort}` : ''}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}${saslPort ? `,SASL_PLAINTEXT://127.0.0.1:${saslPort}` : ''}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    ...sasl,
    `log.dirs=${dataDir}/log`,
    // As Testcontainers' KafkaContainer sets them for a single node.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    // 4.x's share coordinator (KIP-932) wants 3 replicas of __share_group_state;
    // on one node its share fetches would find no coordinator. Ignored before 4.0.
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    `log.flush.interval.messages=${2n ** 63n - 1n}`,
    'num.partitions=1',
    'auto.create.topics.enable=true',
    // The caller's own, after the defaults above (a later line wins in a properties file).
    ...Object.entries(properties).map(([k, v]) => `${k}=${v}`),
    '',
  ].join('\n');
}

const LOG4J2 = [
  'status = error',
  'appender.err.type = Console',
  'appender.err.name = err',
  'appender.err.target = SYSTEM_ERR',
  'appender.err.layout.type = PatternLayout',
  'appender.err.layout.pattern = [%d] %p %m (%c)%n',
  'rootLogger.level = warn',
  'rootLogger.appenderRef.err.ref = err',
  '',
].join('\n');

function tail(s, n = 3000) {
  return s.length > n ? s.slice(-n) : s;
}

/** Until a kafkajs admin sees the broker in Metadata (DescribeCluster), or the deadline. */
async function waitUntilServing(bootstrap, deadline, exited) {
  const kafka = new kafkajs.Kafka({ brokers: [bootstrap], logLevel: kafkajs.logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 1000 });
  for (;;) {
    if (exited()) throw new RealKafkaError('the JVM exited before it served');
    const admin = kafka.admin();
    try {
      await admin.connect();
      const { brokers } = await admin.describeCluster();
      if (brokers.length > 0) return;
    } catch {
      /* not yet */
    } finally {
      await admin.disconnect().catch(() => {});
    }
    if (performance.now() > deadline) throw new RealKafkaError('not serving before the ready timeout');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Format a fresh data folder and start one KRaft node on 127.0.0.1:port
 * (the controller on port+1). Resolves once a client can use it.
 */
export async function startRealKafka({
  version = DEFAULT_KAFKA_VERSION,
  port = 9092,
  /** Also a SASL_PLAINTEXT listener here (PLAIN and SCRAM-SHA-256, user REAL_KAFKA_SASL_USER); none when 0. */
  saslPort = 0,
  heapMb = 768,
  /** server.properties entries over the defaults, e.g. { 'offsets.topic.num.partitions': 50 }. */
  properties = {},
  lifetimeS = 600,
  readyTimeoutMs = 120_000,
  log = (s) => process.stderr.write(`${s}\n`),
} = {}) {
  if (!have('java')) throw new RealKafkaError('no `java` on PATH (Kafka 4 needs a JDK 17+)');
  const lib = ensureKafkaJars({ version, log });
  const spawnedAt = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafkaesque-real-kafka-'));
  const props = path.join(dataDir, 'server.properties');
  fs.writeFileSync(props, serverProperties({ port, controllerPort: port + 1, saslPort, dataDir, properties }));
  fs.writeFileSync(path.join(dataDir, 'log4j2.properties'), LOG4J2);
  const jvm = [`-Xmx${heapMb}m`, `-Xms${Math.min(256, heapMb)}m`, '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${path.join(dataDir, 'log4j2.properties')}`, '-cp', path.join(lib, '*')];

  // SCRAM credentials live in the metadata log: format writes the first ones.
  const scram = saslPort ? ['--add-scram', `SCRAM-SHA-256=[name=${REAL_KAFKA_SASL_USER.username},password=${REAL_KAFKA_SASL_USER.password}]`] : [];
  const fmt = spawnSync('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', props, ...scram], {
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  if (fmt.status !== 0) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new RealKafkaError(`StorageTool format failed (${fmt.signal ?? `exit ${fmt.status}`}):\n${tail(`${fmt.stdout}${fmt.stderr}`)}`);
  }

  // coreutils timeout forwards our SIGTERM to the JVM and kills it after its lifetime.
  const child = spawn('timeout', ['--kill-after=5', String(lifetimeS), 'java', ...jvm, 'kafka.Kafka', props], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (output = tail(output + d, 20_000)));
  child.stderr.setEncoding('utf8').on('data', (d) => (output = tail(output + d, 20_000)));
  let exitInfo = null;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exitInfo = { code, signal }))));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const cleanup = () => {
    process.removeListener('exit', killOnExit);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const bootstrap = `127.0.0.1:${port}`;
  try {
    await waitUntilServing(bootstrap, performance.now() + readyTimeoutMs, () => exitInfo !== null);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    cleanup();
    throw new RealKafkaError(`Kafka ${version} on ${bootstrap}: ${err.message}${output ? `\n${tail(output)}` : ''}`);
  }

  /** SIGTERM (a controlled shutdown), SIGKILL after graceMs; removes the data folder. */
  async function stop(graceMs = 15_000) {
    if (!exitInfo) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    }
    cleanup();
    return exitInfo;
  }
  return { bootstrap, saslBootstrap: saslPort ? `127.0.0.1:${saslPort}` : null, port, version, pid: child.pid, readyMs: performance.now() - spawnedAt, stop, exited, output: () => output };
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '9092' },
      'heap-mb': { type: 'string', default: '768' },
      lifetime: { type: 'string', default: '600' },
      'kafka-version': { type: 'string', default: DEFAULT_KAFKA_VERSION },
      stdin: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const usage = 'usage: node scripts/real-kafka.mjs fetch|start [--port 9092] [--heap-mb 768] [--lifetime 600] [--kafka-version 4.1.1] [--stdin]\n';
  const verb = positionals[0];
  if (values.help || !['fetch', 'start'].includes(verb)) {
    process.stdout.write(usage);
    return values.help ? 0 : 2;
  }
  const version = values['kafka-version'];
  if (verb === 'fetch') {
    console.log(ensureKafkaJars({ version }));
    return 0;
  }
  const num = (name, min, max) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new RealKafkaError(`--${name} needs a whole number in ${min}..${max}, got ${values[name]}`);
    return n;
  };
  const kafka = await startRealKafka({ version, port: num('port', 1, 65534), heapMb: num('heap-mb', 128, 65536), lifetimeS: num('lifetime', 1, 86_400) });
  // The ready line bench/lib/broker-process.mjs waits for, as `kafkaesque start --json` prints.
  console.log(JSON.stringify({ bootstrap: kafka.bootstrap, brokers: 1, kafka: version, pid: kafka.pid, readyMs: Math.round(kafka.readyMs) }));
  const stopped = new Promise((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.once(sig, resolve);
    if (values.stdin) process.stdin.on('end', resolve).resume();
    kafka.exited.then(resolve);
  });
  await stopped;
  const info = await kafka.stop();
  return info.code === 0 || info.signal === 'SIGTERM' || info.code === 143 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof RealKafkaError ? err.message : err?.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
