// Proof that the shipped presets catch the classic Kafka application bugs in
// short tests (issue 12): every buggy twin of test/bug-classes/apps/ is caught
// by at least one of the presets CATCHES lists for it on at least 2 of
// seeds 1, 2, 3, and every fixed twin passes under every shipped preset
// (seed 1 here; bench/bug-classes.mjs runs all seeds). A bug class that no
// shipped preset catches yet is a test.todo naming what it needs.
// docs/presets.md#which-preset-catches-which-bug shows the same table.
import { listPresetNames } from '../../src/index.js';
import { BUG_CLASSES } from './bug-classes.js';
import { runCells, type Cell, type CellResult } from './harness.js';
import { formatMatrix, isFalseAlarm } from './matrix.js';

/** The one table: bug class → the presets that must catch its buggy twin, or what catching it waits on. */
const CATCHES: Record<string, { presets: string[] } | { pending: string }> = {
  'retries-no-idempotence': { presets: ['lost-ack'] },
  'in-flight-no-idempotence': { presets: ['leader-flapping', 'flaky-network'] },
  'no-retries': { presets: ['leader-flapping'] },
  'read-uncommitted': { presets: ['zombie-producer'] },
  'no-dedup': { presets: ['redelivery', 'rebalance-storm'] },
  'commit-before-ack': { presets: ['out-of-order-sequence', 'leader-flapping', 'broker-outage'] },
  'acks-1': { presets: ['broker-outage', 'leader-flapping'] },
  'offsets-outside-txn': { presets: ['redelivery', 'rebalance-storm'] },
};

const SEEDS = [1, 2, 3];
const presets = listPresetNames();

const cells: Cell[] = [
  ...BUG_CLASSES.flatMap((c) => {
    const row = CATCHES[c.name]!;
    return 'presets' in row ? row.presets.flatMap((preset) => SEEDS.map((seed) => ({ app: c.name, twin: 'buggy' as const, preset, seed }))) : [];
  }),
  ...BUG_CLASSES.flatMap((c) => presets.map((preset) => ({ app: c.name, twin: 'fixed' as const, preset, seed: 1 }))),
];

let results: CellResult[] = [];
beforeAll(async () => {
  results = await runCells(cells, { jobs: 2 });
}, 600_000);
afterAll(() => {
  // The cells' verdicts and times, for the CI log.
  if (results.length) process.stderr.write(`\n${formatMatrix(results).text}\n`);
});

test('the table names every bug class, and only shipped presets', () => {
  expect(Object.keys(CATCHES).sort()).toEqual(BUG_CLASSES.map((c) => c.name).sort());
  for (const row of Object.values(CATCHES)) if ('presets' in row) for (const p of row.presets) expect(presets).toContain(p);
});

for (const c of BUG_CLASSES) {
  const row = CATCHES[c.name]!;
  if ('pending' in row) {
    test.todo(`${c.title}: caught by a shipped preset (${row.pending})`);
    continue;
  }
  test(`${c.title}: the buggy twin is caught by ${row.presets.join(' or ')} on at least 2 of 3 seeds`, () => {
    const mine = results.filter((r) => r.app === c.name && r.twin === 'buggy');
    const best = Math.max(...row.presets.map((p) => mine.filter((r) => r.preset === p && r.verdict === 'caught').length));
    const seen = mine.map((r) => `${r.preset} seed ${r.seed}: ${r.verdict}${r.anomalies[0] ? ` (${r.anomalies[0]})` : ''}`);
    expect({ caughtOnSeeds: best >= 2, cells: seen }).toEqual({ caughtOnSeeds: true, cells: seen });
  });
}

test.each(BUG_CLASSES.map((c) => [c.name]))('the fixed twin of %s passes under every shipped preset', (name) => {
  const alarms = results.filter((r) => r.app === name && isFalseAlarm(r)).map((r) => `${r.preset}: ${r.verdict}: ${r.anomalies.join('; ')}`);
  expect(alarms).toEqual([]);
  expect(results.filter((r) => r.app === name && r.twin === 'fixed')).toHaveLength(presets.length);
});
