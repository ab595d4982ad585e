#!/usr/bin/env node
// `npm run bench`: every benchmark part, or the ones named, each bounded in
// time, then the method of each and one compact table of the headline figures.
//
//   npm run bench                          # all parts (~5 min on 2 cores)
//   npm run bench -- latency rdkafka       # some parts
//   npm run bench -- --quick               # smaller variants (~1.5 min)
//   npm run bench -- kafkajs --runs 3      # options after the parts go to each part named
//   npm run bench -- --list                # the parts
//
// Each part runs as its own process group (brokers included) and is
// SIGKILLed if it overruns; its full results are kept in
// bench/.ref/last-<part>.json (git-ignored).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mockClusterPath, ReferenceBuildError } from './reference.mjs';
import { ratioTable } from './lib/table.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const refDir = path.join(benchDir, '.ref');

/** Part name -> script, its own arguments, the --quick ones, time bound (s), and what it measures. */
const PARTS = {
  startup: { file: 'throughput.mjs', args: ['--runs', '0', '--no-warmup', '--startup-runs', '9'], quick: ['--startup-runs', '3'], bound: 120, what: 'spawn -> ready line -> first acknowledged kafkajs produce' },
  kafkajs: { file: 'throughput.mjs', args: ['--startup-runs', '0'], quick: ['--quick'], bound: 180, what: 'kafkajs produce and fetch throughput, broker CPU and memory' },
  rdkafka: { file: 'rdkafka.mjs', args: [], quick: ['--messages', '200000', '--runs', '1'], bound: 180, what: 'librdkafka (confluent_kafka) produce and consume throughput, broker CPU' },
  latency: { file: 'latency.mjs', args: [], quick: ['--count', '500'], bound: 150, what: 'p50/p99/max of single acks=all produces, kafkajs and librdkafka' },
  partitions: { file: 'partitions.mjs', args: [], quick: ['--settle', '0'], bound: 240, what: '10,000 partitions: create, Metadata, produce to each, memory' },
  connections: { file: 'connections.mjs', args: [], quick: [], bound: 150, what: '500 connections held: open, memory, produce on a sample' },
  idle: { file: 'idle.mjs', args: [], quick: ['--runs', '1'], bound: 180, what: 'an idle broker\'s RSS, beside a bare Node.js HTTP server' },
  cpu: { file: 'cpu.mjs', args: [], quick: ['--runs', '2'], bound: 240, what: 'broker CPU for the same produce traffic (fixed wire load, librdkafka), ratio to the mock' },
};

/** The compact table: [part, label, summary key, digits, better]. */
const HEADLINE = [
  ['startup', 'start-up: spawn -> first ack (ms)', 'startupFirstAckMs', 1, 'lower'],
  ['startup', 'start-up: spawn -> ready line (ms)', 'startupReadyMs', 1, 'lower'],
  ['kafkajs', 'kafkajs produce (msgs/s)', 'produceMsgsPerSec', 0, 'higher'],
  ['kafkajs', 'kafkajs fetch (msgs/s)', 'fetchMsgsPerSec', 0, 'higher'],
  ['kafkajs', 'broker CPU, kafkajs produce (s)', 'brokerCpuProduce', 2, 'lower'],
  ['kafkajs', 'broker CPU, kafkajs fetch (s)', 'brokerCpuFetch', 2, 'lower'],
  ['rdkafka', 'librdkafka produce (msgs/s)', 'produceMsgsPerSec', 0, 'higher'],
  ['rdkafka', 'librdkafka consume (msgs/s)', 'consumeMsgsPerSec', 0, 'higher'],
  ['rdkafka', 'broker CPU, librdkafka produce (s)', 'brokerCpuProduce', 2, 'lower'],
  ['rdkafka', 'broker CPU, librdkafka consume (s)', 'brokerCpuConsume', 2, 'lower'],
  ['cpu', 'broker CPU, fixed wire produce (ms)', 'wireCpuMs', 0, 'lower'],
  ['cpu', 'broker CPU, librdkafka 500k produce (ms)', 'rdkafkaCpuMs', 0, 'lower'],
  ['latency', 'produce latency kafkajs p50 (us)', 'kafkajsP50', 0, 'lower'],
  ['latency', 'produce latency kafkajs p99 (us)', 'kafkajsP99', 0, 'lower'],
  ['latency', 'produce latency librdkafka p50 (us)', 'rdkafkaP50', 0, 'lower'],
  ['latency', 'produce latency librdkafka p99 (us)', 'rdkafkaP99', 0, 'lower'],
  ['kafkajs', 'RSS growth per MB stored (kafkajs)', 'rssGrowthPerMB', 2, 'lower'],
  ['partitions', '10k partitions: Metadata (ms)', 'metadataMs', 1, 'lower'],
  ['partitions', '10k partitions: produce to each (ms)', 'produceMs', 0, 'lower'],
  ['partitions', '10k partitions: RSS (MB)', 'rssProducedMB', 1, 'lower'],
  ['partitions', '10k partitions: RSS per partition, settled (KB)', 'rssPerPartitionSettledKB', 2, 'lower'],
  ['idle', 'idle RSS, settled (MiB)', 'rssSettledMiB', 1, 'lower'],
  ['connections', '500 connections: open (ms)', 'openMs', 0, 'lower'],
  ['connections', '500 connections: RSS per conn (KB)', 'rssPerConnectionKB', 1, 'lower'],
];

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h') || argv.includes('--list')) {
  process.stdout.write(
    'usage: npm run bench -- [PART...] [--quick] [part options]\n\nparts (all when none is named):\n' +
      Object.entries(PARTS).map(([n, p]) => `  ${n.padEnd(12)} ${p.what} (bench/${p.file} --help)`).join('\n') +
      '\n\nEvery part compares mock (librdkafka\'s mock cluster), ours (kafkaesque, --no-proxy) and proxy\n(kafkaesque through its chaos proxy, no rules); kafkajs and cpu add floor (Node.js sockets\nanswering Produce with canned responses: no Kafka logic at all); see bench/README.md.\n',
  );
  process.exit(0);
}
const named = argv.filter((a) => PARTS[a]);
const firstOption = argv.findIndex((a) => a.startsWith('-'));
const stray = argv.filter((a, i) => !PARTS[a] && !a.startsWith('-') && (firstOption < 0 || i < firstOption));
if (stray.length) {
  console.error(`bench: unknown part ${stray.join(', ')}; parts: ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const quick = argv.includes('--quick');
const passThrough = firstOption < 0 ? [] : argv.slice(firstOption).filter((a) => a !== '--quick');
const parts = named.length ? named : Object.keys(PARTS);

try {
  mockClusterPath();
} catch (err) {
  console.error(err instanceof ReferenceBuildError ? err.message : err);
  process.exit(1);
}
fs.mkdirSync(refDir, { recursive: true });

let child = null;
const killGroup = () => {
  if (!child) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    killGroup();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

function runPart(name) {
  const p = PARTS[name];
  const out = path.join(refDir, `last-${name}.json`);
  fs.rmSync(out, { force: true });
  const args = [...p.args, ...(quick ? p.quick : []), ...passThrough, '--json', out, '--quiet'];
  console.error(`bench ${name}: node bench/${p.file} ${args.join(' ')}`);
  return new Promise((resolve) => {
    child = spawn(process.execPath, ['--expose-gc', path.join(benchDir, p.file), ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true, // own process group, so its brokers die with it
    });
    const timer = setTimeout(() => {
      console.error(`bench ${name}: no result after ${p.bound + 60} s; killing it`);
      killGroup();
    }, (p.bound + 60) * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      child = null;
      if (!fs.existsSync(out)) {
        console.error(`bench ${name}: ended (${signal ?? `code ${code}`}) without results`);
        return resolve({ code: code || 1, result: null });
      }
      resolve({ code: code ?? 1, result: JSON.parse(fs.readFileSync(out, 'utf8')) });
    });
  });
}

const results = {};
let worst = 0;
for (const name of parts) {
  const { code, result } = await runPart(name);
  worst = Math.max(worst, code);
  if (result) results[name] = result;
}

const printed = new Set();
for (const name of parts) {
  const { part } = await import(`./${PARTS[name].file}`);
  console.log();
  if (!printed.has(part.method)) console.log(`${part.method}\n`);
  printed.add(part.method);
  console.log(results[name] ? part.formatTable(results[name]) : `${name}: no results`);
}

// The headline figures of every part run, in one table.
const targets = [...new Set(Object.values(results).flatMap((r) => Object.keys(r.summary)))];
const rows = HEADLINE.filter(([part]) => results[part]);
const summary = Object.fromEntries(targets.map((t) => [t, Object.fromEntries(rows.map(([part, label, key]) => [label, results[part].summary[t]?.[key] ?? null]))]));
console.log();
console.log(`Summary (medians; machine ${process.env.BENCH_MACHINE ?? 'shared, 2 cores: noisy, compare ratios'}; full results in ${path.relative(process.cwd(), refDir)}/last-<part>.json)`);
console.log(ratioTable(summary, rows.map(([, label, , digits, better]) => [label, label, digits, better]), { title: 'figure' }).join('\n'));
process.exit(worst);
