// `kafkaesque sweep` end to end: the built CLI (dist/cli.js; `npm run build`
// first) runs a real kafkajs application (sweep-app.mjs) once per cell, over
// real sockets, each cell on a fresh cluster. The application is a producer
// without idempotence: lost-ack lands a duplicate that its audit finds (the
// cell fails, with the audit's lines), coordinator-moves touches nothing it
// does through the proxy (its checking consumer uses the side door), so that
// cell passes. Every child is bounded by execFile's timeout and the sweep's own.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-sweep-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/cli.js', ...args], { env: { PATH: process.env.PATH }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

// The application's output is part of what the test checks (the cell's last
// output). kafkajs 2.2.4 sets a negative timer on every connection, which
// Node 24 reports as a TimeoutNegativeWarning on stderr (tulios/kafkajs#1751):
// that one warning is off, so the output is the same on every Node line.
const APP_COMMAND = [process.execPath, '--disable-warning=TimeoutNegativeWarning', 'test/cli/sweep-app.mjs'];
const APP = ['--', ...APP_COMMAND];

interface CellJson {
  preset: string | null;
  seed: number;
  outcome: string;
  faultsFired: number;
  anomalies: string[];
  outputTail: string[];
  env: Record<string, string>;
  replay: string;
}

test('a producer without idempotence: lost-ack breaks the suite with a duplicate the audit names, coordinator-moves does not; JSON, JUnit and a replay that fails the same way', async () => {
  const junit = join(dir, 'sweep.xml');
  const r = await cli(['sweep', '--presets', 'lost-ack,coordinator-moves', '--seeds', '1,2', '--jobs', '2', '--brokers', '1', '--json', '--junit', junit, ...APP]);
  expect(r.code).toBe(1);
  const out = JSON.parse(r.stdout) as { ok: boolean; baseline: CellJson; cells: CellJson[] };
  expect(out.ok).toBe(false);
  expect(out.baseline).toMatchObject({ preset: null, outcome: 'passed', faultsFired: 0, anomalies: [] });
  expect(out.cells.map((c) => [c.preset, c.seed, c.outcome])).toEqual([
    ['lost-ack', 1, 'failed'],
    ['lost-ack', 2, 'failed'],
    ['coordinator-moves', 1, 'passed'],
    ['coordinator-moves', 2, 'passed'],
  ]);
  const lost = out.cells[0]!;
  expect(lost.faultsFired).toBe(1);
  expect(lost.anomalies.join('\n')).toMatch(/duplicate: record 'o-0' is stored twice .*drop-response/);
  expect(lost.outputTail).toEqual(['6 record(s) read, audit NOT ok']);
  expect(lost.env).toMatchObject({ KAFKAESQUE_PRESET: 'lost-ack', KAFKAESQUE_SEED: '1', KAFKA_BROKERS: expect.any(String), KAFKAESQUE_DIRECT_BROKERS: expect.any(String), KAFKAESQUE_URL: expect.stringMatching(/^http:/) });
  expect(lost.env.KAFKAESQUE_DIRECT_BROKERS).not.toBe(lost.env.KAFKA_BROKERS);
  // The checking consumer and the admin went through the side door: coordinator-moves never fired.
  expect(out.cells[2]!.faultsFired).toBe(0);
  expect(lost.replay).toBe(`kafkaesque sweep --presets lost-ack --no-baseline --seeds 1 --brokers 1 -- ${APP_COMMAND.join(' ')}`);

  const xml = readFileSync(junit, 'utf8');
  expect(xml.match(/<testcase /g)).toHaveLength(5);
  expect(xml).toMatch(/<testsuite name="kafkaesque sweep" tests="5" failures="2"/);
  expect(xml).toMatch(/<testcase classname="kafkaesque.sweep.lost-ack" name="lost-ack seed 1"[^]*?<failure message="FAILED \(exit code 1\)">[^]*?duplicate: record 'o-0'/);

  // The replay line runs that one cell again, and the same seed gives the same fault and the same duplicate.
  const [kafkaesque, ...words] = lost.replay.split(' ');
  expect(kafkaesque).toBe('kafkaesque');
  const again = await cli(words);
  expect(again.code).toBe(1);
  expect(again.stdout).toContain(lost.anomalies.find((l) => l.includes('stored twice'))!.trim());
  expect(again.stdout).not.toMatch(/^baseline/m);
}, 90_000);

test('text output: the table, what each failed cell printed, and its replay line; the cell learns its preset and seed from the environment', async () => {
  const script = 'echo "preset=$KAFKAESQUE_PRESET seed=$KAFKAESQUE_SEED audit-out=${KAFKAESQUE_AUDIT_OUT:+set}"; test "$KAFKAESQUE_PRESET" != lost-ack';
  const r = await cli(['sweep', '--presets', 'lost-ack,slow-broker', '--seeds', '7', '--brokers', '1', '--', script]);
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^preset +seed +result +faults +time\nbaseline \(no preset\) +7 +passed +0 +\d+\.\ds\nlost-ack +7 +FAILED +0 +\d+\.\ds\nslow-broker +7 +passed /);
  expect(r.stdout).toContain('FAILED: lost-ack, seed 7 (exit code 1)\n  last output:\n    preset=lost-ack seed=7 audit-out=set\n');
  expect(r.stdout).toContain(`  replay: kafkaesque sweep --presets lost-ack --no-baseline --seeds 7 --brokers 1 -- '${script.replace(/'/g, `'\\''`)}'`);
  expect(r.stdout).toMatch(/1 preset\(s\) broke the suite: lost-ack\n$/);
  // Progress goes to stderr, one line a cell.
  expect(r.stderr.trim().split('\n')).toHaveLength(3);
});

test('a suite that fails without any fault: the baseline says so and no preset runs', async () => {
  const r = await cli(['sweep', '--seeds', '4', '--', 'exit 3']);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('The suite fails without any fault (the baseline): fix that first; no preset was run.');
  expect(r.stdout).toContain('FAILED: baseline (no preset), seed 4 (exit code 3)');
  expect(r.stdout).toContain('replay: kafkaesque sweep --presets none --seeds 4 -- ');
  expect(r.stdout).not.toMatch(/^lost-ack/m);
});

test('--timeout-ms: the command and what it started are killed, the cell fails as timed out', async () => {
  const pidFile = join(dir, 'grandchild.pid');
  const r = await cli(['sweep', '--presets', 'none', '--timeout-ms', '500', '--json', '--', `sleep 60 & echo $! > ${pidFile}; wait`]);
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stdout).baseline).toMatchObject({ outcome: 'timed-out', exitCode: null, signal: 'SIGKILL' });
  const pid = Number(readFileSync(pidFile, 'utf8'));
  expect(gone(pid)).toBe(true);
});

/** Whether a process has ended: no such process, or a zombie (in a container, nobody may reap an orphan). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  if (process.platform !== 'linux') return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

test('SIGTERM to the sweep ends the running command with its group and exits 130 without starting another cell', async () => {
  const cellDir = mkdtempSync(join(dir, 'interrupt-'));
  const pidFile = join(cellDir, 'cell.pid');
  const child = spawn(process.execPath, ['dist/cli.js', 'sweep', '--presets', 'lost-ack', '--seeds', '1,2', '--no-baseline', '--', `sleep 60 & echo $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  try {
    // The first cell's command is running once its pid file appears.
    await new Promise<void>((resolve) => {
      const watcher = watch(cellDir, () => {
        if (existsSync(pidFile)) {
          watcher.close();
          resolve();
        }
      });
      if (existsSync(pidFile)) {
        watcher.close();
        resolve();
      }
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
  } finally {
    child.kill('SIGKILL');
  }
  expect(gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  expect(stderr).toMatch(/sweep interrupted after 1 cell\(s\)/);
  expect(stderr).not.toMatch(/seed 2/);
});

test('usage errors exit 2 before any cell runs', async () => {
  const cases: [string[], RegExp][] = [
    [['sweep'], /give the test command after --/],
    [['sweep', '--presets', 'nope', '--', 'true'], /--presets nope: no preset 'nope'/],
    [['sweep', '--seeds', '1,x', '--', 'true'], /--seeds takes seeds/],
    [['sweep', '--seeds', '1', '--seed-count', '2', '--', 'true'], /--seeds or --seed-count, not both/],
    [['sweep', '--jobs', '0', '--', 'true'], /--jobs 0: must be a whole number from 1 to 64/],
    // The same bounds and words as start's flags (it said "got null" for abc, and let 100000 through to startCluster).
    [['sweep', '--brokers', 'abc', '--', 'true'], /--brokers abc: must be a whole number from 1 to 64/],
    [['sweep', '--brokers', '100000', '--', 'true'], /--brokers 100000: must be a whole number from 1 to 64/],
    [['sweep', '--topic', 'orders:x', '--', 'true'], /--topic orders:x: partitions/],
    [['sweep', 'npm', 'test'], /Unknown argument|put the test command after --/],
  ];
  const results = await Promise.all(cases.map(([args]) => cli(args)));
  results.forEach((r, i) => expect([cases[i]![0].join(' '), r.code, r.stdout]).toEqual([cases[i]![0].join(' '), 2, '']));
  results.forEach((r, i) => expect(r.stderr).toMatch(cases[i]![1]));
});

test('sweep --help lists its flags', async () => {
  const r = await cli(['sweep', '--help']);
  expect(r.code).toBe(0);
  for (const flag of ['--presets', '--seeds', '--seed-count', '--jobs', '--timeout-ms', '--baseline', '--brokers', '--topic', '--json', '--junit']) expect(r.stdout).toContain(flag);
});

test('start --json names the side door as directBootstrap; --no-direct leaves it out', async () => {
  const ready = async (extra: string[]) => {
    const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '2', '--port', '0', '--json', '--log-level', 'silent', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      return await new Promise<{ bootstrap: string; directBootstrap?: string; brokers: Record<string, string> }>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
        child.on('exit', (code) => reject(new Error(`start exited ${code}`)));
      });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  const on = await ready([]);
  expect(on.directBootstrap!.split(',')).toHaveLength(2);
  for (const address of on.directBootstrap!.split(',')) expect(Object.values(on.brokers)).not.toContain(address);
  expect((await ready(['--no-direct'])).directBootstrap).toBeUndefined();
});
