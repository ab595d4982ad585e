// group.initial.rebalance.delay.ms from the library option and the CLI flag.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ManualClock, startCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { resolveOptions } from '../../../src/options.js';
import { WireClient } from '../../support/wire-client.js';
import { subscription } from './driver.js';

test('groupInitialRebalanceDelayMs holds a new group\'s first JoinGroup on the cluster clock', async () => {
  const clock = new ManualClock();
  const kafka = await startCluster({ brokers: 1, clock, groupInitialRebalanceDelayMs: 250 });
  const c = await WireClient.connect(kafka.bootstrap);
  try {
    expect(kafka.cluster.groups.config['group.initial.rebalance.delay.ms']).toBe(250);
    await c.request(ApiKey.FindCoordinator, 3, { key: 'delayed', keyType: 0 });
    const body = { groupId: 'delayed', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', protocolType: 'consumer', protocols: [{ name: 'range', metadata: subscription(['t']) }] };
    const first = await c.request(ApiKey.JoinGroup, 5, body);
    const preparing = new Promise<void>((resolve) => kafka.cluster.groups.once('state-changed', () => resolve()));
    const id = c.send(ApiKey.JoinGroup, 5, { ...body, memberId: first.memberId });
    await preparing;
    clock.advance(249);
    expect(kafka.cluster.groups.describe('delayed')!.state).toBe('PreparingRebalance');
    clock.advance(1);
    expect(kafka.cluster.groups.describe('delayed')!.state).toBe('CompletingRebalance');
    expect((await c.nextFrame())!.readInt32BE(0)).toBe(id);
  } finally {
    c.close();
    await kafka.stop();
  }
});

test('the default is 0, and a negative delay is refused by the library and the CLI', async () => {
  expect(resolveOptions().groupInitialRebalanceDelayMs).toBe(0);
  expect(() => resolveOptions({ groupInitialRebalanceDelayMs: -1 })).toThrow(/groupInitialRebalanceDelayMs: must be a whole number from 0 to 2147483647, got -1/);
  // npm test builds dist/ first.
  const run = promisify(execFile);
  const failed = await run(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--group-initial-rebalance-delay-ms', '-5'], { timeout: 20_000 }).catch((e) => e);
  expect(failed.code).toBe(2);
  expect(failed.stderr).toMatch(/--group-initial-rebalance-delay-ms -5: must be a whole number from 0 to 2147483647/);
});
