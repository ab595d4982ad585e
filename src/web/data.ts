// What the HTML report embeds: the cluster as the control API showed it at
// stop, every event the ring still held, and the audits that found
// something. The events go in gzipped (ReportFile): a busy run's 10,000
// events are 2.4 MB of repetitive JSON and about a tenth of that gzipped;
// the browser inflates them with its own DecompressionStream. The page renders it with the same code as the live view
// (app.ts); src/report/report.ts builds it. Types only.
import type {
  AuditRecordView,
  ChaosEvent,
  ClusterView,
  FaultRule,
  GroupSummaryView,
  GroupView,
  NodeOverview,
  TopicSummary,
  TopicView,
  TransactionView,
} from '../control/types.js';

export interface ReportData {
  kind: 'kafkaesque-report';
  /** Wall-clock time the report was written (ms since the epoch). */
  writtenAt: number;
  version: string;
  cluster: ClusterView;
  nodes: NodeOverview[];
  topics: TopicSummary[];
  /** The partitions of the first topics, up to a cap (partitionsOmitted says how many were left out). */
  topicViews: TopicView[];
  partitionsOmitted: number;
  groups: GroupSummaryView[];
  groupViews: GroupView[];
  transactions: TransactionView[];
  faults: FaultRule[];
  events: ChaosEvent[];
  /** Events the ring had dropped before the report (the ring keeps the last 10,000). */
  eventsDropped: number;
  /** The audits of the run that found something, and the log's own check at stop. */
  audits: AuditRecordView[];
}

/** The report as written into the file: the events as base64 of their gzipped JSON array. */
export interface ReportFile extends Omit<ReportData, 'events'> {
  eventsGzipBase64: string;
}
