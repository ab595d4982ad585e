// jest matchers for delivery guarantees, over the delivery audit
// (docs/audit.md). The received value is what the application processed, in
// processing order: ids, or { topic, partition, offset, consumer? } records.
//
//   await expect(processed).toHaveNoDuplicates({ topic: 'orders' });
//   await expect(processed).toHaveNoLoss({ topic: 'orders' });
//   await expect(processed).toBeInPartitionOrder({ topic: 'orders' });
//   await expect(processed).toBeDeliveredExactlyOnce({ topic: 'orders' });
//
// Each asks the cluster for its log: in process (`cluster: running`), or
// over the control API (a ControlClient, a URL, or by default the jest
// fixture's KAFKAESQUE_URL). Importing this module from setupFilesAfterEnv
// registers them; `expect.extend(deliveryMatchers)` does it by hand.
import type { AuditSource } from '../audit/audit.js';
import { formatAnomalies } from '../audit/format.js';
import { recordAnomalies } from '../audit/audit-out.js';
import type { AcknowledgedItem, AnomalyKind, AuditInput, AuditReport, IdFrom, ProcessedItem, SentItem } from '../audit/types.js';
import { ControlClient } from '../control/client.js';
import { useWorkerCluster } from '../fixture/endpoint.js';

export interface DeliveryOptions {
  /** The topic to audit (or `topics`). Default: the topics of the processed records, else every non-internal topic. */
  topic?: string;
  topics?: string[];
  /** How a stored record's id is found; default 'key'. A function works with an in-process cluster only. */
  idFrom?: IdFrom;
  /** What the application sent, in sending order (adds the send-order check). */
  sent?: SentItem[];
  /** What the producers' clients reported written (adds the lost-write check for records the log never stored). */
  acknowledged?: AcknowledgedItem[];
  /** Where the log is: a RunningCluster (in process), a ControlClient or a control URL. Default: KAFKAESQUE_URL (the jest fixture). */
  cluster?: AuditSource | ControlClient | string;
}

export interface DuplicateOptions extends DeliveryOptions {
  /** 'processing': only what was processed more than once; 'log': only ids stored twice; default both. */
  in?: 'processing' | 'log';
}

/** A ControlClient, also when it comes from the other copy of the package (ES module or CommonJS: jest may load the matchers as one and the test file as the other). */
const isControlClient = (c: unknown): c is ControlClient => c instanceof ControlClient || (typeof c === 'object' && c !== null && typeof (c as ControlClient).audit === 'function' && typeof (c as ControlClient).request === 'function');
const isSource = (c: unknown): c is AuditSource => typeof c === 'object' && c !== null && 'cluster' in c && typeof (c as AuditSource).cluster?.topic === 'function';

/** Runs the audit where the options say; what it finds also goes to $KAFKAESQUE_AUDIT_OUT when set (kafkaesque sweep). */
export async function auditProcessed(processed: ProcessedItem[], o: DeliveryOptions = {}): Promise<AuditReport> {
  const report = await runAudit(processed, o);
  recordAnomalies(report);
  return report;
}

async function runAudit(processed: ProcessedItem[], o: DeliveryOptions): Promise<AuditReport> {
  const topics = o.topics ?? (o.topic !== undefined ? [o.topic] : undefined);
  const input: AuditInput = { processed, ...(topics ? { topics } : {}), ...(o.idFrom ? { idFrom: o.idFrom } : {}), ...(o.sent ? { sent: o.sent } : {}), ...(o.acknowledged ? { acknowledged: o.acknowledged } : {}) };
  if (isSource(o.cluster)) {
    // Loaded only in process: over HTTP the matchers load nothing of the broker.
    const { auditDelivery } = await import('../audit/audit.js');
    return auditDelivery(o.cluster, input);
  }
  if (typeof input.idFrom === 'function') throw new TypeError("idFrom: a function works only with an in-process cluster (cluster: the RunningCluster); over the control API use 'key' or { header }");
  const client = isControlClient(o.cluster) ? o.cluster : typeof o.cluster === 'string' ? new ControlClient(o.cluster) : ControlClient.fromEnv();
  return client.audit(input as AuditInput<'key' | { header: string }>);
}

interface MatcherResult {
  pass: boolean;
  message(): string;
}

function checkReceived(name: string, received: unknown): ProcessedItem[] {
  if (!Array.isArray(received)) throw new TypeError(`${name}: expect() takes the processed items (an array of ids or { topic, partition, offset } records), got ${typeof received}`);
  return received as ProcessedItem[];
}

async function judge(name: string, what: string, received: unknown, o: DeliveryOptions | undefined, kinds: readonly AnomalyKind[] | null, keep: (r: AuditReport) => AuditReport = (r) => r): Promise<MatcherResult> {
  const report = keep(await auditProcessed(checkReceived(name, received), o));
  const found = kinds ? report.anomalies.filter((a) => kinds.includes(a.kind)) : report.anomalies;
  const pass = found.length === 0 && report.unmatched.length === 0;
  const scope = `${report.topics.join(', ') || 'no topics'}; ${report.counts.processed} processed, ${report.counts.records} stored`;
  return {
    pass,
    message: () =>
      pass
        ? `expected ${what} to fail, but the audit (${scope}) found nothing`
        : `expected ${what} (${scope}), but:\n${formatAnomalies(report, kinds ?? undefined)}`,
  };
}

export const deliveryMatchers = {
  /** No id processed more than once, and (unless `in: 'processing'`) none stored at more than one offset. */
  toHaveNoDuplicates(received: unknown, o?: DuplicateOptions) {
    return judge('toHaveNoDuplicates', 'no duplicates', received, o, ['duplicate'], (r) =>
      o?.in ? { ...r, anomalies: r.anomalies.filter((a) => a.kind !== 'duplicate' || a.in === o.in) } : r,
    );
  },
  /** Every acknowledged record processed: no lost write, nothing unseen. */
  toHaveNoLoss(received: unknown, o?: DeliveryOptions) {
    return judge('toHaveNoLoss', 'no loss', received, o, ['lost-write', 'unseen']);
  },
  /** Each consumer went through each partition in offset order without skipping; each producer's sends landed in order. */
  toBeInPartitionOrder(received: unknown, o?: DeliveryOptions) {
    return judge('toBeInPartitionOrder', 'per-partition order', received, o, ['poll-skip', 'non-monotonic-poll', 'non-monotonic-send']);
  },
  /** All of it: no anomaly of any kind (aborted reads included) and every processed item found in the log. */
  toBeDeliveredExactlyOnce(received: unknown, o?: DeliveryOptions) {
    return judge('toBeDeliveredExactlyOnce', 'exactly-once delivery', received, o, null);
  },
};

export default deliveryMatchers;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R, T = {}> {
      /** Async: `await expect(processed).toHaveNoDuplicates({ topic })`. */
      toHaveNoDuplicates(options?: DuplicateOptions): Promise<R>;
      toHaveNoLoss(options?: DeliveryOptions): Promise<R>;
      toBeInPartitionOrder(options?: DeliveryOptions): Promise<R>;
      toBeDeliveredExactlyOnce(options?: DeliveryOptions): Promise<R>;
    }
  }
}

// Imported from setupFilesAfterEnv: register with the test file's expect,
// and point KAFKAESQUE_URL, … at this worker's cluster (as ./setup.ts does).
useWorkerCluster();
const g = globalThis as { expect?: { extend?: (m: object) => void } };
if (typeof g.expect?.extend === 'function') g.expect.extend(deliveryMatchers);
