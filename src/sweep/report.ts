// What a sweep prints: a table of cells (which presets broke the suite), then
// for each failed cell the audit's anomaly lines, the command's last output
// lines and the command that replays it; or the same as JSON, or JUnit XML
// (one testcase per cell) for a CI's test report.
import type { CellResult, SweepResult } from './sweep.js';

/** Says how to run one cell again (the CLI knows its own flags). */
export type Replay = (cell: CellResult) => string;

const cellName = (c: CellResult) => (c.preset === null ? 'baseline (no preset)' : c.preset);
const verdict = (c: CellResult) => (c.outcome === 'passed' ? 'passed' : c.outcome === 'timed-out' ? 'TIMED OUT' : 'FAILED');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export function sweepText(result: SweepResult, replay: Replay): string {
  const rows = [...(result.baseline ? [result.baseline] : []), ...result.cells];
  const width = Math.max(6, ...rows.map((c) => cellName(c).length));
  const lines = [`${'preset'.padEnd(width)}  seed        result     faults  time`];
  for (const c of rows) lines.push(`${cellName(c).padEnd(width)}  ${String(c.seed).padEnd(10)}  ${verdict(c).padEnd(9)}  ${String(c.faultsFired).padStart(6)}  ${seconds(c.durationMs)}`);
  const failed = rows.filter((c) => c.outcome !== 'passed');
  if (result.baseline && result.baseline.outcome !== 'passed') {
    lines.push('', 'The suite fails without any fault (the baseline): fix that first; no preset was run.');
  }
  for (const c of failed) {
    lines.push('', `${verdict(c)}: ${cellName(c)}, seed ${c.seed}${exitText(c)}`);
    if (c.anomalies.length) lines.push('  audit:', ...c.anomalies.map((l) => `    ${l.trimStart()}`));
    if (c.report) lines.push(`  report: ${c.report}`);
    if (c.outputTail.length) lines.push('  last output:', ...c.outputTail.map((l) => `    ${l}`));
    lines.push(`  replay: ${replay(c)}`);
  }
  const broken = [...new Set(result.cells.filter((c) => c.outcome !== 'passed').map((c) => c.preset))];
  if (result.cells.length) lines.push('', broken.length ? `${broken.length} preset(s) broke the suite: ${broken.join(', ')}` : `no preset broke the suite (${result.cells.length} cell(s))`);
  return lines.join('\n') + '\n';
}

function exitText(c: CellResult): string {
  if (c.outcome === 'timed-out') return ' (killed after the timeout)';
  if (c.signal) return ` (ended by ${c.signal})`;
  return c.exitCode === null ? ' (did not start)' : ` (exit code ${c.exitCode})`;
}

export function sweepJson(result: SweepResult, replay: Replay): unknown {
  const view = (c: CellResult) => ({ ...c, replay: replay(c) });
  return { ok: result.ok, baseline: result.baseline && view(result.baseline), cells: result.cells.map(view) };
}

const xml = (s: string) =>
  // Characters XML 1.0 cannot carry at all (control codes of a test's output) are dropped.
  s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sweepJUnit(result: SweepResult, replay: Replay): string {
  const rows = [...(result.baseline ? [result.baseline] : []), ...result.cells];
  const failures = rows.filter((c) => c.outcome !== 'passed').length;
  const total = rows.reduce((ms, c) => ms + c.durationMs, 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="kafkaesque sweep" tests="${rows.length}" failures="${failures}" time="${(total / 1000).toFixed(3)}">`];
  out.push(`  <testsuite name="kafkaesque sweep" tests="${rows.length}" failures="${failures}" time="${(total / 1000).toFixed(3)}">`);
  for (const c of rows) {
    const name = `${cellName(c)} seed ${c.seed}`;
    out.push(`    <testcase classname="kafkaesque.sweep.${xml(c.preset ?? 'baseline')}" name="${xml(name)}" time="${(c.durationMs / 1000).toFixed(3)}">`);
    if (c.outcome !== 'passed') {
      const body = [...(c.anomalies.length ? ['audit:', ...c.anomalies] : []), ...(c.report ? [`report: ${c.report}`] : []), 'last output:', ...c.outputTail, `replay: ${replay(c)}`].join('\n');
      out.push(`      <failure message="${xml(`${verdict(c)}${exitText(c)}`)}">${xml(body)}</failure>`);
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
}
