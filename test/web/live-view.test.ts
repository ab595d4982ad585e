// The live web view in a real browser (Debian's chromium through
// playwright-core) against a real cluster behind its proxy, with a control
// token: the page loads through the Host check and the token, the timeline
// shows a fault that fired, a button stops a node, records are browsed, and
// what came from the wire stays text. The page is the built one (dist/web/):
// run `npm run build` first. KAFKAESQUE_SCREENSHOTS=1 also writes
// docs/images/web-view.png.
import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';
import { launchBrowser, type TestBrowser } from './browser.js';

const TOKEN = 'web-view-secret';
let kafka: RunningCluster;
let browser: TestBrowser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, controlToken: TOKEN, topics: [{ name: 'orders', partitions: 3 }, { name: 'wide', partitions: 10_000, replicationFactor: 1 }] });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await kafka?.stop();
}, 30_000);

afterEach(() => expect(pageErrors).toEqual([]));

test('/ answers on the API terms: the token (header or ?token=), the Host check, GET only', async () => {
  const at = (path: string, init: RequestInit = {}) => fetch(kafka.controlUrl + path, { ...init, signal: AbortSignal.timeout(10_000) });
  expect((await at('/')).status).toBe(401);
  expect((await at('/?token=wrong')).status).toBe(401);
  const served = await at(`/?token=${TOKEN}`);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'/);
  expect(await served.text()).toMatch(/^<!doctype html>/);
  expect((await at('/', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  expect((await at(`/?token=${TOKEN}&x=1`)).status).toBe(400);
  expect((await at('/', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
  // The token is not a way around the DNS-rebinding and cross-origin checks (fetch cannot set Host).
  const status = (headers: Record<string, string>) =>
    new Promise<number | undefined>((resolve, reject) => request(`${kafka.controlUrl}/?token=${TOKEN}`, { headers }, (res) => resolve(res.resume().statusCode)).on('error', reject).end());
  expect(await status({ host: 'attacker.example' })).toBe(421);
  expect(await status({ origin: 'http://attacker.example' })).toBe(403);
});

test('the page loads, takes the token out of the address bar, and shows the nodes and topics', async () => {
  await page.goto(`${kafka.controlUrl}/?token=${TOKEN}`);
  await page.locator('#nodes [data-node="2"] .alive').waitFor();
  expect(page.url()).toBe(`${kafka.controlUrl}/`);
  await page.locator('#topics [data-topic="orders"]').waitFor();
  expect(await page.locator('#nodes tbody tr').count()).toBe(3);
});

test('a fault shows in the live timeline within a second of firing', async () => {
  kafka.chaos.addRule({ id: 'web-fault', match: { api: 'Metadata' }, trigger: { type: 'nth', n: 1 }, action: { type: 'delay', ms: 1 } });
  const admin = kafkajs(kafka.bootstrap, 'web-view-admin').admin();
  await admin.connect();
  try {
    await admin.listTopics();
    await kafka.chaos.waitForFired('web-fault', 1, 10_000);
  } finally {
    await admin.disconnect();
  }
  // The long poll answers at the event: a bounded wait for its row, not a measured time.
  await page.locator('#timeline .k-fault', { hasText: 'rule web-fault' }).waitFor({ timeout: 1000 });
  await page.locator('#faults [data-rule="web-fault"]').waitFor();
});

test('the Stop button stops the node, and the view shows it stopped; Start brings it back', async () => {
  await page.locator('#nodes [data-node="2"] button[data-action="stop"]').click();
  await page.locator('#nodes [data-node="2"] .stopped').waitFor();
  expect(kafka.cluster.nodes.get(2)!.alive).toBe(false);
  await page.locator('#timeline .k-node-stopped', { hasText: 'node 2' }).waitFor();
  await page.locator('#nodes [data-node="2"] button[data-action="start"]').click();
  await page.locator('#nodes [data-node="2"] .alive').waitFor();
  expect(kafka.cluster.nodes.get(2)!.alive).toBe(true);
});

test('what comes from the wire is text: a <script> key, an <img onerror> value, a header and a client id run nothing', async () => {
  const key = '<script>window.__pwned = "key"</script>';
  const value = '<img src=x onerror="window.__pwned = \'value\'">';
  const header = '</td><img src=y onerror="window.__pwned = \'header\'">';
  const clientId = '<img src=z onerror="window.__pwned=\'client\'">';
  kafka.chaos.addRule({ id: 'tag-client', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'delay', ms: 1 } });
  const producer = kafkajs(kafka.bootstrap, clientId).producer();
  await producer.connect();
  await producer.send({ topic: 'orders', messages: [{ key, value, headers: { h: header }, partition: 0 }] });
  await producer.disconnect();
  await page.locator('#timeline .k-fault', { hasText: 'rule tag-client' }).waitFor();
  await page.locator('#topics [data-topic="orders"]').click();
  await page.locator('#topics [data-partition="0"] button[title="browse records"]').click();
  const row = page.locator('#records tr[data-offset="0"]');
  await row.waitFor();
  expect(await row.locator('.record-key').textContent()).toBe(key);
  expect(await row.locator('.record-value').textContent()).toBe(value);
  expect(await row.locator('.record-headers').textContent()).toBe(`h=${header}`);
  expect(await page.locator('#timeline', { hasText: `client ${clientId}` }).count()).toBe(1);
  expect(await page.locator('img, main script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
});

test('the timeline filter narrows as one types and widens again when a letter goes', async () => {
  const faults = kafka.chaos.events().filter((e) => e.kind === 'fault').map((e) => e.seq);
  expect(faults.length).toBeGreaterThanOrEqual(2);
  // The list draws in the next animation frame: two frames later it is on screen.
  const drawn = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const filter = async (text: string) => {
    await page.fill('#timeline-filter', text);
    await drawn();
    return page.locator('#timeline .row[data-seq]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
  };
  const note = () => page.locator('#timeline .toolbar .muted').textContent();
  await filter('');
  const unfiltered = await note();
  expect(await filter('rule ')).toEqual(faults);
  // Typing on searches only what "rule " showed; taking letters back must search every event again.
  expect(await filter('rule web-fault')).toEqual([faults[0]]);
  expect(await filter('rule ')).toEqual(faults);
  await filter('');
  expect(await note()).toBe(unfiltered);
});

test('10,000 partitions: the list draws the rows in view and pages the rest through the API', async () => {
  await page.locator('#topics [data-topic="wide"]').click();
  await page.locator('#topics [data-partition="0"]').waitFor();
  const list = page.locator('#topics .vlist').nth(1);
  expect(await list.locator('.row').count()).toBeLessThan(60);
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('#topics [data-partition="9999"]').waitFor();
  expect(await list.locator('.row').count()).toBeLessThan(60);
  if (process.env.KAFKAESQUE_SCREENSHOTS) {
    await page.locator('#topics [data-topic="orders"]').click();
    await page.locator('#topics [data-partition="0"]').waitFor();
    await page.fill('#timeline-filter', 'fault');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join('docs', 'images', 'web-view.png') });
  }
});
