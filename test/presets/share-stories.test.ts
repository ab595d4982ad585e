// The share-group presets (KIP-932), played with the Java KafkaShareConsumer
// 4.4 (test/clients/java/share/Share.java): each must catch the application
// bug it names and let the fixed twin through. The "application" records an
// effect per record it processes; the buggy one processes a redelivered
// record again, the fixed one deduplicates by partition and offset.
// - share-lock-expiry: the first acknowledgement finds the locks run out;
// - share-member-vanishes: the first acknowledging member's connection resets;
// - share-ack-lost: the first acknowledgement is applied, its answer lost.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, resolvePreset } from '../../src/presets/index.js';
import { kafkajs } from '../support/kafkajs.js';
import { runShareDriver, shareDriverBuilt, type ShareSummary } from '../support/share-driver.js';

const it = shareDriverBuilt() ? test : test.skip;

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, kafkaVersion: '4.4', seed: 1 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

type Summary = ShareSummary;

const share = (args: string[]) => runShareDriver(kafka.bootstrap, args);

let seq = 0;
/** A topic of 20 records, read by a share group from the earliest, through the proxy, with the preset applied. */
/** The presets, each aimed at one group. */
const presets = {
  'share-lock-expiry': (group: string) => resolvePreset({ name: 'share-lock-expiry', params: { group } }),
  'share-member-vanishes': (group: string) => resolvePreset({ name: 'share-member-vanishes', params: { group } }),
  'share-ack-lost': (group: string) => resolvePreset({ name: 'share-ack-lost', params: { group } }),
};

async function run(preset: keyof typeof presets, dedup: boolean, ack: 'implicit' | 'explicit'): Promise<{ summary: Summary; values: string[] }> {
  const topic = `share-story-${++seq}`;
  const group = `${topic}-app`;
  const values = Array.from({ length: 20 }, (_, i) => `r-${i}`);
  const admin = kafkajs(kafka.directBootstrap!).admin();
  const producer = kafkajs(kafka.directBootstrap!).producer();
  await admin.connect();
  await producer.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await producer.send({ topic, messages: values.map((value) => ({ value })) });
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
  kafka.cluster.groupConfigs.set(group, 'share.auto.offset.reset', 'earliest');
  applyPreset(kafka.chaos, presets[preset](group));
  const summary = await share([topic, '--group', group, '--ack', ack, '--distinct', '20', '--idle-ms', '2500', ...(dedup ? ['--dedup'] : [])]);
  return { summary, values };
}

const duplicated = (effects: string[]) => effects.filter((v, i) => effects.indexOf(v) !== i);

describe.each([
  ['share-lock-expiry', 'explicit'],
  ['share-lock-expiry', 'implicit'],
  ['share-member-vanishes', 'explicit'],
] as const)('%s (%s acknowledgement)', (preset, ack) => {
  it('catches an application that processes a redelivered record twice', async () => {
    const { summary, values } = await run(preset, false, ack);
    expect(new Set(summary.effects)).toEqual(new Set(values));
    expect(duplicated(summary.effects).length).toBeGreaterThan(0);
    expect(summary.deliveries.some((d) => d[4] === 2)).toBe(true);
  }, 90_000);

  it('lets the deduplicating twin through: every record processed once', async () => {
    const { summary, values } = await run(preset, true, ack);
    expect([...summary.effects].sort()).toEqual([...values].sort());
  }, 90_000);
});

it('share-ack-lost: the acknowledgement was applied, so nothing is delivered again, though the client saw it fail', async () => {
  const { summary, values } = await run('share-ack-lost', false, 'explicit');
  expect([...summary.effects].sort()).toEqual([...values].sort());
  expect(summary.deliveries.every((d) => d[4] === 1)).toBe(true);
  expect(summary.ackFailures.length).toBeGreaterThan(0);
  expect(kafka.chaos.events().filter((e) => e.kind === 'fault' && e.ruleId?.startsWith('share-ack-lost')).map((e) => e.action)).toEqual(['drop-response']);
}, 90_000);
