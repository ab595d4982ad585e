// The fixture in every runner, as a user installs it: the package as
// `npm pack` packs it (dist/ is built first), copied into each user project
// of test/jest/projects/ (README there), run by the project's own runner.
//
// Isolation: four jest files that each reset, produce and consume, run with
// -w 4, three times, all pass; the same files against one shared cluster
// (what globalSetup used to start) fail.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCluster } from '../../src/index.js';

const repo = resolve(new URL('../..', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'kafkaesque-runners-'));
let unpacked: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist/cjs/index.js'))) throw new Error('dist/ is not built: npm run build first');
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string }[];
  execFileSync('tar', ['-xzf', join(work, filename!), '-C', work]);
  unpacked = join(work, 'package');
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the project with node_modules: the packed kafkaesque, and the repository's dependencies linked. */
function install(project: string, as = project): string {
  const dir = join(work, as);
  cpSync(join(repo, 'test/jest/projects', project), dir, { recursive: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    if (name === 'kafkaesque' || name.startsWith('.')) continue;
    symlinkSync(join(repo, 'node_modules', name), join(modules, name));
  }
  cpSync(unpacked, join(modules, 'kafkaesque'), { recursive: true });
  return dir;
}

interface Run {
  code: number;
  out: string;
}

/** `node ...args` in the project, bounded in time, with only PATH and `env` in the environment. */
function node(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH, FORCE_COLOR: '0', NO_COLOR: '1', ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout + stderr }),
    );
  });
}

const jest = 'node_modules/jest/bin/jest.js';

/** Which worker used which control URL, from the files' reports. */
function reports(dir: string): { worker: string; url: string }[] {
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { worker: string; url: string });
}

/** Each worker had one cluster, and no two workers the same one. */
function expectOneClusterPerWorker(runs: { worker: string; url: string }[]): void {
  const byWorker = new Map<string, Set<string>>();
  for (const r of runs) byWorker.set(r.worker, (byWorker.get(r.worker) ?? new Set()).add(r.url));
  expect(byWorker.size).toBeGreaterThan(1); // the files did run in several workers
  for (const urls of byWorker.values()) expect(urls.size).toBe(1);
  expect(new Set(runs.map((r) => r.url)).size).toBe(byWorker.size);
}

test('a default CommonJS jest config with preset: kafkaesque: four files that reset, run with -w 4, three times, all pass', async () => {
  const dir = install('cjs');
  for (let i = 0; i < 3; i++) {
    const report = join(work, `cjs-report-${i}`);
    // A cache of its own each run: with the timings of a run where every file took under 1 s, jest runs
    // <= 20 files in band whatever -w says (@jest/core shouldRunInBand), and one worker proves nothing.
    const run = await node(dir, [jest, '-w', '4', '--ci', '--cacheDirectory', join(work, `cjs-cache-${i}`)], { RUN_REPORT: report });
    expect([run.code, run.out]).toEqual([0, expect.stringMatching(/Tests:\s+4 passed, 4 total/)]);
    expectOneClusterPerWorker(reports(report));
  }
}, 400_000);

test('the same files fail when every worker shares one cluster, as they did under the old globalSetup', async () => {
  const dir = install('cjs', 'cjs-shared');
  const shared = await startCluster({ brokers: 1, port: 0, controlPort: 0, groupInitialRebalanceDelayMs: 0 });
  try {
    // No preset: every worker reads the one cluster's addresses from the environment.
    const run = await node(dir, [jest, '-w', '4', '--ci', '--config', '{}'], { KAFKA_BROKERS: shared.bootstrap, KAFKAESQUE_URL: shared.controlUrl });
    expect(run.code).not.toBe(0);
    expect(run.out).toMatch(/Tests:\s+[1-4] failed/);
  } finally {
    await shared.stop();
  }
}, 120_000);

test('several workers without kafkaesque/jest/setup: refused with the fix', async () => {
  const dir = install('cjs', 'cjs-no-setup');
  const config = JSON.stringify({ globalSetup: 'kafkaesque/jest/global-setup', globalTeardown: 'kafkaesque/jest/global-teardown' });
  const run = await node(dir, [jest, '-w', '2', '--ci', '--config', config]);
  expect(run.code).not.toBe(0);
  expect(run.out).toMatch(/2 workers each get their own cluster.*add it to setupFiles \(or use preset: 'kafkaesque'/);
}, 120_000);

test('ESM jest (--experimental-vm-modules), wired by hand: the ES modules, and the matchers', async () => {
  const dir = install('esm');
  const run = await node(dir, ['--experimental-vm-modules', jest, '-w', '2', '--ci']);
  expect([run.code, run.out]).toEqual([0, expect.stringMatching(/Tests:\s+2 passed, 2 total/)]);
}, 120_000);

test('TypeScript under @swc/jest (CommonJS): withFault and the matchers', async () => {
  const dir = install('swc');
  const run = await node(dir, [jest, '--ci']);
  expect([run.code, run.out]).toEqual([0, expect.stringMatching(/Tests:\s+1 passed, 1 total/)]);
}, 120_000);

test('vitest: kafkaesque/vitest gives each of two workers its own cluster through provide/inject', async () => {
  const dir = install('vitest');
  const report = join(work, 'vitest-report');
  const run = await node(dir, ['node_modules/vitest/vitest.mjs', 'run'], { RUN_REPORT: report });
  expect([run.code, run.out]).toEqual([0, expect.stringMatching(/Tests\s+2 passed/)]);
  expect(run.out).not.toMatch(/Sourcemap .* points to missing source files/); // the maps carry their sources: src/ is not packed
  const runs = reports(report);
  expect(new Set(runs.map((r) => r.url)).size).toBe(2);
}, 120_000);

test('node:test: kafkaesque/node-test starts a cluster per file and stops it', async () => {
  const dir = install('node-test');
  // TAP on every Node line: 24 prints its spec reporter even when piped.
  const run = await node(dir, ['--test', '--test-reporter=tap']);
  expect([run.code, run.out]).toEqual([0, expect.stringMatching(/# pass 2\b/)]);
}, 120_000);
