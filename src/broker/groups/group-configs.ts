// Per-group configs (Kafka's GroupConfig, KIP-848 and KIP-932): what
// IncrementalAlterConfigs sets on a GROUP resource, read by the share-group
// coordinator and the share partitions at each use, so that a change applies
// to a running group. A group's value overrides the broker's default (its
// `group.share.*` / `group.consumer.*` synonym).
//
// This file holds the store and the typed view; validation of names and
// values, and DescribeConfigs of GROUP resources, come with the handlers.

/** share.auto.offset.reset: where a share partition starts when the group first reads it. */
export type ShareAutoOffsetReset = { kind: 'earliest' } | { kind: 'latest' } | { kind: 'by_duration'; durationMs: number };

/** The values a share group runs with: its own where set, else the broker's. */
export interface ShareGroupConfigValues {
  recordLockDurationMs: number;
  deliveryCountLimit: number;
  partitionMaxRecordLocks: number;
  autoOffsetReset: ShareAutoOffsetReset;
  /** 0 read_uncommitted, 1 read_committed. */
  isolationLevel: 0 | 1;
  renewAcknowledgeEnable: boolean;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** errors.deadletterqueue.topic.name; "" for none. */
  deadLetterTopic: string;
  deadLetterCopyRecord: boolean;
}

/** Kafka 4.4's broker defaults (GroupCoordinatorConfig, ShareGroupConfig). */
export const defaultShareGroupConfigValues: Readonly<ShareGroupConfigValues> = Object.freeze({
  recordLockDurationMs: 30_000,
  deliveryCountLimit: 5,
  partitionMaxRecordLocks: 2000,
  autoOffsetReset: { kind: 'latest' } as ShareAutoOffsetReset,
  isolationLevel: 0,
  renewAcknowledgeEnable: true,
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 5000,
  deadLetterTopic: '',
  deadLetterCopyRecord: false,
});

/** ISO-8601 durations as Java's Duration.parse reads them (PnDTnHnMn.nS), in ms; null when not one. */
export function parseIsoDuration(text: string): number | null {
  const m = /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+(?:[.,]\d{1,9})?)S)?)?$/i.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined && m[4] === undefined && m[5] === undefined)) return null;
  if (/T$/i.test(text)) return null;
  const n = (s: string | undefined) => (s === undefined ? 0 : Number(s.replace(',', '.')));
  const ms = ((n(m[2]) * 24 + n(m[3])) * 60 + n(m[4])) * 60_000 + n(m[5]) * 1000;
  return m[1] === '-' ? -ms : ms;
}

export function parseShareAutoOffsetReset(value: string): ShareAutoOffsetReset | null {
  const v = value.trim().toLowerCase();
  if (v === 'earliest' || v === 'latest') return { kind: v };
  if (!v.startsWith('by_duration:')) return null;
  const ms = parseIsoDuration(value.trim().slice('by_duration:'.length));
  return ms === null || ms < 0 ? null : { kind: 'by_duration', durationMs: ms };
}

export class GroupConfigs {
  /** group id → config name → value, as set. */
  private readonly byGroup = new Map<string, Map<string, string>>();

  constructor(private readonly shareDefaults: () => ShareGroupConfigValues = () => defaultShareGroupConfigValues) {}

  /** The configs set on a group (name → value). */
  entries(groupId: string): ReadonlyMap<string, string> {
    return this.byGroup.get(groupId) ?? new Map();
  }

  set(groupId: string, name: string, value: string): void {
    let m = this.byGroup.get(groupId);
    if (!m) this.byGroup.set(groupId, (m = new Map()));
    m.set(name, value);
  }

  delete(groupId: string, name: string): void {
    const m = this.byGroup.get(groupId);
    m?.delete(name);
    if (m?.size === 0) this.byGroup.delete(groupId);
  }

  /** A deleted group's configs go with it (GroupConfigManager#removeGroupConfig). */
  dropGroup(groupId: string): void {
    this.byGroup.delete(groupId);
  }

  reset(): void {
    this.byGroup.clear();
  }

  /** The values a share group runs with now. */
  share(groupId: string): ShareGroupConfigValues {
    const d = this.shareDefaults();
    const set = this.byGroup.get(groupId);
    if (!set) return d;
    const int = (name: string, fallback: number) => {
      const v = set.get(name);
      return v === undefined ? fallback : Number(v);
    };
    const bool = (name: string, fallback: boolean) => {
      const v = set.get(name);
      return v === undefined ? fallback : v.trim().toLowerCase() === 'true';
    };
    const reset = set.get('share.auto.offset.reset');
    const isolation = set.get('share.isolation.level');
    return {
      recordLockDurationMs: int('share.record.lock.duration.ms', d.recordLockDurationMs),
      deliveryCountLimit: int('share.delivery.count.limit', d.deliveryCountLimit),
      partitionMaxRecordLocks: int('share.partition.max.record.locks', d.partitionMaxRecordLocks),
      autoOffsetReset: (reset !== undefined && parseShareAutoOffsetReset(reset)) || d.autoOffsetReset,
      isolationLevel: isolation === undefined ? d.isolationLevel : isolation.trim().toLowerCase() === 'read_committed' ? 1 : 0,
      renewAcknowledgeEnable: bool('share.renew.acknowledge.enable', d.renewAcknowledgeEnable),
      sessionTimeoutMs: int('share.session.timeout.ms', d.sessionTimeoutMs),
      heartbeatIntervalMs: int('share.heartbeat.interval.ms', d.heartbeatIntervalMs),
      deadLetterTopic: set.get('errors.deadletterqueue.topic.name') ?? d.deadLetterTopic,
      deadLetterCopyRecord: bool('errors.deadletterqueue.copy.record.enable', d.deadLetterCopyRecord),
    };
  }
}
