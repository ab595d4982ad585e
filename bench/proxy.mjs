#!/usr/bin/env node
// The chaos proxy's cost: kafkajs produce throughput through the proxy (no
// rules) as a ratio to the direct path (--no-proxy), measured in one run on
// the same machine, runs interleaved (direct, proxy, proxy, direct, ...),
// each on a freshly spawned `node dist/cli.js start` (npm run build first).
//
//   npm run build && node bench/proxy.mjs            # 200,000 x 100 B, 4 runs each
//   node bench/proxy.mjs --messages 50000 --runs 2   # quicker
//
// Prints one line per run on stderr and a summary (median msgs/s of each
// path and proxy/direct) on stdout; target: ratio >= 0.9.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import kafkajs from 'kafkajs';
import { startBroker, killAll } from './lib/broker-process.mjs';
import { median } from './lib/stats.mjs';
import { oursCli, oursSpec } from './lib/targets.mjs';

const { Kafka, Partitioners, logLevel } = kafkajs;

const { values: opt } = parseArgs({
  options: {
    messages: { type: 'string', default: '200000' },
    size: { type: 'string', default: '100' },
    batch: { type: 'string', default: '1000' },
    partitions: { type: 'string', default: '8' },
    brokers: { type: 'string', default: '3' },
    inflight: { type: 'string', default: '1' },
    runs: { type: 'string', default: '4' },
    timeout: { type: 'string', default: '240' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write('node bench/proxy.mjs [--messages N] [--size B] [--batch M] [--partitions P] [--brokers K] [--inflight I] [--runs R] [--timeout S]\n');
  process.exit(0);
}
const o = Object.fromEntries(Object.entries(opt).map(([k, v]) => [k, typeof v === 'string' ? Number(v) : v]));
if (!fs.existsSync(oursCli)) {
  process.stderr.write(`${oursCli} is missing: run npm run build first\n`);
  process.exit(2);
}
const hardStop = setTimeout(() => {
  process.stderr.write(`bench/proxy.mjs: over ${o.timeout} s, stopping\n`);
  killAll();
  process.exit(3);
}, o.timeout * 1000);
hardStop.unref();

const value = Buffer.alloc(o.size, 'x');
const batches = [];
for (let i = 0; i < o.messages; i += o.batch) {
  batches.push(Array.from({ length: Math.min(o.batch, o.messages - i) }, (_, j) => ({ value, partition: (i + j) % o.partitions })));
}

const paths = {
  direct: oursSpec(oursCli, ['--no-proxy', '--log-level', 'warn']),
  proxy: oursSpec(oursCli, ['--log-level', 'warn']),
};

async function run(name) {
  const broker = await startBroker(paths[name], { brokers: o.brokers, lifetime: o.timeout, topics: [{ name: 'bench', partitions: o.partitions, replication: 1 }] });
  const kafka = new Kafka({ clientId: 'bench-proxy', brokers: broker.bootstrap, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  try {
    if (broker.info?.proxy !== (name === 'proxy')) throw new Error(`${name}: the ready line says proxy=${broker.info?.proxy}`);
    await producer.connect();
    await producer.send({ topic: 'bench', acks: -1, messages: batches[0].slice(0, 10) }); // metadata and connections
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.max(1, o.inflight) }, async () => {
        while (next < batches.length) await producer.send({ topic: 'bench', acks: -1, messages: batches[next++] });
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return o.messages / seconds;
  } finally {
    await producer.disconnect().catch(() => {});
    await broker.stop();
  }
}

const results = { direct: [], proxy: [] };
// One unmeasured warm-up run per path, then ABBA order so drift favours neither.
await run('direct');
await run('proxy');
for (let i = 0; i < o.runs; i++) {
  for (const name of i % 2 ? ['proxy', 'direct'] : ['direct', 'proxy']) {
    const rate = await run(name);
    results[name].push(rate);
    process.stderr.write(`run ${i + 1} ${name.padEnd(6)} ${Math.round(rate).toLocaleString('en-US')} msgs/s\n`);
  }
}
const direct = median(results.direct);
const proxy = median(results.proxy);
const summary = {
  messages: o.messages,
  size: o.size,
  batch: o.batch,
  partitions: o.partitions,
  brokers: o.brokers,
  runs: o.runs,
  directMsgsPerSec: Math.round(direct),
  proxyMsgsPerSec: Math.round(proxy),
  ratio: Number((proxy / direct).toFixed(3)),
};
process.stdout.write(
  `kafkajs produce, ${o.messages.toLocaleString('en-US')} x ${o.size} B, batches of ${o.batch}, acks=all, ${o.partitions} partitions on ${o.brokers} brokers, median of ${o.runs}:\n` +
    `  direct (--no-proxy) ${summary.directMsgsPerSec.toLocaleString('en-US')} msgs/s\n` +
    `  through the proxy   ${summary.proxyMsgsPerSec.toLocaleString('en-US')} msgs/s\n` +
    `  proxy / direct      ${summary.ratio} (target >= 0.9)\n` +
    JSON.stringify(summary) +
    '\n',
);
