// Upstream mode in front of a broker we did not write: librdkafka's mock
// cluster (bench/reference/mock-cluster.c, built here against Debian's
// librdkafka-dev in well under a second), driven by librdkafka itself
// (python3-confluent-kafka). The Debian build numbers its brokers 1..N and
// reports controller 0, which kafkajs cannot live with; librdkafka can.
// Proof that nothing bypassed the proxy: the Metadata librdkafka saw names
// proxy listeners only, and the python consumer's open TCP sockets
// (/proc/<pid>/fd against /proc/net/tcp) all lead to proxy ports.
import { execFileSync, spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { startProxy, type RunningProxy } from '../../src/index.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';

// The repo's copy (vendored from the project's ../shared/reference), as bench/reference.mjs finds it.
const referenceDir = process.env.KAFKAESQUE_REFERENCE_DIR ?? fileURLToPath(new URL('../../bench/reference', import.meta.url));
const INSTALL = 'apt-get install -y --no-install-recommends librdkafka-dev gcc libc6-dev python3-confluent-kafka (scripts/install-test-clients.sh does)';

let buildDir: string;
let mock: ChildProcessWithoutNullStreams | undefined;
let mockBootstrap: string;
let front: RunningProxy;

/** Builds the mock cluster launcher; a missing tool is a failure with the install hint, never a skip. */
function buildMock(): string {
  const source = join(referenceDir, 'mock-cluster.c');
  if (!existsSync(source)) throw new Error(`${source} is missing: the reference broker's source belongs in bench/reference/ (or set KAFKAESQUE_REFERENCE_DIR)`);
  const bin = join(buildDir, 'mock-cluster');
  try {
    execFileSync('cc', ['-O2', '-pthread', '-o', bin, source, '-lrdkafka'], { stdio: 'pipe', timeout: 60_000 });
  } catch (err) {
    throw new Error(`cannot build ${source}: ${(err as { stderr?: Buffer }).stderr?.toString() ?? (err as Error).message}\nInstall: ${INSTALL}`);
  }
  return bin;
}

/** Starts the mock (3 brokers, bounded to 120 s) and resolves with its bootstrap, its first stdout line. */
function startMock(bin: string): Promise<string> {
  mock = spawn(bin, ['-t', 'up:3:3', '-t', 'up-group:3:3', '-T', '120', '3']);
  const child = mock;
  return new Promise((resolveLine, reject) => {
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => reject(new Error(`the mock cluster did not start in 10 s: ${stderr}`)), 10_000);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolveLine(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the mock cluster exited (${code}): ${stderr}`)));
  });
}

beforeAll(async () => {
  requireTool(debianPython, INSTALL);
  execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
  buildDir = mkdtempSync(join(tmpdir(), 'kafkaesque-mock-'));
  mockBootstrap = await startMock(buildMock());
  // Only the first broker is given: the proxy learns the others from Metadata.
  front = await startProxy({ upstream: mockBootstrap.split(',')[0]!, seed: 11 });
}, 60_000);

afterEach(() => front?.chaos.clearRules());

afterAll(async () => {
  await front?.stop();
  if (mock && mock.exitCode === null) {
    const exited = new Promise((r) => mock!.once('exit', r));
    mock.kill('SIGTERM');
    await exited;
  }
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

function proxyPorts(): Set<number> {
  return new Set([...front.bootstrap.split(','), ...front.brokers.values()].map((a) => Number(a.split(':')[1])));
}

/** Remote ports of the established TCP connections a process holds (Linux /proc). */
function remotePortsOf(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 01 = ESTABLISHED; rem_address is HEX_IP:HEX_PORT; the inode is the tenth column.
      if (f.length > 9 && f[3] === '01' && inodes.has(f[9]!)) ports.push(parseInt(f[2]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

test('librdkafka produces (plain and idempotent) and reads back through the proxy in front of the mock; a fault fires', async () => {
  // The first Produce is answered NOT_LEADER_OR_FOLLOWER by the proxy: librdkafka refreshes metadata and retries.
  const rule = front.chaos.addRule({ match: { api: 'Produce' }, trigger: { type: 'nth', n: 1 }, action: { type: 'error', code: 'NOT_LEADER_OR_FOLLOWER' } });
  const summary = await runClient(debianPython, ['test/clients/rdkafka_basic.py', front.bootstrap, 'up', '-n', '200', '--partitions', '3', '--brokers', '3']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
  expect(front.chaos.rule(rule.id)).toMatchObject({ fired: 1 });
  expect(front.chaos.rule(rule.id)!.matched).toBeGreaterThan(1);
  expect(front.chaos.events().filter((e) => e.ruleId === rule.id)).toEqual([expect.objectContaining({ action: 'error', api: 'Produce', detail: expect.objectContaining({ code: 'NOT_LEADER_OR_FOLLOWER' }) })]);

  // What librdkafka was told: the mock's brokers 1..3, each at a proxy listener.
  const brokers = summary.brokers as { id: number; host: string; port: number }[];
  expect(brokers.map((b) => b.id)).toEqual([1, 2, 3]);
  const ports = proxyPorts();
  for (const b of brokers) expect(ports.has(b.port)).toBe(true);
  const mockPorts = new Set(mockBootstrap.split(',').map((a) => Number(a.split(':')[1])));
  expect(brokers.filter((b) => mockPorts.has(b.port))).toEqual([]);
  expect([...front.brokers.keys()]).toEqual([1, 2, 3]);
}, 90_000);

test('a librdkafka consumer group works through the proxy (FindCoordinator rewritten); its sockets lead only to proxy ports', async () => {
  const coordinator = front.chaos.addRule({ match: { api: 'FindCoordinator' }, action: { type: 'delay', ms: 0 } });
  const produced = await runClient(debianPython, ['test/clients/rdkafka_basic.py', front.bootstrap, 'up-group', '-n', '30', '--partitions', '3', '--no-idempotence']);
  expect(produced).toMatchObject({ ok: true, errors: [] });

  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    debianPython,
    ['test/clients/rdkafka_group.py', front.bootstrap, 'up-group', 'up-readers', '--timeout', '60', '--session-timeout-ms', '6000', '--heartbeat-interval-ms', '300'],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const events: any[] = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const waiters: { ok: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const e = JSON.parse(line);
    events.push(e);
    for (const w of [...waiters]) if (w.ok(e)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(e);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const next = (ok: (e: any) => boolean, what: string) => {
    const seen = events.find(ok);
    if (seen) return Promise.resolve(seen);
    return new Promise<any>((resolveEvent, reject) => {
      const t = setTimeout(() => reject(new Error(`librdkafka member: no ${what}; events ${JSON.stringify(events)}\n${stderr}`)), 30_000);
      waiters.push({ ok, resolve: (e) => (clearTimeout(t), resolveEvent(e)) });
    });
  };
  try {
    await next((e) => e.event === 'assigned' && e.partitions.length === 3, 'assignment of all 3 partitions');
    await next((e) => e.event === 'progress' && e.consumed === 30, '30 messages');
    // Connected to its coordinator and the partition leaders now: every socket leads to the proxy.
    const remote = remotePortsOf(child.pid!);
    expect(remote.length).toBeGreaterThan(0);
    const ports = proxyPorts();
    expect(remote.filter((p) => !ports.has(p))).toEqual([]);
    child.stdin.end('stop\n');
    const summary = await next((e) => e.event === 'summary', 'summary');
    expect(summary).toMatchObject({ ok: true, count: 30, errors: [] });
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
  expect(front.chaos.rule(coordinator.id)!.fired).toBeGreaterThanOrEqual(1);
}, 90_000);
