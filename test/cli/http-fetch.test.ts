// The CLI talks to the control API over node:http, not Node's fetch (whose
// first use loads undici: ~0.1 s of CPU in every command). The bundle must
// not touch the global at all, and the stand-in must fail as fetch fails,
// since ControlClient turns those failures into its messages.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { httpFetch } from '../../src/cli/http-fetch.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1 });
});
afterAll(() => kafka.stop());

test('dist/cli.js works with no global fetch at all', async () => {
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const args = ['--import', 'data:text/javascript,delete globalThis.fetch', 'dist/cli.js', 'status', '--url', kafka.controlUrl];
    execFile(process.execPath, args, { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }));
  });
  expect(out).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^cluster kafkaesque-cluster; bootstrap /) });
});

test('answers, refusals and timeouts look as they do from fetch', async () => {
  const ok = await httpFetch(`${kafka.controlUrl}/v1/version`, { headers: { accept: 'application/json' } });
  expect(ok).toMatchObject({ status: 200, ok: true });
  expect(JSON.parse(await ok.text())).toHaveProperty('version');
  const missing = await httpFetch(`${kafka.controlUrl}/v1/topics/none`, { method: 'GET' });
  expect(missing).toMatchObject({ status: 404, ok: false });
  const posted = await httpFetch(`${kafka.controlUrl}/v1/topics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'via-http', partitions: 2 }) });
  expect(posted.status).toBe(201);
  expect(kafka.cluster.topics.get('via-http')?.partitions).toHaveLength(2);

  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  await expect(httpFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ECONNREFUSED' } });

  // A server that never answers: the signal's TimeoutError, as fetch rejects with.
  const silent: Server = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    await expect(httpFetch(url, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
  } finally {
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  }
});
