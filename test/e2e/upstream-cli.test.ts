// `kafkaesque start --upstream`: the built CLI (dist/cli.js, which `npm test`
// builds first) in front of an in-memory cluster started here without its
// proxy. The ready line, `status` in upstream mode, a fault added from the
// CLI firing for kafkajs, and a model action refused from the CLI.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs, messages } from '../support/kafkajs.js';

let backend: RunningCluster;
let child: ChildProcessWithoutNullStreams | undefined;
let ready: { bootstrap: string; controlUrl: string; proxy: boolean; upstream: string; seed: number; brokers: Record<string, string> };

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/cli.js', ...args], { env: { PATH: process.env.PATH, KAFKAESQUE_URL: ready.controlUrl }, timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  backend = await startCluster({ brokers: 2, proxy: false });
  child = spawn(process.execPath, ['dist/cli.js', 'start', '--upstream', backend.brokers.get(0)!, '--port', '0', '--seed', '5', '--json', '--log-level', 'silent']);
  const proc = child;
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 15 s: ${stderr}`)), 15_000);
    createInterface({ input: proc.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    proc.once('exit', (code) => reject(new Error(`kafkaesque start --upstream exited (${code}): ${stderr}`)));
  });
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await backend?.stop();
});

test('the ready line names the proxy bootstrap, the control URL and the upstream', () => {
  expect(ready).toMatchObject({ proxy: true, upstream: backend.brokers.get(0), seed: 5 });
  expect(ready.bootstrap).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(ready.bootstrap).not.toBe(backend.brokers.get(0));
  expect(ready.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

test('a fault added with the CLI fires for kafkajs through the upstream proxy; status shows upstream mode', async () => {
  const added = await cli(['fault', 'add', '--api', 'Produce', '--trigger', 'nth:1', '--action', 'error', '--param', 'code=NOT_LEADER_OR_FOLLOWER', '--json']);
  expect(added.stderr).toBe('');
  const rule = JSON.parse(added.stdout) as { id: string };
  const client = kafkajs(ready.bootstrap, 'upstream-cli');
  const producer = client.producer();
  await producer.connect();
  try {
    await producer.send({ topic: 'upstream-cli', acks: -1, messages: messages(2, 'c') });
  } finally {
    await producer.disconnect();
  }
  expect(backend.cluster.partition('upstream-cli', 0)!.highWatermark).toBe(2);

  const status = await cli(['status']);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain(`upstream mode: chaos proxy in front of ${backend.brokers.get(0)}`);
  expect(status.stdout).toMatch(new RegExp(`node 0\\t127\\.0\\.0\\.1:\\d+\\t-> ${backend.brokers.get(0)!.replace(/\./g, '\\.')}`));
  expect(status.stdout).toContain('1 fault rule(s)');
  const json = JSON.parse((await cli(['status', '--json'])).stdout) as { faults: { id: string; fired: number }[]; cluster: { upstream: string } };
  expect(json.cluster.upstream).toBe(backend.brokers.get(0));
  expect(json.faults).toEqual([expect.objectContaining({ id: rule.id, fired: 1 })]);
}, 30_000);

test('a model action from the CLI is refused, naming action.type', async () => {
  const r = await cli(['fault', 'add', '--action', 'stop-node', '--param', 'nodeId=0']);
  expect(r.code).toBe(3);
  expect(r.stderr).toContain("refused: action.type: 'stop-node' needs kafkaesque's in-memory cluster; not available in upstream mode");
});
