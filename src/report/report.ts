// The HTML report of a run (`kafkaesque start --report out.html`, the
// `report` option): written at stop, one file with the web view's page and
// the run's data embedded (src/control/web-page.ts), so that a CI artifact
// opens with no server and no network. It holds the cluster as it was, the
// events the ring kept, and every anomaly the run's audits found, each with
// the faults before it; at stop the log's send order is checked once more
// from the produce journal (an id-free check: it needs no processed list).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Cluster } from '../broker/cluster.js';
import type { ChaosController } from '../chaos/api.js';
import { auditChecked } from '../audit/audit.js';
import { auditsOf } from '../audit/audit-history.js';
import { renderPage, webAssets } from '../control/web-page.js';
import { groupSummary, groupView, nodeView, topicSummary, topicView, transactionView } from '../control/views.js';
import type { AuditRecordView, NodeOverview, TopicView } from '../control/types.js';
import type { ReportData, ReportFile } from '../web/data.js';
import { version } from '../version.js';

/** Partitions kept in full: enough for a test run, small enough for a file under 1 MB. */
export const REPORT_PARTITIONS_KEPT = 2000;
/** Consumer groups kept in full (members, offsets). */
export const REPORT_GROUPS_KEPT = 200;

export interface ReportSource {
  readonly cluster: Cluster;
  readonly chaos?: ChaosController;
  /** The run's seed and bootstrap, as the ready line said them. */
  readonly seed?: number;
  readonly bootstrap?: string;
  readonly proxy?: boolean;
}

/** The send-order check of the produce journal at stop (no processed list needed). */
function journalCheck(source: ReportSource): AuditRecordView | null {
  const topics = [...source.cluster.topics.values()].filter((t) => !t.internal).map((t) => t.name);
  if (topics.length === 0) return null;
  const r = auditChecked({ cluster: source.cluster, chaos: source.chaos }, { topics, processed: [], idFrom: 'key' }, { remember: false });
  const anomalies = r.anomalies.filter((a) => a.kind === 'non-monotonic-send');
  if (anomalies.length === 0) return null;
  return { seq: 0, time: Date.now(), topics, ok: false, counts: r.counts, anomalies };
}

export function reportData(source: ReportSource): ReportData {
  const { cluster, chaos } = source;
  const led = new Map<number, number>();
  const topics = [...cluster.topics.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const t of topics) for (const p of t.partitions) led.set(p.leader, (led.get(p.leader) ?? 0) + 1);
  const nodes: NodeOverview[] = [...cluster.nodes.values()].sort((a, b) => a.nodeId - b.nodeId).map((n) => ({ ...nodeView(n), leaderships: led.get(n.nodeId) ?? 0 }));
  const topicViews: TopicView[] = [];
  let kept = 0;
  let omitted = 0;
  // The application's topics first: the internal ones have 50 partitions each and say little.
  for (const t of [...topics.filter((x) => !x.internal), ...topics.filter((x) => x.internal)]) {
    if (kept + t.partitions.length > REPORT_PARTITIONS_KEPT) {
      omitted += t.partitions.length;
      continue;
    }
    kept += t.partitions.length;
    topicViews.push(topicView(t));
  }
  const described = cluster.groups.groupIds().sort().map((id) => cluster.groups.describe(id)).filter((d) => d !== undefined);
  const events = chaos?.events() ?? [];
  const audits = [...auditsOf(cluster)];
  const journal = journalCheck(source);
  if (journal) audits.push(journal);
  return {
    kind: 'kafkaesque-report',
    writtenAt: Date.now(),
    version,
    cluster: {
      clusterId: cluster.clusterId,
      controllerId: cluster.controllerId,
      bootstrap: source.bootstrap ?? cluster.liveNodes().map((n) => `${n.host}:${n.port}`).join(','),
      nodes: nodes.map(({ leaderships: _, ...n }) => n),
      proxy: source.proxy ?? chaos !== undefined,
      seed: source.seed ?? chaos?.seed ?? null,
    },
    nodes,
    topics: topics.map(topicSummary),
    topicViews,
    partitionsOmitted: omitted,
    groups: described.map(groupSummary),
    groupViews: described.slice(0, REPORT_GROUPS_KEPT).map((d) => groupView(cluster, d)),
    transactions: cluster.transactions.all().map(transactionView),
    faults: chaos && source.proxy !== false ? chaos.rules() : [],
    events,
    eventsDropped: events.length ? events[0]!.seq - 1 : 0,
    audits,
  };
}

/** The report as one HTML document. Throws when the page was not built (npm run build). */
export function reportHtml(source: ReportSource): string {
  const assets = webAssets();
  if (!assets) throw new Error("report: the web view's page is not built (npm run build writes dist/web/)");
  const { events, ...data } = reportData(source);
  const file: ReportFile = { ...data, eventsGzipBase64: gzipSync(JSON.stringify(events)).toString('base64') };
  const anomalies = data.audits.reduce((n, a) => n + a.anomalies.length, 0);
  return renderPage(assets, file, `kafkaesque report: ${anomalies} anomal${anomalies === 1 ? 'y' : 'ies'}`).html;
}

/** Writes the report to `path`; returns its size in bytes. */
export function writeReport(path: string, source: ReportSource): number {
  const html = reportHtml(source);
  writeFileSync(path, html);
  return Buffer.byteLength(html);
}
