#!/usr/bin/env node
// The whole-suite benchmark, the figure a team compares before choosing: a
// jest project of 20 files, each a producer and a consumer group on a topic
// of its own (100 records produced, consumed, committed, checked:
// suite/suite.test.template.js), run with 1 and 4 workers against each
// target, interleaved round by round; each target's wall time and its ratio
// to kfake's, in one run.
//
//   npm run build && node bench/suite.mjs                 # every target, 3 rounds (~10 min on 2 busy cores)
//   node bench/suite.mjs --quick                          # ours, shared, kfake; 1 round of 1 and 4 workers
//   node bench/suite.mjs --targets ours,kfake --rounds 5 --workers 1,4 [--files 20] [--json FILE]
//
// Targets:
//   ours    kafkaesque as its jest preset sets it up (docs/jest.md): a cluster per worker,
//           started by globalSetup in jest's process, clients through the chaos proxy
//   ours-topics  ours with the 20 topics declared in globals.kafkaesque.topics, as docs/jest.md
//           shows: no auto-creation (not in the default set; see bench/README.md)
//   ours-no-proxy  ours with `proxy: false` in the preset: what the proxy's hop costs (not in the default set)
//   shared  kafkaesque, one shared cluster (`kafkaesque start`, proxy on), started by the bench
//   kfake   franz-go's kfake, one shared cluster (bench/kfake, lib/kfake.mjs builds it)
//   mock    librdkafka's mock cluster, one shared cluster (reference.mjs builds it)
//   kafka   Apache Kafka 4.1.1, one KRaft node in a JVM (scripts/real-kafka.mjs), shared, as
//           Testcontainers users run it
// A shared cluster is started fresh for every jest run, before jest, with one
// broker; its start is timed apart, and "with start" adds it, as a suite that
// starts its container in globalSetup pays it.
//
// The project is written to bench/.ref/suite/ (git-ignored), with
// node_modules links to this repository (as `npm install kafkaesque` would
// put it) and to its kafkajs and jest. No transform (the files are plain
// CommonJS), so no target pays babel. Every jest run starts with an empty
// cache, as in CI; an untimed run first warms the OS's file cache.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { killAll, startBroker } from './lib/broker-process.mjs';
import { kfakePath } from './lib/kfake.mjs';
import { median, fmt, spread } from './lib/stats.mjs';
import { alignRows } from './lib/table.mjs';
import { kafkaSpec, kfakeSpec, mockSpec, orderFor, oursCli, oursSpec, repoDir } from './lib/targets.mjs';
import { ensureKafkaJars } from '../scripts/real-kafka.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const suiteDir = path.join(benchDir, '.ref', 'suite');
const template = path.join(benchDir, 'suite', 'suite.test.template.js');
const TARGETS = ['ours', 'shared', 'kfake', 'mock', 'kafka', 'ours-topics', 'ours-no-proxy'];
const DEFAULT_TARGETS = ['ours', 'shared', 'kfake', 'mock', 'kafka'];
const SHARED_LIFETIME_S = 300;
const RUN_TIMEOUT_MS = 240_000;

const USAGE = `usage: node bench/suite.mjs [--targets ${TARGETS.join(',')}] [--workers 1,4] [--rounds 3]
                          [--files 20] [--records 100] [--timeout 1800] [--json FILE] [--quick]
  --quick   1 round, targets ours,shared,kfake (no Maven, no librdkafka build)
`;

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      targets: { type: 'string' },
      workers: { type: 'string', default: '1,4' },
      rounds: { type: 'string' },
      files: { type: 'string', default: '20' },
      records: { type: 'string', default: '100' },
      timeout: { type: 'string', default: '1800' },
      json: { type: 'string' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
  const count = (name, v, min, max) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} needs a whole number in ${min}..${max}, got ${v}`);
    return n;
  };
  const targets = list(values.targets ?? (values.quick ? 'ours,shared,kfake' : DEFAULT_TARGETS.join(',')));
  const unknown = targets.filter((t) => !TARGETS.includes(t));
  if (unknown.length || !targets.length) throw new Error(`--targets: unknown ${unknown.join(', ') || '(none)'} (${TARGETS.join(', ')})`);
  return {
    targets,
    workers: list(values.workers).map((w) => count('workers', w, 1, 32)),
    rounds: count('rounds', values.rounds ?? (values.quick ? 1 : 3), 1, 50),
    files: count('files', values.files, 1, 200),
    records: count('records', values.records, 1, 100_000),
    timeout: count('timeout', values.timeout, 10, 86_400),
    json: values.json,
  };
}

/** bench/.ref/suite: package.json, two jest configs, the test files, node_modules links. */
function writeProject(files) {
  fs.rmSync(suiteDir, { recursive: true, force: true });
  const modules = path.join(suiteDir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  fs.symlinkSync(repoDir, path.join(modules, 'kafkaesque'));
  for (const dep of ['kafkajs', 'jest']) fs.symlinkSync(path.join(repoDir, 'node_modules', dep), path.join(modules, dep));
  fs.writeFileSync(path.join(suiteDir, 'package.json'), `${JSON.stringify({ name: 'suite', private: true }, null, 2)}\n`);
  const common = { transform: {}, testTimeout: 60_000 };
  // ours: the preset's default isolation, a one-broker cluster per worker (as the shared targets have one broker).
  const names = Array.from({ length: files }, (_, i) => `suite-${String(i + 1).padStart(2, '0')}`);
  const topics = names.map((name) => ({ name, partitions: 1 }));
  const configs = {
    'jest.ours.config.js': { preset: 'kafkaesque', ...common, globals: { kafkaesque: { brokers: 1 } } },
    'jest.ours-topics.config.js': { preset: 'kafkaesque', ...common, globals: { kafkaesque: { brokers: 1, topics } } },
    'jest.ours-no-proxy.config.js': { preset: 'kafkaesque', ...common, globals: { kafkaesque: { brokers: 1, proxy: false } } },
    'jest.shared.config.js': { testEnvironment: 'node', ...common },
  };
  for (const [file, config] of Object.entries(configs)) {
    fs.writeFileSync(path.join(suiteDir, file), `module.exports = ${JSON.stringify(config, null, 2)};\n`);
  }
  const source = fs.readFileSync(template, 'utf8');
  for (const name of names) fs.writeFileSync(path.join(suiteDir, `${name}.test.js`), source);
}

/** The spawn spec of a shared target (started by the bench), or null for ours. */
function sharedSpec(target) {
  if (target === 'shared') return oursSpec(oursCli, ['--log-level', 'warn'], 'shared');
  if (target === 'kfake') return kfakeSpec();
  if (target === 'mock') return mockSpec();
  if (target === 'kafka') return kafkaSpec();
  return null;
}

/** One jest run: spawn -> exit, with jest's JSON results and the tests' phase lines. */
function runJest({ config, workers, env, tag, log }) {
  const out = path.join(suiteDir, `.result-${tag}.json`);
  const phasesFile = path.join(suiteDir, `.phases-${tag}.jsonl`);
  fs.rmSync(out, { force: true });
  fs.rmSync(phasesFile, { force: true });
  // An empty cache per run, as in CI. With a warm one, jest runs up to 20
  // files it remembers as fast in its own process whatever --maxWorkers says
  // (shouldRunInBand in @jest/core), so "4 workers" would mean 1 for some.
  const cache = path.join(suiteDir, '.jest-cache', tag);
  fs.rmSync(cache, { recursive: true, force: true });
  const args = [path.join(repoDir, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--config', config, '--maxWorkers', String(workers), '--cacheDirectory', cache, '--json', '--outputFile', out];
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: suiteDir,
      env: { ...process.env, ...env, SUITE_PHASES: phasesFile, FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true, // its own process group: a run over time is killed whole
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    const timer = setTimeout(() => {
      log(`  ${tag}: over ${RUN_TIMEOUT_MS / 1000} s, killing jest`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, RUN_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      let result = null;
      try {
        result = JSON.parse(fs.readFileSync(out, 'utf8'));
      } catch {
        /* none */
      }
      const phases = fs.existsSync(phasesFile)
        ? fs.readFileSync(phasesFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
        : [];
      resolve({ wallMs, code, signal, result, phases, stderr });
    });
  });
}

/** Per-file figures from jest's --json results: the file's time in its worker, the test's own, what came before it. */
function fileFigures(result) {
  const files = result?.testResults ?? [];
  const test = (f) => f.assertionResults?.[0];
  return {
    passed: result?.numPassedTests ?? 0,
    failed: (result?.numFailedTests ?? 0) + (result?.numRuntimeErrorTestSuites ?? 0),
    fileMs: median(files.map((f) => f.endTime - f.startTime)),
    testMs: median(files.map((f) => test(f)?.duration)),
    // the file's start -> its test's start: the environment, setup files, the file's imports
    setupMs: median(files.map((f) => (test(f)?.startAt ?? NaN) - f.startTime)),
    firstFileStartMs: files.length ? Math.min(...files.map((f) => f.startTime)) - result.startTime : null,
    lastFileEndMs: files.length ? Math.max(...files.map((f) => f.endTime)) - result.startTime : null,
    failures: files.filter((f) => f.status !== 'passed').map((f) => `${path.basename(f.name)}: ${(f.message || '').split('\n').find((l) => l.trim()) ?? f.status}`),
  };
}

async function oneRun(target, workers, o, tag, log) {
  const spec = sharedSpec(target);
  let broker = null;
  let startMs = 0;
  try {
    if (spec) {
      broker = await startBroker(spec, { brokers: 1, lifetime: SHARED_LIFETIME_S, readyTimeoutMs: spec.readyTimeoutMs ?? 20_000 });
      startMs = broker.readyMs;
    }
    const run = await runJest({
      config: spec ? 'jest.shared.config.js' : `jest.${target}.config.js`,
      workers,
      env: { SUITE_RECORDS: String(o.records), ...(broker ? { KAFKA_BROKERS: broker.bootstrap.join(',') } : {}) },
      tag,
      log,
    });
    const f = fileFigures(run.result);
    const ok = run.code === 0 && f.passed === o.files;
    if (!ok) log(`  ${tag}: jest ${run.signal ?? `exit ${run.code}`}, ${f.passed}/${o.files} passed; ${f.failures.slice(0, 3).join('; ') || run.stderr.split('\n').slice(-5).join(' | ')}`);
    const phase = (k) => median(run.phases.map((p) => p[k]));
    return {
      target, workers, ok, wallMs: run.wallMs, startMs, totalMs: run.wallMs + startMs, ...f,
      produced: phase('produced'), firstRecord: phase('firstRecord'), consumed: phase('consumed'), committed: phase('committed'), checked: phase('checked'),
      requireKafkajsMs: phase('requireKafkajsMs'),
      // the first file in each worker: its consumer's wait on a fresh cluster
      firstRecordMax: run.phases.length ? Math.max(...run.phases.map((p) => p.firstRecord - p.produced)) : null,
    };
  } finally {
    if (broker) await broker.stop(target === 'kafka' ? 20_000 : 5000);
  }
}

function summarize(runs, o) {
  const rows = [];
  for (const workers of o.workers) {
    const byTarget = Object.fromEntries(o.targets.map((t) => [t, runs.filter((r) => r.target === t && r.workers === workers)]));
    // Ratios round by round: a round's runs were taken next to each other.
    const ratio = (t, key) =>
      median(byTarget[t].map((r) => {
        const k = byTarget.kfake?.find((x) => x.round === r.round);
        return r.ok && k?.ok ? r[key] / k[key] : null;
      }));
    const ratioSpread = (t, key) => spread(byTarget[t].map((r) => {
      const k = byTarget.kfake?.find((x) => x.round === r.round);
      return r.ok && k?.ok ? r[key] / k[key] : null;
    }), 2);
    for (const t of o.targets) {
      const ok = byTarget[t].filter((r) => r.ok);
      const m = (key) => median(ok.map((r) => r[key]));
      rows.push({
        workers, target: t, runs: byTarget[t].length, ok: ok.length,
        wallMs: m('wallMs'), wallSpread: spread(ok.map((r) => r.wallMs / 1000), 2), startMs: m('startMs'), totalMs: m('totalMs'),
        wallPerKfake: t === 'kfake' ? null : ratio(t, 'wallMs'), wallPerKfakeSpread: t === 'kfake' ? '' : ratioSpread(t, 'wallMs'),
        totalPerKfake: t === 'kfake' ? null : ratio(t, 'totalMs'),
        fileMs: m('fileMs'), testMs: m('testMs'), setupMs: m('setupMs'), firstFileStartMs: m('firstFileStartMs'),
        produced: m('produced'), firstRecordWait: median(ok.map((r) => r.firstRecord - r.produced)), firstRecordMax: m('firstRecordMax'),
        consumed: m('consumed'), checked: m('checked'), requireKafkajsMs: m('requireKafkajsMs'),
      });
    }
  }
  return rows;
}

function formatTable(rows, o, seconds) {
  const s = (ms, d = 2) => (ms == null ? '-' : fmt(ms / 1000, d));
  const ms = (x) => (x == null ? '-' : fmt(x, 0));
  const head = ['workers', 'target', 'wall (s)', 'spread', '/kfake', 'cluster start (s)', 'with start (s)', '/kfake', 'ok'];
  const body = rows.map((r) => [r.workers, r.target, s(r.wallMs), r.wallSpread, r.wallPerKfake == null ? '' : fmt(r.wallPerKfake, 2), s(r.startMs), s(r.totalMs), r.totalPerKfake == null ? '' : fmt(r.totalPerKfake, 2), `${r.ok}/${r.runs}`]);
  const head2 = ['workers', 'target', 'file (ms)', 'test (ms)', 'to test start', 'produce', 'first record wait', 'slowest first record', 'all consumed', 'committed+checked', 'jest to 1st file'];
  const body2 = rows.map((r) => [r.workers, r.target, ms(r.fileMs), ms(r.testMs), ms(r.setupMs), ms(r.produced), ms(r.firstRecordWait), ms(r.firstRecordMax), ms(r.consumed), ms(r.checked), ms(r.firstFileStartMs)]);
  return [
    `jest suite: ${o.files} files, each a producer and a consumer group on its own topic (${o.records} records produced, consumed, committed, checked);`,
    `${o.rounds} round(s), targets interleaved (a b c, c b a, ...); medians; ratios to kfake taken round by round; ${seconds.toFixed(0)} s in all`,
    ...alignRows([head, ...body.map((r) => r.map(String))]),
    '',
    'where a file\'s time goes (medians over files and runs, ms; phases from the test\'s start):',
    ...alignRows([head2, ...body2.map((r) => r.map(String))]),
  ].join('\n');
}

async function main() {
  let o;
  try {
    o = parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (line) => process.stderr.write(`${line}\n`);
  const hard = setTimeout(() => {
    log(`bench suite: over --timeout ${o.timeout} s; killing brokers`);
    killAll();
    process.exit(3);
  }, o.timeout * 1000);
  hard.unref();
  if ((o.targets.includes('ours') || o.targets.includes('shared')) && !fs.existsSync(oursCli)) {
    log(`${path.relative(process.cwd(), oursCli)} is missing: npm run build first`);
    return 1;
  }
  // Builds and downloads before any timing.
  if (o.targets.includes('kfake')) kfakePath();
  if (o.targets.includes('mock')) sharedSpec('mock');
  if (o.targets.includes('kafka')) ensureKafkaJars();
  writeProject(o.files);

  const started = performance.now();
  log(`warm-up (untimed): ${o.targets[0]}, 1 worker`);
  await oneRun(o.targets[0], 1, o, 'warmup', log);
  const runs = [];
  for (let round = 0; round < o.rounds; round++) {
    for (const workers of o.workers) {
      for (const target of orderFor(o.targets, round)) {
        const tag = `${target}-w${workers}-r${round + 1}`;
        const r = await oneRun(target, workers, o, tag, log);
        r.round = round;
        runs.push(r);
        log(`  ${tag}: ${(r.wallMs / 1000).toFixed(2)} s${r.startMs ? ` (+ start ${(r.startMs / 1000).toFixed(2)} s)` : ''}${r.ok ? '' : ' FAILED'}`);
      }
    }
  }
  clearTimeout(hard);
  const rows = summarize(runs, o);
  const seconds = (performance.now() - started) / 1000;
  const result = { part: 'suite', when: new Date().toISOString(), options: o, seconds, rows, runs };
  if (o.json) fs.writeFileSync(o.json, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${formatTable(rows, o, seconds)}\n`);
  return runs.every((r) => r.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    killAll();
    process.exit(1);
  },
);
