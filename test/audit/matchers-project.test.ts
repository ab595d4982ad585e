// The delivery matchers as a user registers them: a nested jest run of
// matchers-project/ (setupFilesAfterEnv: dist/jest/matchers.js, the fixture's
// globalSetup). One inner test passes; the other fails on purpose, and its
// failure message must explain itself in the user's terms.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

test('registered from setupFilesAfterEnv: a pass, and a failure that names the records and the fault', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-matchers-'));
  const out = join(dir, 'results.json');
  const run = await new Promise<{ code: number; log: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '-c', 'test/audit/matchers-project/jest.config.mjs', '--runInBand', '--ci', '--json', `--outputFile=${out}`],
      { env: { PATH: process.env.PATH }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, log: stdout + stderr }),
    );
  });
  let results: JestJson;
  try {
    results = JSON.parse(readFileSync(out, 'utf8')) as JestJson;
  } catch {
    throw new Error(`the nested jest wrote no results (exit ${run.code}):\n${run.log}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect([run.code, results.numPassedTests, results.numFailedTests]).toEqual([1, 1, 1]);
  const [passed, failed] = results.testResults[0]!.assertionResults;
  expect(passed).toMatchObject({ status: 'passed' });
  expect(failed!.status).toBe('failed');
  const message = failed!.failureMessages.join('\n');
  expect(message).toContain('expected exactly-once delivery (orders; 1 processed, 4 stored), but:');
  expect(message).toMatch(/duplicate: record 'o-1' is stored twice \(orders-0@0, orders-0@2\), after the drop-response fault fired on Produce to orders-0 from client billing-1 \(rule lost-ack, event \d+\)/);
  expect(message).toContain("unseen: record 'o-2' of orders-0 (offset 3) was acknowledged but never processed (nothing after it in that partition was)");
}, 70_000);
