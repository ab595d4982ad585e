// A report as text, for a failing test: one line per anomaly (its message,
// which names the events before it), then the processed items that matched
// nothing. Loads nothing of the broker.
import type { AnomalyKind, AuditReport } from './types.js';

/** At most this many lines per section; the rest is counted. */
const MAX_LINES = 20;

export function formatAnomalies(report: AuditReport, kinds?: readonly AnomalyKind[]): string {
  const anomalies = kinds ? report.anomalies.filter((a) => kinds.includes(a.kind)) : report.anomalies;
  const lines: string[] = [];
  for (const a of anomalies.slice(0, MAX_LINES)) lines.push(`  ${a.kind}: ${a.message}`);
  if (anomalies.length > MAX_LINES) lines.push(`  … and ${anomalies.length - MAX_LINES} more`);
  if (report.unmatched.length) {
    lines.push('processed items that match nothing in the log:');
    for (const u of report.unmatched.slice(0, MAX_LINES)) lines.push(`  item ${u.index}: ${u.reason}`);
    const total = Math.max(report.counts.unmatched ?? 0, report.unmatched.length);
    if (total > MAX_LINES) lines.push(`  … and ${total - Math.min(MAX_LINES, report.unmatched.length)} more`);
  }
  return lines.join('\n');
}
