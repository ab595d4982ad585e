// What `import('kafkaesque')` and `require('kafkaesque')` load (issue 21,
// item 3): the built package (npm run build first) leaves the code behind
// startCluster, startProxy and startControlServer, the built-in modules only
// they need, the protocol codecs and the coordinators, to their first call; a
// call then loads them and works.
// In fresh processes, as a test file meets the package. No timings here:
// bench/startup-import.mjs prints those.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as source from '../src/index.js';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));

/** Runs a script in a fresh Node process and parses the JSON it prints last. */
function fresh(code: string, esm: boolean): Promise<Record<string, unknown>> {
  const argv = esm ? ['--input-type=module', '-e', code] : ['-e', code];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, argv, { cwd: repo, env: { PATH: process.env.PATH }, timeout: 20_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout.trim().split('\n').pop()!)),
    ),
  );
}

// Loaded by neither a plain `node -e 0` nor the package at import.
const STARTED_ONLY = ['net', 'tls', 'crypto', 'http'];

// A line of each part only a start needs: the generated codecs
// (src/protocol/messages/, ~290 KB; the exported chaos actions need only the
// api keys) and the coordinators (~200 KB; the exported Cluster takes them
// from its composition root, src/broker/cluster-coordinators.ts).
// (The CommonJS copies write a class as `var GroupCoordinator = class`.)
const START_ONLY: [string, RegExp][] = [
  ['the protocol codecs', /function readProduceRequest\(/],
  ['the coordinators', /class GroupCoordinator\b|GroupCoordinator = class\b/],
];

/** The files Node links before it evaluates an ES module: its static imports, transitively (import() left out). */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/\bfrom\s*"(\.\.?\/[^"]+)"|^import\s*"(\.\.?\/[^"]+)"/gm)) staticGraph(join(dirname(file), m[1] ?? m[2]), seen);
  return seen;
}

/** Loads the package, notes the built-ins, then starts a cluster and asks it for metadata with kafkajs. */
const script = (load: string) => `
  const builtins = () => process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
  const k = ${load};
  const atImport = builtins();
  const filesAtImport = Object.keys(require.cache);
  const cluster = await k.startCluster({ brokers: 1, topics: [{ name: 'lazy', partitions: 2 }] });
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ brokers: [cluster.bootstrap], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const metadata = await admin.fetchTopicMetadata({ topics: ['lazy'] });
  await admin.disconnect();
  await cluster.stop();
  const filesAfterStart = Object.keys(require.cache);
  console.log(JSON.stringify({ exports: Object.keys(k).filter((n) => n !== 'default' && n !== '__esModule').sort(), atImport, filesAtImport, filesAfterStart, partitions: metadata.topics[0].partitions.length }));
`;

beforeAll(() => {
  for (const built of ['dist/index.js', 'dist/cjs/index.js']) if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: npm run build first`);
});

test.each([
  ['ES module', `await import(${JSON.stringify(join(repo, 'dist/index.js'))})`, true],
  ['CommonJS', `require(${JSON.stringify(join(repo, 'dist/cjs/index.js'))})`, false],
])('the %s package loads no listener code at import, then starts a cluster that kafkajs reads, with every export of src/index.ts', async (_, load, esm) => {
  const code = esm ? `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(join(repo, 'package.json'))});${script(load)}` : `(async () => {${script(load)}})().catch((e) => { console.error(e); process.exit(1); });`;
  const seen = await fresh(code, esm);
  expect((seen.atImport as string[]).filter((m) => STARTED_ONLY.includes(m))).toEqual([]);
  expect(seen.partitions).toBe(2);
  expect(seen.exports).toEqual(Object.keys(source).sort());
});

test.each(START_ONLY)('neither copy of the package evaluates %s at import, and a start loads them', async (_, marker) => {
  const esm = [...staticGraph(join(repo, 'dist/index.js'))];
  const holding = (files: string[]) => files.filter((f) => f.includes('/dist/') && marker.test(readFileSync(f, 'utf8')));
  expect(esm.length).toBeGreaterThan(1);
  expect(holding(esm)).toEqual([]);
  const cjs = await fresh(`(async () => {${script(`require(${JSON.stringify(join(repo, 'dist/cjs/index.js'))})`)}})().catch((e) => { console.error(e); process.exit(1); });`, false);
  const atImport = cjs.filesAtImport as string[];
  expect(atImport.some((f) => f.endsWith('/dist/cjs/index.js'))).toBe(true);
  expect(holding(atImport)).toEqual([]);
  // The marker is right: the start that answered kafkajs had loaded them.
  expect(holding(cjs.filesAfterStart as string[])).toHaveLength(1);
});
