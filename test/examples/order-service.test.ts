// The worked example of docs/examples/order-service/ as its users run it: its
// own jest project (kafkaesque's fixture from dist/, which npm test builds
// first), once per variant. The fixed service must pass every test; the buggy
// one must pass only the good-day test and fail each fault's test for its own
// bug, which we read from jest's --json report: the audit fields that came out
// non-empty in each failure.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const example = 'docs/examples/order-service';

const GOOD_DAY = 'on a good day, every order is charged once and has one result';
const LOST_ACK = 'lost-ack: a result whose ack is lost is not written twice';
const REDELIVERY = 'redelivery: orders delivered again are not charged again';
const RESTART = 'restart: an instance stopped in the middle of a batch loses no order';

interface AssertionResult {
  title: string;
  status: string;
  failureMessages: string[];
}

interface JestReport {
  testResults: { assertionResults: AssertionResult[] }[];
}

interface Run {
  code: number;
  tests: Map<string, AssertionResult>;
}

/** `node ...args` with only PATH and `env` in its environment, bounded in time. */
function node(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout + stderr }),
    );
  });
}

/** One nested jest run of the example with VARIANT=variant, and its --json report by test title. */
async function runExample(variant: 'buggy' | 'fixed'): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), `kafkaesque-example-${variant}-`));
  try {
    const report = join(dir, 'report.json');
    const args = ['-c', `${example}/jest.config.js`, '--runInBand', '--ci', '--json', `--outputFile=${report}`];
    const { code, out } = await node(['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', ...args], { VARIANT: variant, FORCE_COLOR: '0' });
    let json: JestReport;
    try {
      json = JSON.parse(readFileSync(report, 'utf8')) as JestReport;
    } catch {
      throw new Error(`VARIANT=${variant}: no jest report (exit ${code}):\n${out}`);
    }
    const tests = new Map(json.testResults.flatMap((f) => f.assertionResults).map((a) => [a.title, a]));
    return { code, tests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The audit fields a failure shows as received non-empty: the lines `+   "duplicatedResults": [` of jest's diff. */
function nonEmptyAuditFields(result: AssertionResult | undefined): string[] {
  const message = (result?.failureMessages ?? []).join('\n').replace(/\x1b\[[0-9;]*m/g, '');
  return [...message.matchAll(/^\s*\+\s+"(\w+)": (?:Array )?\[$/gm)].map((m) => m[1]!).sort();
}

test('the example typechecks against the built package', async () => {
  const { code, out } = await node(['node_modules/typescript/bin/tsc', '-p', `${example}/tsconfig.json`]);
  expect([code, out]).toEqual([0, '']);
});

test('the fixed order service passes its suite, and the buggy one fails the test of each bug', async () => {
  const [fixed, buggy] = await Promise.all([runExample('fixed'), runExample('buggy')]);

  const status = (r: Run) => Object.fromEntries([...r.tests].map(([title, a]) => [title, a.status]));
  const failures = (r: Run) => [...r.tests.values()].filter((a) => a.status !== 'passed').map((a) => `${a.title}: ${a.failureMessages.join('\n')}`);
  expect(failures(fixed)).toEqual([]);
  expect([fixed.code, status(fixed)]).toEqual([0, { [GOOD_DAY]: 'passed', [LOST_ACK]: 'passed', [REDELIVERY]: 'passed', [RESTART]: 'passed' }]);
  expect([buggy.code, status(buggy)]).toEqual([1, { [GOOD_DAY]: 'passed', [LOST_ACK]: 'failed', [REDELIVERY]: 'failed', [RESTART]: 'failed' }]);

  // Each failure is its own bug: the non-idempotent producer duplicates a
  // result, the missing dedup charges and announces redelivered orders twice,
  // and committing before processing loses the rest of the batch.
  expect(nonEmptyAuditFields(buggy.tests.get(LOST_ACK))).toEqual(['duplicatedResults']);
  expect(nonEmptyAuditFields(buggy.tests.get(REDELIVERY))).toEqual(['duplicatedInStore', 'duplicatedResults']);
  expect(nonEmptyAuditFields(buggy.tests.get(RESTART))).toEqual(['lostInStore', 'lostResults']);
}, 70_000);
