// The events file: every event appended as one JSON line as it happens, in
// process (startCluster's eventsFile) and from the CLI (--events-file).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startCluster } from '../../src/index.js';
import type { ChaosEvent } from '../../src/chaos/api.js';

const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-events-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (file: string): ChaosEvent[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ChaosEvent);

test('eventsFile: each event is on disk as a JSON line when it happens, the same as the ring holds; a second run appends', async () => {
  const file = join(dir, 'events.jsonl');
  writeFileSync(file, '');
  const kafka = await startCluster({ brokers: 2, eventsFile: file });
  try {
    await kafka.stopNode(1);
    // Written synchronously: no stop, flush or wait needed to read it.
    expect(lines(file)).toEqual(kafka.chaos.events());
    // The leaderships node 1 held (of the internal topics too) move first, each a leader-changed event.
    expect(lines(file).find((e) => e.kind !== 'leader-changed')).toMatchObject({ kind: 'node-stopped', nodeId: 1 });
    await kafka.startNode(1);
  } finally {
    await kafka.stop();
  }
  const first = lines(file);
  expect(first.map((e) => e.kind)).toContain('node-started');
  const again = await startCluster({ brokers: 2, eventsFile: file });
  await again.stopNode(0);
  await again.stop();
  expect(lines(file).slice(0, first.length)).toEqual(first);
  expect(lines(file).length).toBeGreaterThan(first.length);
});

test('eventsFile that cannot be opened: startCluster rejects naming it', async () => {
  const bad = join(dir, 'no-such-dir', 'events.jsonl');
  await expect(startCluster({ brokers: 1, eventsFile: bad })).rejects.toThrow(`eventsFile ${bad}: ENOENT`);
});

test('start --events-file: a node stopped through the CLI is in the file while the instance runs', async () => {
  const file = join(dir, 'cli-events.jsonl');
  const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '2', '--port', '0', '--json', '--log-level', 'silent', '--events-file', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))) as { controlUrl: string };
    const stopped = await new Promise<number | null>((resolve) => execFile(process.execPath, ['dist/cli.js', 'node', 'stop', '1', '--url', ready.controlUrl], (err) => resolve(err ? ((err as { code?: number }).code ?? -1) : 0)));
    expect(stopped).toBe(0);
    expect(lines(file)).toContainEqual(expect.objectContaining({ kind: 'node-stopped', nodeId: 1 }));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
});
