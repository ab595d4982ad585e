// Per-group configs (Kafka's GroupConfig, KIP-848 and KIP-932): what
// IncrementalAlterConfigs sets on a GROUP resource, read by the share-group
// coordinator and the share partitions at each use, so that a change applies
// to a running group. A group's value overrides the broker's default (its
// `group.share.*` / `group.consumer.*` synonym).
//
// This file holds the store, the typed views, and GroupConfig's definitions
// and alter-time validation as each Kafka version has them; DescribeConfigs
// and the alter ops on a GROUP resource are in ../config-resources.ts.

import { javaStringHashCode } from '../coordinators.js';

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

/** Which Kafka's GroupConfig a profile has: 4.0's (KIP-848, the first share keys) or 4.4's. */
export type GroupConfigDialect = '4.0' | '4.4';

export interface GroupConfigKey {
  readonly name: string;
  readonly type: 'INT' | 'BOOLEAN' | 'STRING';
  /** GroupConfig.CONFIG_DEF's default. */
  readonly default: string;
  /** ConfigDef.Range.atLeast. */
  readonly atLeast?: number;
  /** ConfigDef.ValidString.in (case-sensitive). */
  readonly oneOf?: readonly string[];
  /** ShareGroupAutoOffsetResetStrategy.Validator. */
  readonly autoOffsetReset?: true;
  /** defineInternal: described only where the group set it. */
  readonly internal?: true;
  /** The broker config whose value is the group's default (GroupConfig.ALL_GROUP_CONFIG_SYNONYMS). */
  readonly synonym?: string;
  /** The broker configs bounding the group's value at alter time (GroupConfig#validateValues), clamping it at use (#evaluate). */
  readonly bounds?: readonly [minConfig: string, maxConfig: string];
  readonly doc: string;
}

/** The broker bounds, at Kafka's defaults (GroupCoordinatorConfig, ShareGroupConfig); kafkaesque does not let them change. */
export const groupConfigBounds: ReadonlyMap<string, number> = new Map([
  ['group.consumer.min.session.timeout.ms', 45_000], ['group.consumer.max.session.timeout.ms', 60_000],
  ['group.consumer.min.heartbeat.interval.ms', 5000], ['group.consumer.max.heartbeat.interval.ms', 15_000],
  ['group.consumer.min.assignment.interval.ms', 0], ['group.consumer.max.assignment.interval.ms', 15_000],
  ['group.share.min.session.timeout.ms', 45_000], ['group.share.max.session.timeout.ms', 60_000],
  ['group.share.min.heartbeat.interval.ms', 5000], ['group.share.max.heartbeat.interval.ms', 15_000],
  ['group.share.min.record.lock.duration.ms', 15_000], ['group.share.max.record.lock.duration.ms', 60_000],
  ['group.share.min.delivery.count.limit', 2], ['group.share.max.delivery.count.limit', 10],
  ['group.share.min.partition.max.record.locks', 100], ['group.share.max.partition.max.record.locks', 4000],
  ['group.share.min.assignment.interval.ms', 0], ['group.share.max.assignment.interval.ms', 15_000],
]);

const int = (name: string, dflt: number, atLeast: number, doc: string, synonym?: string, bounds?: readonly [string, string]): GroupConfigKey => ({
  name, type: 'INT', default: String(dflt), atLeast, doc, ...(synonym ? { synonym } : {}), ...(bounds ? { bounds } : {}),
});
const bounded = (kind: 'consumer' | 'share', what: string): readonly [string, string] => [`group.${kind}.min.${what}`, `group.${kind}.max.${what}`];

const CONSUMER_SESSION = int('consumer.session.timeout.ms', 45_000, 1, 'The timeout to detect client failures when using the consumer group protocol.', 'group.consumer.session.timeout.ms', bounded('consumer', 'session.timeout.ms'));
const CONSUMER_HEARTBEAT = int('consumer.heartbeat.interval.ms', 5000, 1, 'The heartbeat interval given to the members of a consumer group.', 'group.consumer.heartbeat.interval.ms', bounded('consumer', 'heartbeat.interval.ms'));
const SHARE_SESSION = int('share.session.timeout.ms', 45_000, 1, 'The timeout to detect client failures when using the share group protocol.', 'group.share.session.timeout.ms', bounded('share', 'session.timeout.ms'));
const SHARE_HEARTBEAT = int('share.heartbeat.interval.ms', 5000, 1, 'The heartbeat interval given to the members of a share group.', 'group.share.heartbeat.interval.ms', bounded('share', 'heartbeat.interval.ms'));
const SHARE_LOCK = int('share.record.lock.duration.ms', 30_000, 1000, 'The record acquisition lock duration in milliseconds for share groups.', 'group.share.record.lock.duration.ms', bounded('share', 'record.lock.duration.ms'));
const AUTO_OFFSET_RESET_DOC = 'The strategy to initialize the share-partition start offset. <ul><li>earliest: automatically reset the offset to the earliest offset</li><li>latest: automatically reset the offset to the latest offset</li><li>by_duration:&lt;duration&gt;: automatically reset the offset to a configured duration from the current timestamp. &lt;duration&gt; must be specified in ISO8601 format (PnDTnHnMn.nS). Negative duration is not allowed.</li><li>anything else: throw exception to the share consumer.</li></ul>';
const SHARE_AUTO_OFFSET_RESET: GroupConfigKey = { name: 'share.auto.offset.reset', type: 'STRING', default: 'latest', autoOffsetReset: true, doc: AUTO_OFFSET_RESET_DOC };

/**
 * GroupConfig.CONFIG_DEF in its order. 4.4's streams.* keys are left out
 * (kafkaesque has no streams groups; docs/unsupported.md).
 */
export const groupConfigKeys: Readonly<Record<GroupConfigDialect, readonly GroupConfigKey[]>> = {
  // GroupConfig (4.0.2): six keys; their defaults are the broker's too (KafkaConfig#extractGroupConfigMap).
  '4.0': [CONSUMER_SESSION, CONSUMER_HEARTBEAT, SHARE_SESSION, SHARE_HEARTBEAT, SHARE_LOCK, SHARE_AUTO_OFFSET_RESET],
  '4.4': [
    CONSUMER_SESSION,
    CONSUMER_HEARTBEAT,
    int('consumer.assignment.interval.ms', 1000, 0, 'The interval between assignment updates for a consumer group.', 'group.consumer.assignment.interval.ms', bounded('consumer', 'assignment.interval.ms')),
    { name: 'consumer.assignor.offload.enable', type: 'BOOLEAN', default: 'true', internal: true, synonym: 'group.consumer.assignor.offload.enable', doc: 'Whether to offload consumer group assignment to a group coordinator background thread.' },
    SHARE_SESSION,
    SHARE_HEARTBEAT,
    SHARE_LOCK,
    int('share.delivery.count.limit', 5, 2, 'The maximum number of delivery attempts for a record delivered to a share group.', 'group.share.delivery.count.limit', bounded('share', 'delivery.count.limit')),
    int('share.partition.max.record.locks', 2000, 100, 'Share-group record lock limit per share-partition.', 'group.share.partition.max.record.locks', bounded('share', 'partition.max.record.locks')),
    SHARE_AUTO_OFFSET_RESET,
    { name: 'share.isolation.level', type: 'STRING', default: 'read_uncommitted', oneOf: ['read_committed', 'read_uncommitted'], doc: 'Controls how to read records written transactionally. If set to "read_committed", the share group will only deliver transactional records which have been committed. If set to "read_uncommitted", the share group will return all messages, even transactional messages which have been aborted. Non-transactional records will be returned unconditionally in either mode.' },
    { name: 'share.renew.acknowledge.enable', type: 'BOOLEAN', default: 'true', doc: 'Whether the renew acknowledge type is enabled for the share group.' },
    int('share.assignment.interval.ms', 1000, 0, 'The interval between assignment updates for a share group.', 'group.share.assignment.interval.ms', bounded('share', 'assignment.interval.ms')),
    { name: 'share.assignor.offload.enable', type: 'BOOLEAN', default: 'true', internal: true, synonym: 'group.share.assignor.offload.enable', doc: 'Whether to offload share group assignment to a group coordinator background thread.' },
    { name: 'errors.deadletterqueue.topic.name', type: 'STRING', default: '', doc: 'The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group. If blank (the default), the group does not have a DLQ topic.' },
    { name: 'errors.deadletterqueue.copy.record.enable', type: 'BOOLEAN', default: 'false', doc: 'When writing onto the dead-letter queue topic, whether to copy the original record onto the DLQ topic, or just write a record containing the context information headers.' },
  ],
};

/**
 * The order Java's HashMap (and Properties' ConcurrentHashMap) iterates
 * these keys: by bucket of the spread String.hashCode in a table of 16,
 * doubled past 3/4 full, then as inserted. GroupConfig#validateNames reports
 * the first unknown key in that order.
 */
export function javaHashMapOrder(names: readonly string[]): string[] {
  let capacity = 16;
  while (names.length > capacity * 0.75) capacity *= 2;
  const bucket = (name: string) => {
    const h = javaStringHashCode(name);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return names.map((name, i) => ({ name, i, b: bucket(name) })).sort((x, y) => x.b - y.b || x.i - y.i).map((e) => e.name);
}

export const groupConfigKey = (dialect: GroupConfigDialect, name: string) => groupConfigKeys[dialect].find((k) => k.name === name);

/** ConfigDef.parseType then the key's validator: the value as ConfigDef.convertToString gives it back, or ConfigException's message. */
export function parseGroupConfigValue(dialect: GroupConfigDialect, key: GroupConfigKey, raw: string): { value: string } | { error: string } {
  const bad = (why: string, shown = raw) => ({ error: `Invalid value ${shown} for configuration ${key.name}: ${why}` });
  const trimmed = raw.trim();
  if (key.type === 'INT') {
    const n = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
    if (!Number.isInteger(n) || n < -2_147_483_648 || n > 2_147_483_647) return bad('Not a number of type INT');
    if (key.atLeast !== undefined && n < key.atLeast) return bad(`Value must be at least ${key.atLeast}`, String(n));
    return { value: String(n) };
  }
  if (key.type === 'BOOLEAN') {
    const v = trimmed.toLowerCase();
    return v === 'true' || v === 'false' ? { value: v } : bad('Expected value to be either true or false');
  }
  if (key.oneOf && !key.oneOf.includes(trimmed)) return bad(`String must be one of: ${key.oneOf.join(', ')}`, trimmed);
  if (key.autoOffsetReset && !parseShareAutoOffsetReset(trimmed)) {
    // 4.0.2's message has a stray dot in the format.
    const format = dialect === '4.0' ? 'by_duration:<PnDTnHnMn.nS.>' : 'by_duration:<PnDTnHnMn.nS>';
    return bad(`Invalid value \`${trimmed}\` for configuration ${key.name}. The value must be either 'earliest', 'latest' or of the format '${format}'.`, trimmed);
  }
  return { value: trimmed };
}

/**
 * ControllerConfigurationValidator#validate for a GROUP resource: the group's
 * whole config after the change, as GroupConfig#validate checks it; null
 * when valid, else the INVALID_CONFIG message. `broker` gives the broker's
 * current value of a group.* config (the session/heartbeat defaults).
 */
export function validateGroupConfig(dialect: GroupConfigDialect, config: ReadonlyMap<string, string>, broker: (name: string) => string): string | null {
  const keys = groupConfigKeys[dialect];
  for (const name of javaHashMapOrder([...config.keys()])) if (!keys.some((k) => k.name === name)) return `Unknown group config name: ${name}`;
  const parsed = new Map<string, number>();
  for (const key of keys) {
    const raw = config.get(key.name);
    if (raw === undefined) continue;
    const p = parseGroupConfigValue(dialect, key, raw);
    if ('error' in p) return p.error;
    if (key.type === 'INT') parsed.set(key.name, Number(p.value));
  }
  if (dialect === '4.0') return validateValues40(parsed);
  // GroupConfig#validateValues (4.4): the bounds in this order, then session above heartbeat, then the DLQ name.
  const order = ['consumer.heartbeat.interval.ms', 'consumer.session.timeout.ms', 'consumer.assignment.interval.ms', 'share.heartbeat.interval.ms', 'share.session.timeout.ms', 'share.record.lock.duration.ms', 'share.delivery.count.limit', 'share.partition.max.record.locks', 'share.assignment.interval.ms'];
  for (const name of order) {
    const v = parsed.get(name);
    const [minName, maxName] = groupConfigKey(dialect, name)!.bounds!;
    const min = groupConfigBounds.get(minName)!;
    const max = groupConfigBounds.get(maxName)!;
    if (v !== undefined && (v < min || v > max)) return `${name} must be in the range ${min} to ${max} inclusive.`;
  }
  for (const kind of ['consumer', 'share']) {
    const s = `${kind}.session.timeout.ms`;
    const h = `${kind}.heartbeat.interval.ms`;
    if (!parsed.has(s) && !parsed.has(h)) continue;
    if ((parsed.get(s) ?? Number(broker(`group.${s}`))) <= (parsed.get(h) ?? Number(broker(`group.${h}`)))) return `${s} must be greater than ${h}`;
  }
  const dlq = config.get('errors.deadletterqueue.topic.name')?.trim();
  if (dlq?.startsWith('__')) return "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'";
  return null;
}

/** GroupConfig#validateValues (4.0.2): every key at its value or ConfigDef default, bounds named by config, each side apart. */
function validateValues40(parsed: ReadonlyMap<string, number>): string | null {
  const value = (name: string) => parsed.get(name) ?? Number(groupConfigKey('4.0', name)!.default);
  for (const name of ['consumer.heartbeat.interval.ms', 'consumer.session.timeout.ms', 'share.heartbeat.interval.ms', 'share.session.timeout.ms', 'share.record.lock.duration.ms']) {
    const [minName, maxName] = groupConfigKey('4.0', name)!.bounds!;
    if (value(name) < groupConfigBounds.get(minName)!) return `${name} must be greater than or equal to ${minName}`;
    if (value(name) > groupConfigBounds.get(maxName)!) return `${name} must be less than or equal to ${maxName}`;
  }
  for (const kind of ['consumer', 'share']) {
    if (value(`${kind}.session.timeout.ms`) <= value(`${kind}.heartbeat.interval.ms`)) return `${kind}.session.timeout.ms must be greater than ${kind}.heartbeat.interval.ms`;
  }
  return null;
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

  /**
   * An INT config the group runs with now: its own value clamped to the
   * broker's bounds (GroupConfig#evaluate), else `brokerValue`.
   */
  intValue(groupId: string, name: string, brokerValue: number): number {
    const v = this.byGroup.get(groupId)?.get(name);
    if (v === undefined) return brokerValue;
    const key = groupConfigKey('4.4', name);
    const n = Number(v.trim());
    if (!key?.bounds) return n;
    return Math.min(Math.max(n, groupConfigBounds.get(key.bounds[0])!), groupConfigBounds.get(key.bounds[1])!);
  }

  /** The values a share group runs with now. */
  share(groupId: string): ShareGroupConfigValues {
    const d = this.shareDefaults();
    const set = this.byGroup.get(groupId);
    if (!set) return d;
    // Clamped to the broker's bounds, as GroupConfig#evaluate does.
    const int = (name: string, fallback: number) => this.intValue(groupId, name, fallback);
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
