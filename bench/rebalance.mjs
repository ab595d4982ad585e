#!/usr/bin/env node
// Rebalance benchmark: how long a consumer group of kafkajs members, with
// kafkajs's default group settings, takes to settle when it grows from one
// member to two to three. Numbers, never assertions.
//
//   npm run build && node bench/rebalance.mjs                # ours (~40 s)
//   node bench/rebalance.mjs --runs 5 --partitions 12
//   node bench/rebalance.mjs --delay-ms 3000                 # ours with Kafka's group.initial.rebalance.delay.ms
//   node bench/rebalance.mjs --mock                          # also librdkafka's mock cluster (~1 min a run)
//   node bench/rebalance.mjs --help
//
// Each run spawns a fresh 3-broker cluster (ours: node dist/cli.js start;
// mock: bench/.ref/bin/mock-cluster-new, see bench/reference.mjs) and a topic.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import kafkajs from 'kafkajs';

import { startBroker, killAll } from './lib/broker-process.mjs';
import { median } from './lib/stats.mjs';
import { mockSpec, oursCli, repoDir } from './lib/targets.mjs';
import { mockBin } from './reference.mjs';

const { Kafka, logLevel } = kafkajs;
const require = createRequire(import.meta.url);
const kafkajsVersion = require('kafkajs/package.json').version;

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name, fallback) => {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const v = args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
  return Number(v);
};

if (flag('help') || flag('h')) {
  console.log(`node bench/rebalance.mjs [--runs N] [--partitions P] [--delay-ms D] [--no-mock] [--timeout S]
  --runs N        runs per broker (default 3; medians reported)
  --partitions P  partitions of the topic (default 6)
  --delay-ms D    ours: --group-initial-rebalance-delay-ms (default 0, kafkaesque's default; Kafka's is 3000)
  --mock          also librdkafka's mock cluster (bench/.ref/bin/mock-cluster-new, see bench/reference.mjs)
  --timeout S     seconds for the whole benchmark (default 240, 600 with --mock)`);
  process.exit(0);
}

const RUNS = option('runs', 3);
const PARTITIONS = option('partitions', 6);
const DELAY_MS = option('delay-ms', 0);
const TIMEOUT_S = option('timeout', flag('mock') ? 600 : 240);
const MEMBERS = 3;

if (!fs.existsSync(oursCli)) {
  console.error(`${oursCli} is missing: run npm run build first`);
  process.exit(1);
}

const specs = [
  {
    name: DELAY_MS ? `ours (delay ${DELAY_MS} ms)` : 'ours',
    command: process.execPath,
    args: [oursCli, 'start', '--json', '--brokers', '{brokers}', '--port', '{port}', '--log-level', 'warn', '--group-initial-rebalance-delay-ms', String(DELAY_MS)],
    topics: 'admin',
    cwd: repoDir,
  },
];
if (flag('mock') && !fs.existsSync(mockBin)) {
  console.error(`${mockBin} is missing: node bench/reference.mjs builds it`);
  process.exit(1);
}
if (flag('mock')) specs.push(mockSpec(mockBin));

const hardStop = setTimeout(() => {
  console.error(`benchmark over its ${TIMEOUT_S} s budget; stopping`);
  killAll();
  process.exit(2);
}, TIMEOUT_S * 1000);
hardStop.unref();

/**
 * Members join one at a time. A step starts when the new member calls run()
 * and ends when every member has received its assignment (a GROUP_JOIN event)
 * after that moment, and the assignments cover every partition once.
 */
async function oneRun(spec) {
  const topic = 'rebalance';
  const broker = await startBroker(spec, { brokers: 3, lifetime: 120, topics: [{ name: topic, partitions: PARTITIONS, replication: 1 }] });
  const kafka = new Kafka({ clientId: 'bench', brokers: broker.bootstrap, logLevel: logLevel.NOTHING });
  const consumers = [];
  try {
    if (spec.topics === 'admin') {
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }] });
      await admin.disconnect();
    }
    const steps = [];
    const latest = new Map(); // consumer index -> { at, partitions }
    let joined = () => {};
    for (let i = 0; i < MEMBERS; i++) {
      // kafkajs defaults: sessionTimeout 30000, rebalanceTimeout 60000, heartbeatInterval 3000, maxWaitTimeInMs 5000.
      const c = kafka.consumer({ groupId: 'bench-group' });
      consumers.push(c);
      c.on(c.events.GROUP_JOIN, (e) => {
        latest.set(consumers.indexOf(c), { at: performance.now(), partitions: e.payload.memberAssignment[topic] ?? [] });
        joined();
      });
      await c.connect();
      await c.subscribe({ topic, fromBeginning: true });
      const t0 = performance.now();
      const settled = new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`${spec.name}: ${i + 1} members never settled`)), 90_000);
        joined = () => {
          const views = consumers.map((_, k) => latest.get(k));
          if (views.some((v) => !v || v.at < t0)) return;
          const all = views.flatMap((v) => v.partitions);
          if (all.length !== PARTITIONS || new Set(all).size !== PARTITIONS) return;
          clearTimeout(deadline);
          resolve(Math.max(...views.map((v) => v.at)) - t0);
        };
      });
      await c.run({ eachMessage: async () => {} });
      steps.push(await settled);
      if (process.env.BENCH_DEBUG) console.error(`${spec.name}: ${i + 1} member(s) settled after ${fmt(steps.at(-1))}`);
    }
    return steps;
  } finally {
    await Promise.all(consumers.map((c) => c.disconnect().catch(() => {})));
    await broker.stop();
  }
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

const results = new Map(specs.map((s) => [s.name, []]));
for (let r = 0; r < RUNS; r++) {
  // Interleaved, so both brokers see the same machine at the same time.
  for (const spec of r % 2 ? [...specs].reverse() : specs) {
    try {
      const steps = await oneRun(spec);
      results.get(spec.name).push(steps);
      console.error(`${spec.name} run ${r + 1}: ${steps.map(fmt).join(', ')}`);
    } catch (err) {
      console.error(`${spec.name} run ${r + 1} failed: ${err.message}`);
    }
  }
}

console.log(`
Method
  A consumer group of kafkajs ${kafkajsVersion} members with kafkajs's defaults (sessionTimeout 30000,
  rebalanceTimeout 60000, heartbeatInterval 3000, maxWaitTimeInMs 5000) on a topic of ${PARTITIONS} partitions,
  on a fresh 3-broker cluster per run. Members join one at a time: each step is timed from the new
  member's run() to the moment every member has received its assignment for the new generation
  (kafkajs GROUP_JOIN events) and the assignments cover each partition once. Existing members learn
  of a rebalance from a heartbeat answer (REBALANCE_IN_PROGRESS), and kafkajs heartbeats only between
  fetches: with nothing to read, a member sits in a Fetch long-poll of maxWaitTimeInMs first, which
  bounds each later step from below. The first step includes
  FindCoordinator (the internal topic's creation answers COORDINATOR_NOT_AVAILABLE once) and
  group.initial.rebalance.delay.ms (ours: ${DELAY_MS} ms). ${RUNS} run(s) per broker, interleaved; median [min-max].
`);
const rows = [['broker', ...Array.from({ length: MEMBERS }, (_, i) => (i === 0 ? '1 member' : `${i} -> ${i + 1}`)), 'runs']];
for (const [name, runs] of results) {
  const cell = (i) => {
    const xs = runs.map((s) => s[i]);
    return xs.length ? `${fmt(median(xs))} [${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))}]` : 'n/a';
  };
  rows.push([name, ...Array.from({ length: MEMBERS }, (_, i) => cell(i)), String(runs.length)]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log('  ' + r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
killAll();
// kafkajs may keep retry timers of a failed run alive.
process.exit(0);
