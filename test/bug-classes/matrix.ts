// The bug-class matrix: which cells to run (every application × twin ×
// preset × seed asked for) and how the results read: per bug class, the
// presets that caught its buggy twin and on how many seeds, and every fixed
// twin that failed (a false alarm). bench/bug-classes.mjs runs it.
import { listPresetNames } from '../../src/index.js';
import { BUG_CLASSES } from './bug-classes.js';
import { runCells, type Cell, type CellResult, type Twin } from './harness.js';

export { BUG_CLASSES, listPresetNames, runCells };

export function matrixCells(o: { apps: string[]; twins: Twin[]; presets: string[]; seeds: number[] }): Cell[] {
  return o.apps.flatMap((app) => o.twins.flatMap((twin) => o.presets.flatMap((preset) => o.seeds.map((seed) => ({ app, twin, preset, seed })))));
}

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
    for (const r of buggy) {
      const e = byPreset.get(r.preset) ?? { caught: 0, run: 0 };
      e.run++;
      if (r.verdict === 'caught') e.caught++;
      byPreset.set(r.preset, e);
    }
    const caught = [...byPreset].filter(([, e]) => e.caught > 0).map(([p, e]) => `${p} ${e.caught}/${e.run}`);
    const fixed = mine.filter((r) => r.twin === 'fixed');
    const failed = fixed.filter(isFalseAlarm).length;
    const unfinished = fixed.filter((r) => r.verdict === 'unfinished').length;
    const fixedText = fixed.length === 0 ? '(not run)' : failed ? `${failed} FAILED of ${fixed.length}` : `passed ${fixed.length - unfinished}/${fixed.length}${unfinished ? ` +${unfinished}u` : ''}`;
    const ms = mine.map((r) => r.ms);
    lines.push(`${app.padEnd(27)}| ${(caught.join(', ') || (buggy.length ? 'NOTHING' : '(not run)')).padEnd(52)}| ${fixedText.padEnd(15)}| ${median(ms)}, ${Math.max(...ms)}`);
  }
  const alarms = results.filter(isFalseAlarm);
  if (alarms.length) {
    lines.push('', `!!! FALSE ALARMS: ${alarms.length} fixed-twin cell(s) failed !!!`);
    for (const r of alarms) lines.push(`  ${r.app} fixed under ${r.preset} seed ${r.seed}: ${r.verdict}`, ...r.anomalies.map((a) => `      ${a}`));
  }
  const unfinished = results.filter((r) => r.verdict === 'unfinished');
  if (unfinished.length) {
    lines.push('', `Unfinished (u): the application ran out of life with input it never got to, and the audit found nothing else (${unfinished.length} cells):`);
    const byPreset = new Map<string, string[]>();
    for (const r of unfinished) byPreset.set(r.preset, [...(byPreset.get(r.preset) ?? []), `${r.app} ${r.twin} seed ${r.seed}`]);
    for (const [preset, cells] of byPreset) lines.push(`  ${preset}: ${cells.join(', ')}`);
  }
  const others = results.filter((r) => r.twin === 'buggy' && (r.verdict === 'other' || r.verdict === 'error'));
  if (others.length) {
    lines.push('', 'Buggy twins with anomalies that are not their symptom, or errors of the test traffic:');
    for (const r of others) lines.push(`  ${r.app} buggy under ${r.preset} seed ${r.seed}: ${r.verdict}`, ...r.anomalies.slice(0, 3).map((a) => `      ${a}`));
  }
  return { text: lines.join('\n'), falseAlarms: alarms.length, errors: results.filter((r) => r.verdict === 'error').length };
}
