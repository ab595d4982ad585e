// The HTML report: `kafkaesque start --report FILE` (the built CLI) writes
// it at stop; opened from the file in a real browser with no server, it
// makes no request, shows the audit's anomalies, and links each to the
// faults before it in the timeline. Also the jest fixture's `report` (a file
// per worker) and the sweep's report of a failing cell. Needs `npm run build`.
// KAFKAESQUE_SCREENSHOTS=1 also writes docs/images/web-report.png.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ControlClient } from '../../src/control/client.js';
import { startFixtureClusters } from '../../src/fixture/clusters.js';
import { sweep } from '../../src/sweep/sweep.js';
import { kafkajs } from '../support/kafkajs.js';
import { launchBrowser, type TestBrowser } from './browser.js';

let dir: string;
let browser: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kafkaesque-report-'));
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** `kafkaesque start` in the background until its ready line. */
async function startCli(args: string[]) {
  const child = spawn(process.execPath, ['dist/cli.js', 'start', '--port', '0', '--json', '--log-level', 'warn', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const ready = await new Promise<{ bootstrap: string; controlUrl: string }>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
    child.on('exit', (code) => reject(new Error(`start exited ${code}: ${err}`)));
  });
  const stop = async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return { code, stderr: err };
  };
  return { ready, stop };
}

test('start --report: at stop, one file with the anomalies and the faults before them, that opens with no server and no network', async () => {
  const file = join(dir, 'run.html');
  const { ready, stop } = await startCli(['--brokers', '3', '--topic', 'orders:1', '--report', file]);
  const control = new ControlClient(ready.controlUrl);
  // A lost ack and a producer without idempotence: the retry stores the batch twice.
  await control.addFault({ id: 'lost-ack', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
  const key = 'o-1</script><script>window.__pwned = 1</script>';
  const producer = kafkajs(ready.bootstrap, 'billing-1').producer({ idempotent: false });
  await producer.connect();
  await producer.send({ topic: 'orders', acks: -1, messages: [{ key, value: 'x' }] });
  await producer.disconnect();
  const audit = await control.audit({ topics: ['orders'], processed: [key] });
  expect(audit.anomalies.map((a) => a.kind)).toContain('duplicate');
  const stopped = await stop();
  expect(stopped).toMatchObject({ code: 0 });

  expect(statSync(file).size).toBeLessThan(1024 * 1024);
  const html = readFileSync(file, 'utf8');
  // The wire's `</script>` stays inside the JSON: the only script elements are ours.
  expect(html.match(/<script/g)).toHaveLength(2);
  expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'none'/);

  const page = await browser.context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(pathToFileURL(file).href);
    const anomaly = page.locator('#anomalies .anomaly[data-kind="duplicate"]').first();
    await anomaly.waitFor();
    expect(await anomaly.locator('.anomaly-message').textContent()).toContain(`record '${key}' is stored twice`);
    // The link to the fault before it scrolls the timeline to that event and marks it.
    await anomaly.locator('a', { hasText: 'lost-ack' }).click();
    await page.locator('#timeline .flash.k-fault', { hasText: 'rule lost-ack' }).waitFor();
    await page.locator('#faults', { hasText: 'lost-ack' }).waitFor();
    expect(await page.locator('#nodes tbody tr').count()).toBe(3);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(errors).toEqual([]);
    if (process.env.KAFKAESQUE_SCREENSHOTS) await page.screenshot({ path: join('docs', 'images', 'web-report.png') });
  } finally {
    await page.close();
  }
}, 60_000);

test('the jest fixture: report gives each worker its own file, written at stop', async () => {
  const report = join(dir, 'fixture.html');
  const clusters = await startFixtureClusters({ brokers: 1, report, logLevel: 'silent' }, 2);
  await Promise.all(clusters.map((c) => c.stop()));
  expect(existsSync(report)).toBe(true);
  expect(existsSync(join(dir, 'fixture.worker-2.html'))).toBe(true);
  expect(readFileSync(report, 'utf8')).toContain('"kind":"kafkaesque-report"');
}, 30_000);

test('the sweep writes a report of each cell that fails into reportDir, and none for a cell that passes', async () => {
  const reportDir = join(dir, 'sweep');
  const result = await sweep({ command: [process.execPath, '-e', 'process.exit(process.env.KAFKAESQUE_PRESET ? 1 : 0)'], presets: ['lost-ack'], seeds: [7], jobs: 1, timeoutMs: 20_000, reportDir, cluster: { brokers: 1 } });
  expect(result.baseline).toMatchObject({ outcome: 'passed' });
  expect(result.baseline!.report).toBeUndefined();
  expect(result.cells[0]).toMatchObject({ outcome: 'failed', report: join(reportDir, 'lost-ack-seed-7.html') });
  expect(readFileSync(result.cells[0]!.report!, 'utf8')).toContain('"kind":"kafkaesque-report"');
}, 60_000);
