// The sweep's reports on hand-made results: JUnit XML that a CI can parse
// whatever the test command printed, and the text table's verdicts.
import { sweepJUnit, sweepText } from '../../src/sweep/report.js';
import type { CellResult } from '../../src/sweep/sweep.js';

const cell = (over: Partial<CellResult>): CellResult => ({
  preset: 'lost-ack',
  seed: 1,
  outcome: 'passed',
  exitCode: 0,
  signal: null,
  durationMs: 1500,
  faultsFired: 0,
  anomalies: [],
  outputTail: [],
  env: {},
  ...over,
});
const replay = (c: CellResult) => `kafkaesque sweep --presets ${c.preset} --seeds ${c.seed} -- npm test`;

test('JUnit: one testcase per cell, failures carry the audit, the output and the replay, escaped; control characters dropped', () => {
  const failed = cell({ outcome: 'failed', exitCode: 1, anomalies: ["duplicate: record 'o-1' <x> & \"y\""], outputTail: ['\u001b[31mFAIL\u001b[0m test/orders.test.ts'] });
  const xml = sweepJUnit({ baseline: cell({ preset: null }), cells: [failed, cell({ preset: 'slow-broker', outcome: 'timed-out', exitCode: null, signal: 'SIGKILL' })], ok: false }, replay);
  expect(xml).toContain('<testsuite name="kafkaesque sweep" tests="3" failures="2" time="4.500">');
  expect(xml).toContain('<testcase classname="kafkaesque.sweep.baseline" name="baseline (no preset) seed 1" time="1.500">\n    </testcase>');
  expect(xml).toContain(`<failure message="FAILED (exit code 1)">audit:\nduplicate: record 'o-1' &lt;x&gt; &amp; &quot;y&quot;\nlast output:\n[31mFAIL[0m test/orders.test.ts\nreplay: kafkaesque sweep --presets lost-ack --seeds 1 -- npm test</failure>`);
  expect(xml).toContain('<failure message="TIMED OUT (killed after the timeout)">');
  expect(xml).not.toMatch(/\u001b/);
});

test('text: the verdict of each cell, and the presets that broke the suite, each named once', () => {
  const text = sweepText(
    { baseline: cell({ preset: null }), cells: [cell({ outcome: 'failed', exitCode: 2 }), cell({ seed: 2, outcome: 'failed', exitCode: 1 }), cell({ preset: 'slow-broker' })], ok: false },
    replay,
  );
  expect(text).toMatch(/^preset +seed +result +faults +time\nbaseline \(no preset\) +1 +passed +0 +1\.5s\nlost-ack +1 +FAILED /);
  expect(text).toContain('FAILED: lost-ack, seed 2 (exit code 1)\n  replay: kafkaesque sweep --presets lost-ack --seeds 2 -- npm test\n');
  expect(text).toMatch(/\n1 preset\(s\) broke the suite: lost-ack\n$/);
});
