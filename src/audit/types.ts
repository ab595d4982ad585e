// The delivery audit's input and report, as plain JSON (the control API
// sends them as they are). Types only: the control client imports this file
// without loading the broker. Anomaly names are those of Jepsen's Kafka
// checker (docs/audit.md says what each one means here).
import type { ChaosEvent } from '../chaos/api.js';

/** A stored record as the `idFrom` function sees it (key, value and header values as UTF-8). */
export interface AuditedRecordView {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: Record<string, string | null>;
}

/**
 * How a stored record's id is found: its key, one of its headers, or (in
 * process only, not over HTTP) a function of the record. A record whose id
 * is null is left out of the audit.
 */
export type IdFrom = 'key' | { header: string } | ((record: AuditedRecordView) => string | null | undefined);

/** The JSON forms of IdFrom (what the control API takes). */
export type IdFromJson = 'key' | { header: string };

/** A processed record, where the application knows where it came from. */
export interface ProcessedRecord {
  topic: string;
  partition: number;
  offset: number;
  /** Default: the id of the stored record at that offset. */
  id?: string;
  /** Who processed it (a consumer or client id): poll checks run per consumer. Default: one consumer. */
  consumer?: string;
}

/** A read-only list, as an array is: what the checker walks (the control API keeps a large report in its body's bytes, see compact-body.ts). */
export interface ItemList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** One processed message: its id, or where it came from. Listed in processing order. */
export type ProcessedItem = string | ProcessedRecord;

/** One message the application sent, in sending order: its id, or its id and the producer that sent it. */
export type SentItem = string | { id: string; producer?: string };

/**
 * One message the producer's client reported written (kafkajs's send()
 * resolved, a librdkafka or Java delivery report without error): its id, or
 * its id and where the client said it went. `producer` is the producer's
 * client id (faults on its connections then count as before it).
 */
export type AcknowledgedItem = string | { id: string; topic?: string; partition?: number; offset?: number; producer?: string };

export interface AuditInput<I extends IdFrom = IdFrom> {
  /** Topics to audit. Default: the topics of the processed records when every item names one, else every non-internal topic. */
  topics?: string[];
  /** Default 'key'. */
  idFrom?: I;
  /** What the application processed, in processing order. */
  processed: ProcessedItem[];
  /** Optional: what the application sent, in sending order (enables the send-order check by id). */
  sent?: SentItem[];
  /** Optional: what the producers' clients reported written (enables the lost-write check for records the log never stored). */
  acknowledged?: AcknowledgedItem[];
}

/** An audit input once checked: the lists may be any ItemList. */
export interface CheckedAuditInput extends Omit<AuditInput, 'processed' | 'sent' | 'acknowledged'> {
  processed: ItemList<ProcessedItem>;
  sent?: ItemList<SentItem>;
  acknowledged?: ItemList<AcknowledgedItem>;
}

export type AnomalyKind = 'lost-write' | 'unseen' | 'duplicate' | 'aborted-read' | 'poll-skip' | 'non-monotonic-poll' | 'non-monotonic-send';

export const ANOMALY_KINDS: readonly AnomalyKind[] = ['lost-write', 'unseen', 'duplicate', 'aborted-read', 'poll-skip', 'non-monotonic-poll', 'non-monotonic-send'];

/** A place in the log. */
export interface RecordRef {
  topic: string;
  partition: number;
  offset: number;
}

export interface Anomaly {
  kind: AnomalyKind;
  /** The partition the anomaly is about (of its latest record); -1 for an acknowledged id stored nowhere whose item named no partition. */
  topic: string;
  partition: number;
  /** The offsets involved in that partition, ascending (a duplicate's copies, a skip's missing offsets, …). */
  offsets: number[];
  /** Every record involved, in any partition. */
  records: RecordRef[];
  /** The message id, when known. */
  id?: string;
  consumer?: string;
  /** For duplicates: stored at more than one offset ('log') or processed more than once ('processing'). */
  in?: 'log' | 'processing';
  /** The fault and cluster events before it that concern it (docs/audit.md: which ones). */
  precededBy: ChaosEvent[];
  /** One sentence in the user's terms. */
  message: string;
}

export interface AuditReport {
  /** No anomaly, and every processed item matched the log. */
  ok: boolean;
  anomalies: Anomaly[];
  counts: Record<AnomalyKind, number> & {
    /** Data records audited (control records and records without an id left out). */
    records: number;
    /** Stored records whose Produce answer a fault kept from the producer. */
    unacknowledged: number;
    /** Records of aborted transactions. */
    aborted: number;
    processed: number;
    /** Processed items that match nothing in the audited log (the first 100 are listed in `unmatched`). */
    unmatched: number;
  };
  topics: string[];
  /** The first 100 processed items that match nothing in the audited log, with why (an id never stored, an offset outside the log); counts.unmatched says how many there were. */
  unmatched: { index: number; item: ProcessedItem; reason: string }[];
}
