// The probes of bench/ as a regression check: bench/fuzz.mjs --short and
// bench/hostile.mjs --short run against the built CLI (dist/), each starting
// its own kafkaesque processes (through the proxy and --no-proxy) on loopback.
// Counts only, never times: 0 crashes, 0 hangs, 0 failed health checks, every
// hostile connection closed and every pipelined request answered.
import { execFile } from 'node:child_process';

function probe(script: string): Promise<Record<string, unknown> & { targets: Record<string, unknown>[] }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, '--short', '--json'], { timeout: 90_000, maxBuffer: 1 << 22 }, (err, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`${script} printed no result (${err?.message ?? 'exit 0'})\n${stdout}\n${stderr}`));
      }
    });
  });
}

test('fuzz --short: mutated capture frames through the proxy and direct: no crash, no hang, every health check passes', async () => {
  const r = await probe('bench/fuzz.mjs');
  expect(r).toMatchObject({ crashes: 0, hangs: 0, healthFailed: 0 });
  expect(r.targets.map((t) => t.target)).toEqual(['proxy', 'direct']);
  for (const t of r.targets) {
    expect(t).toMatchObject({ crashes: 0, hangs: 0, healthFailed: 0, refused: 0 });
    expect(t.healthChecks).toBeGreaterThan(1); // during the run and after it
    expect(t.frames).toBeGreaterThan(1000);
  }
}, 120_000);

test('hostile --short: bad size prefixes, slowloris and idle connections are closed; unread pipelined requests all answered in order', async () => {
  const r = await probe('bench/hostile.mjs');
  expect(r.failures).toBe(0);
  for (const t of r.targets) {
    expect(t).toMatchObject({
      crash: null,
      alive: true,
      healthFailed: 0,
      prefixes: { notClosed: 0 },
      slowloris: { notClosed: 0 },
      pipeline: { unanswered: 0, inOrder: true },
      idle: { notClosed: 0, healthCheckWhileHeld: 'ok' },
    });
  }
}, 120_000);
