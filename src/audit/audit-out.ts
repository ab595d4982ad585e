// KAFKAESQUE_AUDIT_OUT: a file that collects the anomaly lines of every audit
// that found something, so that a runner around the test command (kafkaesque
// sweep) can show why a cell failed without parsing the command's output.
// Written by the delivery matchers (auditProcessed) and `kafkaesque audit`.
import { appendFileSync } from 'node:fs';
import { formatAnomalies } from './format.js';
import type { AuditReport } from './types.js';

export const AUDIT_OUT_ENV = 'KAFKAESQUE_AUDIT_OUT';

/** Appends the report's anomaly lines to $KAFKAESQUE_AUDIT_OUT, when it is set and the report found anything. */
export function recordAnomalies(report: AuditReport, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[AUDIT_OUT_ENV];
  if (!file || (report.anomalies.length === 0 && report.unmatched.length === 0)) return;
  const head = `audit of ${report.topics.join(', ') || 'no topics'}: ${report.anomalies.length} anomal${report.anomalies.length === 1 ? 'y' : 'ies'}, ${report.unmatched.length} unmatched`;
  try {
    appendFileSync(file, `${head}\n${formatAnomalies(report)}\n`);
  } catch {
    // The audit's answer matters more than its copy: a file we cannot write changes nothing.
  }
}
