// The eight classic Kafka application bugs of issue 12, one kafkajs
// application each (apps/<name>.mjs, the fix behind BUG_FIXED=1), and what
// the test around each application does. docs/presets.md#which-preset-catches-which-bug
// says the same in prose.
import type { AnomalyKind } from '../../src/index.js';

/**
 * How the test drives the application:
 * - producer:  the application writes `orders`; the test reads `orders` back (its checking consumer).
 * - writer-reader: the application writes `orders` and consumes them itself; its effects log is what it processed.
 * - consumer:  the test writes `orders` (its input producer); the application consumes them; its effects log is what it processed.
 * - pipeline:  the test writes `orders`; the application turns each into a record of `invoices`, which the test reads back.
 * With `consumer` and `pipeline` the application is started again (up to 3 lives in all) while its group has not
 * committed the whole input, as a deployment restarts a crashed service: a loss is what stays lost after that.
 */
export type Shape = 'producer' | 'writer-reader' | 'consumer' | 'pipeline';

export interface BugClass {
  /** apps/<name>.mjs */
  name: string;
  /** The bug class, as issue 12's table names it. */
  title: string;
  shape: Shape;
  /** The group the application consumes `orders` in (consumer and pipeline shapes). */
  groupId?: string;
  /** The audit's anomaly kinds that are this bug's symptom: a buggy twin is caught when one of these is reported. */
  symptoms: AnomalyKind[];
  /**
   * Anomaly kinds within the delivery guarantee the fixed twin promises, so
   * not an alarm against it: an at-least-once application processes (or
   * writes) a redelivered record again, which is what at-least-once means;
   * catching that is the no-dedup class's job, not a fault of this fix.
   */
  allows?: AnomalyKind[];
}

const LOSS: AnomalyKind[] = ['lost-write', 'unseen'];
/** An at-least-once application's promise: nothing lost, anything redelivered may be processed again. */
const AT_LEAST_ONCE: AnomalyKind[] = ['duplicate'];

export const BUG_CLASSES: readonly BugClass[] = [
  { name: 'retries-no-idempotence', title: 'producer retries without idempotence (duplicates)', shape: 'producer', symptoms: ['duplicate'] },
  { name: 'in-flight-no-idempotence', title: 'max.in.flight > 1 without idempotence (reordering)', shape: 'producer', symptoms: ['non-monotonic-send'] },
  { name: 'no-retries', title: 'producer without retries (loss)', shape: 'pipeline', groupId: 'billing', symptoms: LOSS, allows: AT_LEAST_ONCE },
  { name: 'read-uncommitted', title: 'read_uncommitted where read_committed is needed', shape: 'writer-reader', symptoms: ['aborted-read', 'duplicate'], allows: AT_LEAST_ONCE },
  { name: 'no-dedup', title: 'consumer without deduplication (duplicate effects after a redelivery)', shape: 'consumer', groupId: 'payments', symptoms: ['duplicate'] },
  { name: 'commit-before-ack', title: 'consume-transform-produce that commits its input before its output is acknowledged (loss)', shape: 'pipeline', groupId: 'billing', symptoms: LOSS, allows: AT_LEAST_ONCE },
  { name: 'acks-1', title: 'acks=1 (loss when the leader fails)', shape: 'producer', symptoms: [...LOSS, 'non-monotonic-send'] },
  { name: 'offsets-outside-txn', title: 'offsets committed outside the transaction in consume-transform-produce (duplicates)', shape: 'pipeline', groupId: 'billing', symptoms: ['duplicate'] },
];

export function bugClass(name: string): BugClass {
  const found = BUG_CLASSES.find((c) => c.name === name);
  if (!found) throw new RangeError(`bug class: no application '${name}' (known: ${BUG_CLASSES.map((c) => c.name).join(', ')})`);
  return found;
}
