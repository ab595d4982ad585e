// auditDelivery: the library's delivery audit. Reads the audited topics' logs
// from the cluster model, the fault events from the controller and the
// produce journal (which startCluster keeps), and runs the checker over the
// application's report. The control API's POST /v1/audit calls this too.
import type { Cluster } from '../broker/cluster.js';
import type { ChaosController } from '../chaos/api.js';
import { check, type PartitionEvidence } from './check.js';
import { readLog } from './log-records.js';
import { produceJournalOf } from './produce-journal.js';
import { rememberAudit } from './audit-history.js';
import type { AuditInput, AuditReport, CheckedAuditInput } from './types.js';
import { AuditInputError, validateAuditInput } from './validate.js';

/** What the audit reads: a RunningCluster, or a cluster model and its fault controller. */
export interface AuditSource {
  readonly cluster: Cluster;
  readonly chaos?: ChaosController;
}

/** The topics to audit: those asked for, else those the processed records name, else every non-internal topic. */
function topicsOf(cluster: Cluster, input: CheckedAuditInput): string[] {
  if (input.topics) {
    input.topics.forEach((t, i) => {
      if (!cluster.topic(t)) throw new AuditInputError(`topics[${i}]`, `no topic '${t}'`);
    });
    return [...new Set(input.topics)];
  }
  const named = new Set<string>();
  let everyNamed = input.processed.length > 0;
  for (let i = 0; i < input.processed.length; i++) {
    const p = input.processed.at(i)!;
    if (typeof p === 'string') {
      everyNamed = false;
      break;
    }
    named.add(p.topic);
  }
  const topics = everyNamed
    ? [...named].filter((t) => cluster.topic(t))
    : [...cluster.topics.values()].filter((t) => !t.internal).map((t) => t.name);
  return topics.sort();
}

/**
 * Checks what the application processed against what the cluster stored and
 * acknowledged (and, when given, what the producers' clients reported
 * written): lost writes, duplicates, aborted reads, poll skips,
 * non-monotonic polls and sends, each with the events before it.
 * Throws AuditInputError (field, reason) on bad input.
 */
export function auditDelivery(source: AuditSource, input: AuditInput): AuditReport {
  return auditChecked(source, validateAuditInput(input, true));
}

/** The audit of an input validateAuditInput passed (the control API checks it without functions, from the body's bytes). */
export function auditChecked(source: AuditSource, checked: CheckedAuditInput, opts: { remember?: boolean } = {}): AuditReport {
  const { cluster, chaos } = source;
  const journal = produceJournalOf(cluster);
  const topics = topicsOf(cluster, checked);
  const partitions: PartitionEvidence[] = [];
  for (const name of topics) {
    const t = cluster.topic(name)!;
    for (const p of t.partitions) {
      partitions.push({
        topic: name,
        partition: p.index,
        records: readLog(p, t.topicId, checked.idFrom ?? 'key', journal),
        appends: journal?.batches(t.topicId, p.index) ?? [],
      });
    }
  }
  const report = check({
    topics,
    partitions,
    events: chaos?.events() ?? [],
    processed: checked.processed,
    ...(checked.sent ? { sent: checked.sent } : {}),
    ...(checked.acknowledged ? { acknowledged: checked.acknowledged } : {}),
  });
  // For the web view and the run's HTML report (audit-history.ts).
  if (opts.remember !== false) rememberAudit(cluster, report);
  return report;
}
