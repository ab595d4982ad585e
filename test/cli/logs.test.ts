// What `kafkaesque start` logs (stderr) and what `events` prints, as a user
// sees them: JSON lines for CI and pipes, one coloured line per event when
// asked; each cluster change once; a shutdown line; ISO times in `events`.
import { execFile, spawn } from 'node:child_process';

function cli(args: string[], url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['dist/cli.js', ...args, '--url', url], { timeout: 20_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/** Runs `start`, stops node 1 through the CLI, prints `events`, then SIGTERM; what it logged and what `events` printed. */
async function run(env: Record<string, string>): Promise<{ log: string; events: string }> {
  const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '2', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
  try {
    let out = '';
    let log = '';
    child.stderr.on('data', (c: Buffer) => (log += c));
    const ready = await new Promise<{ controlUrl: string }>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
      child.on('exit', (code) => reject(new Error(`start exited ${code}: ${log}`)));
    });
    await cli(['node', 'stop', '1'], ready.controlUrl);
    const events = await cli(['events'], ready.controlUrl);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    return { log, events };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

test('piped: JSON lines, a node stop logged once, a shutdown line saying what ran; events print ISO times', async () => {
  const { log, events } = await run({});
  const lines = log.trimEnd().split('\n').map((l) => JSON.parse(l) as { msg: string; event?: { kind: string } });
  expect(lines.filter((l) => /node 1 stopped/i.test(l.msg) || l.event?.kind === 'node-stopped')).toHaveLength(1);
  expect(lines.at(-1)).toMatchObject({ msg: expect.stringMatching(/^kafkaesque stopped after /), brokers: 2, faultsFired: 0, clusterChanges: 1, uptimeMs: expect.any(Number) });
  // The internal topics' leaderships node 1 held move first; every line has an ISO time.
  expect(events).toMatch(/^\d+\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tnode-stopped\tnode 1$/m);
  for (const line of events.trimEnd().split('\n')) expect(line).toMatch(/^\d+\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\t/);
});

test('KAFKAESQUE_PRETTY=1 on a terminal (FORCE_COLOR): one coloured line per event', async () => {
  const { log } = await run({ KAFKAESQUE_PRETTY: '1', FORCE_COLOR: '1' });
  const lines = log.trimEnd().split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(4); // ready, control API, node 1 stopped, stopped
  for (const line of lines) expect(line).toMatch(/^\u001b\[2m\d\d:\d\d:\d\d\.\d{3}Z\u001b\[39;22m \u001b\[32mINFO /);
  const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
  expect(plain.filter((l) => l.includes('node 1 stopped'))).toEqual([expect.stringMatching(/INFO  chaos node 1 stopped {2}seq=\d+$/)]);
  expect(plain.at(-1)).toMatch(/INFO  kafkaesque stopped after \d+\.\d s: 2 broker\(s\), 0 topic\(s\), 0 fault\(s\) fired, 1 cluster change\(s\); seed \d+/);
});
