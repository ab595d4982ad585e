// What bench/fuzz.mjs and bench/hostile.mjs share: the two targets (a
// kafkaesque process through its chaos proxy, and one with --no-proxy), each a
// child process so that a crash is an exit we can count; a liveness probe; a
// kafkajs health check; RSS; and the command line. Loopback only.
import net from 'node:net';
import { parseArgs } from 'node:util';
import kafkajsPackage from 'kafkajs';

import { startBroker } from './broker-process.mjs';
import { memory } from './proc.mjs';
import { oursCli, oursSpec } from './targets.mjs';

const { Kafka, logLevel } = kafkajsPackage;

export const HEALTH_TOPIC = 'health';

/**
 * Starts `kafkaesque start --brokers 1` twice: `proxy` (through the chaos
 * proxy) and `direct` (--no-proxy), with `flags` added to both. Each target:
 * { name, broker, address, crashed (null or { code, signal }), rss: { start, max, end } }.
 */
export async function startTargets(flags, lifetimeSeconds) {
  const common = ['--log-level', 'silent', ...flags];
  const specs = [oursSpec(oursCli, common, 'proxy'), oursSpec(oursCli, [...common, '--no-proxy'], 'direct')];
  const topics = [{ name: HEALTH_TOPIC, partitions: 1, replication: 1 }];
  return Promise.all(
    specs.map(async (spec) => {
      const broker = await startBroker(spec, { brokers: 1, lifetime: lifetimeSeconds, topics });
      const target = { name: spec.name, broker, address: broker.bootstrap[0], crashed: null, stopping: false, rss: { start: rssMB(broker.pid), max: 0, end: 0 }, healthChecks: 0, healthFailed: 0, healthErrors: [], healthSent: 0 };
      target.rss.max = target.rss.start;
      broker.exited.then((info) => {
        if (!target.stopping) target.crashed = { code: info.code, signal: info.signal };
      });
      return target;
    }),
  );
}

/** Stops a target; an exit other than 0 at SIGTERM counts as a crash too. */
export async function stopTarget(target) {
  if (target.crashed) return;
  target.rss.end = rssMB(target.broker.pid);
  target.stopping = true;
  const r = await target.broker.stop();
  if (r.code !== 0) target.crashed = { code: r.code, signal: r.signal, atStop: true };
}

export function rssMB(pid) {
  return Math.round(memory(pid).rss / 1e5) / 10;
}

export function sampleRss(target) {
  if (target.crashed) return;
  target.rss.max = Math.max(target.rss.max, rssMB(target.broker.pid));
}

/** "host:port" as net.connect options. */
export function hostPort(address) {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}

/** A well-formed ApiVersions v0 request frame (size prefix included). */
export function apiVersionsFrame(correlationId, clientId = 'probe') {
  const id = Buffer.from(clientId);
  const frame = Buffer.alloc(4 + 10 + id.length);
  frame.writeInt32BE(frame.length - 4, 0);
  frame.writeInt16BE(18, 4); // ApiVersions
  frame.writeInt16BE(0, 6);
  frame.writeInt32BE(correlationId, 8);
  frame.writeInt16BE(id.length, 12);
  id.copy(frame, 14);
  return frame;
}

/**
 * Calls onFrame(correlationId) for each whole response frame a socket
 * receives: responses begin with the correlation id.
 */
export function onResponses(socket, onFrame) {
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 8) {
      const n = buf.readInt32BE(0);
      if (buf.length < 4 + n) break;
      const correlationId = buf.readInt32BE(4);
      buf = buf.subarray(4 + n);
      onFrame(correlationId);
    }
  });
}

/**
 * Liveness: a fresh connection's ApiVersions answered within timeoutMs.
 * Resolves true, or false (a hang: the listener or the event loop is stuck).
 */
export function probeAlive(address, timeoutMs = 5000) {
  return new Promise((resolve) => {
    const socket = net.connect(hostPort(address));
    const done = (ok) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(apiVersionsFrame(1)));
    onResponses(socket, (id) => id === 1 && done(true));
  });
}

/**
 * The health check a user would run: kafkajs produces one record (acks=all)
 * and reads the high watermark back; it must be one more than last time.
 * Counts into target.healthChecks / healthFailed.
 */
export async function healthCheck(target, timeoutMs = 20000) {
  target.healthChecks++;
  const kafka = new Kafka({ clientId: 'probe-health', brokers: [target.address], logLevel: logLevel.NOTHING, connectionTimeout: 3000, requestTimeout: 10000, retry: { retries: 3 } });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const admin = kafka.admin();
  let timer;
  const check = async () => {
    await producer.connect();
    await producer.send({ topic: HEALTH_TOPIC, acks: -1, messages: [{ value: `health ${target.healthChecks}` }] });
    target.healthSent++;
    await admin.connect();
    const [p] = await admin.fetchTopicOffsets(HEALTH_TOPIC);
    if (Number(p.high) !== target.healthSent) throw new Error(`high watermark ${p.high}, expected ${target.healthSent}`);
  };
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))]);
  } catch (err) {
    target.healthFailed++;
    if (target.healthErrors.length < 5) target.healthErrors.push(err.message);
  } finally {
    clearTimeout(timer);
    await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
  }
}

/**
 * The command line: `options` as node:util parseArgs options (numbers given
 * as strings with a default), and `short`, the values --short stands for.
 * Returns the numbers, plus json (one JSON line on stdout) and help.
 */
export function probeArgs(usage, options, short, argv = process.argv.slice(2)) {
  // Defaults are applied here, after --short: parseArgs would fill them in first.
  const bare = Object.fromEntries(Object.entries(options).map(([name, { default: _default, ...spec }]) => [name, spec]));
  const { values } = parseArgs({ args: argv, options: { ...bare, short: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const o = {};
  for (const [name, spec] of Object.entries(options)) {
    const given = values[name];
    const raw = given ?? (values.short && short[name] !== undefined ? String(short[name]) : spec.default);
    const n = Number(raw);
    if (raw === undefined || !Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0, got ${raw}`);
    o[name] = n;
  }
  return { o, json: values.json === true, short: values.short === true };
}

/** Runs main(); a thrown error prints and exits 2 (bad arguments) or 1. */
export function probeMain(main) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err.stack ?? err}\n`);
      process.exit(err instanceof TypeError && /parseArgs|must be a number/.test(err.message) ? 2 : 1);
    },
  );
}
