// The run's fault events: a bounded ring (oldest dropped first), listeners,
// and one pino line per event. Sequence numbers keep increasing past the
// ring's size, so a reader that asks `since` its last seq never misses an
// event silently: a gap in seq means the ring overflowed.
import type { Logger } from '../logger.js';
import type { ChaosEvent } from './api.js';
import { INTERNAL_TOPICS } from '../broker/topic-names.js';

export const DEFAULT_EVENT_CAPACITY = 10_000;

/**
 * A leadership of __consumer_offsets or __transaction_state that moved: a
 * stopped node moves dozens at once. Kept as events like any other, but
 * logged at debug and left out of the shutdown line's count, so that a
 * person reads "node 1 stopped" and not fifty lines about internal topics.
 */
export function isInternalLeaderChange(e: ChaosEvent): boolean {
  return e.kind === 'leader-changed' && e.topic !== undefined && INTERNAL_TOPICS.has(e.topic);
}

/** What happened, in words: the message of the event's log line. */
export function eventMessage(e: ChaosEvent): string {
  const tp = e.topic !== undefined ? `${e.topic}-${e.partition}` : '';
  switch (e.kind) {
    case 'fault':
      return `chaos: ${e.action} fired (rule ${e.ruleId})`;
    case 'node-stopped':
      return `node ${e.nodeId} stopped`;
    case 'node-started':
      return `node ${e.nodeId} started`;
    case 'leader-changed': {
      const d = (e.detail ?? {}) as { leader?: number; leaderEpoch?: number; unclean?: boolean };
      if (d.leader === -1) return `${tp} is offline: no replica can lead it`;
      return `leader of ${tp} is now node ${d.leader} (epoch ${d.leaderEpoch}${d.unclean ? ', unclean election' : ''})`;
    }
    default:
      return `chaos: ${e.kind}`;
  }
}

export class EventLog {
  private readonly ring: ChaosEvent[] = [];
  private head = 0;
  private nextSeq = 1;
  private readonly listeners = new Set<(e: ChaosEvent) => void>();

  constructor(
    readonly capacity: number = DEFAULT_EVENT_CAPACITY,
    private readonly log?: Logger,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`event capacity must be a whole number >= 1, got ${capacity}`);
  }

  get size(): number {
    return this.ring.length;
  }

  push(fields: Omit<ChaosEvent, 'seq'>): ChaosEvent {
    const event: ChaosEvent = { seq: this.nextSeq++, ...fields };
    if (this.ring.length < this.capacity) this.ring.push(event);
    else {
      this.ring[this.head] = event;
      this.head = (this.head + 1) % this.capacity;
    }
    // The one log line of each cluster change (the cluster model emits them and
    // leaves the logging here) and each fault. pino's own `time` key would
    // clash with the event's: log it nested.
    if (isInternalLeaderChange(event)) this.log?.debug({ event }, eventMessage(event));
    else this.log?.info({ event }, eventMessage(event));
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (err) {
        this.log?.error({ err }, 'chaos event listener failed');
      }
    }
    return event;
  }

  /** Events after seq `since` (default: all kept), oldest first, at most `limit`. */
  list(opts: { since?: number; limit?: number } = {}): ChaosEvent[] {
    const ordered = this.head === 0 ? this.ring : [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    const since = opts.since ?? 0;
    const from = ordered.findIndex((e) => e.seq > since);
    if (from < 0) return [];
    const end = opts.limit === undefined ? undefined : from + Math.max(0, opts.limit);
    return ordered.slice(from, end);
  }

  on(listener: (e: ChaosEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
