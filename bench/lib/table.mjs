// One compact table per bench part: a column per target, then ratios to the
// reference (x/mock), to kfake (ours/kfake, proxy/kfake) and the proxy's
// cost (proxy/ours).
import { fmt } from './stats.mjs';

/**
 * rows: [label, key, digits, better ('higher' | 'lower' | '')]; summary:
 * { target: { key: number | null } }. Returns the table as text lines.
 */
export function ratioTable(summary, rows, { title = 'figure (median)' } = {}) {
  const names = Object.keys(summary);
  const ratios = [];
  for (const n of names) if (n !== 'mock' && names.includes('mock')) ratios.push([n, 'mock']);
  for (const n of ['ours', 'proxy']) if (names.includes(n) && names.includes('kfake')) ratios.push([n, 'kfake']);
  if (names.includes('ours') && names.includes('proxy')) ratios.push(['proxy', 'ours']);
  const head = [title, ...names, ...ratios.map(([a, b]) => `${a}/${b}`), 'better'];
  // A figure no target has (a part run without it) takes no row.
  const measured = rows.filter(([, key]) => names.some((n) => summary[n]?.[key] != null));
  const body = measured.map(([label, key, digits, better]) => {
    const vals = names.map((n) => summary[n]?.[key]);
    const rs = ratios.map(([a, b]) => {
      const x = summary[a]?.[key];
      const y = summary[b]?.[key];
      if (typeof x === 'string' || typeof y === 'string') return '';
      return x == null || y == null || y === 0 ? '-' : fmt(x / y, 2);
    });
    return [label, ...vals.map((v) => (typeof v === 'string' ? v : fmt(v, digits))), ...rs, better];
  });
  return alignRows([head, ...body]);
}

/**
 * A part's table as text: its heading line, the ratio table of
 * result.summary, footer lines, then one line per error in result.errors.
 */
export function partTable(result, heading, rows, { title, footer = [] } = {}) {
  const lines = [heading, ...ratioTable(result.summary, rows, title ? { title } : {}), ...footer];
  for (const e of result.errors) lines.push(`error: ${e}`);
  return lines.join('\n');
}

/** "runs: mock 3, ours 2 (NOT verified)": the runs each target made, and which did not verify. */
export function runsLine(summary, notVerified = 'NOT verified') {
  return `runs: ${Object.entries(summary).map(([n, x]) => `${n} ${x.runs}${x.verified ? '' : ` (${notVerified})`}`).join(', ')}`;
}

/** Left-aligns the first column, right-aligns the others, with a rule under the head. */
export function alignRows(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  const line = (r) => r.map((cell, c) => (c === 0 ? String(cell ?? '').padEnd(widths[c]) : String(cell ?? '').padStart(widths[c]))).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}
