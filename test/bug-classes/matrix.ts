// The bug-class matrix: which cells to run (every application × twin ×
// preset × seed asked for) and how the results read: per bug class, the
// presets that caught its buggy twin and on how many seeds, and every fixed
// twin that failed (a false alarm). bench/bug-classes.mjs runs it.
import { listPresetNames } from '../../src/index.js';
import { BUG_CLASSES } from './bug-classes.js';
import { runCells, type Cell, type CellResult, type Twin } from './harness.js';

export { BUG_CLASSES, listPresetNames, runCells };

/** `presets` may hold 'none': the baseline without faults, where a buggy twin must pass too (else its bug needs no fault to show). */
export function matrixCells(o: { apps: string[]; twins: Twin[]; presets: string[]; seeds: number[] }): Cell[] {
  const presets = o.presets.map((p) => (p === 'none' ? null : p));
  return o.apps.flatMap((app) => o.twins.flatMap((twin) => presets.flatMap((preset) => o.seeds.map((seed) => ({ app, twin, preset, seed })))));
}

const named = (preset: string | null) => preset ?? 'none';

/** A fixed twin that the audit faults (an unfinished one is not: it lost nothing it had taken on). */
export const isFalseAlarm = (r: CellResult) => r.twin === 'fixed' && r.verdict !== 'passed' && r.verdict !== 'unfinished';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export function formatMatrix(results: readonly CellResult[]): { text: string; falseAlarms: number; errors: number } {
  const lines: string[] = [];
  const apps = [...new Set(results.map((r) => r.app))];
  lines.push('bug class                  | buggy twin caught by (seeds caught / run)            | fixed twin     | ms per cell (median, max)');
  lines.push('---------------------------|-----------------------------------------------------|----------------|--------------------------');
  for (const app of apps) {
    const mine = results.filter((r) => r.app === app);
    const buggy = mine.filter((r) => r.twin === 'buggy');
    const byPreset = new Map<string, { caught: number; run: number }>();
    for (const r of buggy.filter((r) => r.preset !== null)) {
      const e = byPreset.get(r.preset!) ?? { caught: 0, run: 0 };
      e.run++;
      if (r.verdict === 'caught') e.caught++;
      byPreset.set(r.preset!, e);
    }
    const caught = [...byPreset].filter(([, e]) => e.caught > 0).map(([p, e]) => `${p} ${e.caught}/${e.run}`);
    const fixed = mine.filter((r) => r.twin === 'fixed');
    const failed = fixed.filter(isFalseAlarm).length;
    const unfinished = fixed.filter((r) => r.verdict === 'unfinished').length;
    const fixedText = fixed.length === 0 ? '(not run)' : failed ? `${failed} FAILED of ${fixed.length}` : `passed ${fixed.length - unfinished}/${fixed.length}${unfinished ? ` +${unfinished}u` : ''}`;
    const ms = mine.map((r) => r.ms);
    lines.push(`${app.padEnd(27)}| ${(caught.join(', ') || (buggy.length ? 'NOTHING' : '(not run)')).padEnd(52)}| ${fixedText.padEnd(15)}| ${median(ms)}, ${Math.max(...ms)}`);
  }
  const bare = results.filter((r) => r.twin === 'buggy' && r.preset === null && r.verdict !== 'passed');
  if (bare.length) {
    lines.push('', `!!! BUGS THAT SHOW WITHOUT ANY FAULT: ${bare.length} buggy-twin cell(s) failed with no preset (the app is broken, not caught) !!!`);
    for (const r of bare) lines.push(`  ${r.app} buggy, no preset, seed ${r.seed}: ${r.verdict}`, ...r.anomalies.slice(0, 3).map((a) => `      ${a}`));
  }
  const alarms = results.filter(isFalseAlarm);
  if (alarms.length) {
    lines.push('', `!!! FALSE ALARMS: ${alarms.length} fixed-twin cell(s) failed !!!`);
    for (const r of alarms) lines.push(`  ${r.app} fixed under ${named(r.preset)} seed ${r.seed}: ${r.verdict}`, ...r.anomalies.map((a) => `      ${a}`));
  }
  const unfinished = results.filter((r) => r.verdict === 'unfinished');
  if (unfinished.length) {
    lines.push('', `Unfinished (u): the application ran out of life with input it never got to, and the audit found nothing else (${unfinished.length} cells):`);
    const byPreset = new Map<string, string[]>();
    for (const r of unfinished) byPreset.set(named(r.preset), [...(byPreset.get(named(r.preset)) ?? []), `${r.app} ${r.twin} seed ${r.seed}`]);
    for (const [preset, cells] of byPreset) lines.push(`  ${preset}: ${cells.join(', ')}`);
  }
  const others = results.filter((r) => r.twin === 'buggy' && r.preset !== null && (r.verdict === 'other' || r.verdict === 'error'));
  if (others.length) {
    lines.push('', 'Buggy twins with anomalies that are not their symptom, or errors of the test traffic:');
    for (const r of others) lines.push(`  ${r.app} buggy under ${named(r.preset)} seed ${r.seed}: ${r.verdict}`, ...r.anomalies.slice(0, 3).map((a) => `      ${a}`));
  }
  return { text: lines.join('\n'), falseAlarms: alarms.length + bare.length, errors: results.filter((r) => r.verdict === 'error').length };
}
