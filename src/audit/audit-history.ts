// What the audits of a run found, kept with the cluster: the live web view
// lists them and the HTML report at stop shows them, each anomaly with the
// faults before it. A jest worker's matchers audit over HTTP in another
// process than the cluster, so the cluster is where the findings meet.
// Bounded: the last AUDITS_KEPT audits that found something.
import type { Cluster } from '../broker/cluster.js';
import type { AuditReport } from './types.js';

export interface AuditRecord {
  /** Increasing per cluster, from 1. */
  seq: number;
  /** Wall-clock time the audit ran. */
  time: number;
  topics: string[];
  ok: boolean;
  counts: AuditReport['counts'];
  anomalies: AuditReport['anomalies'];
}

export const AUDITS_KEPT = 50;

const history = new WeakMap<Cluster, { next: number; records: AuditRecord[] }>();

/** Keeps the report when it found an anomaly (a clean audit says nothing a reader needs). */
export function rememberAudit(cluster: Cluster, report: AuditReport): void {
  if (report.anomalies.length === 0) return;
  let h = history.get(cluster);
  if (!h) history.set(cluster, (h = { next: 1, records: [] }));
  h.records.push({ seq: h.next++, time: Date.now(), topics: report.topics, ok: report.ok, counts: report.counts, anomalies: report.anomalies });
  if (h.records.length > AUDITS_KEPT) h.records.splice(0, h.records.length - AUDITS_KEPT);
}

/** The audits that found something, oldest first. */
export function auditsOf(cluster: Cluster): readonly AuditRecord[] {
  return history.get(cluster)?.records ?? [];
}
