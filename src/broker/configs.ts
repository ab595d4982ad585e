// Topic and broker configs: names, defaults and validation as a 3.9 broker
// has them (LogConfig and ServerLogConfigs), for CreateTopics, DescribeConfigs,
// AlterConfigs and IncrementalAlterConfigs. Values are strings, as on the wire.

import type { KafkaVersionProfile } from './kafka-version/profiles.js';

type Validator = (value: string) => string | null;

const long: Validator = (v) => (/^-?\d+$/.test(v.trim()) ? null : `${v} is not a whole number`);
const positiveInt: Validator = (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 ? null : `${v} must be a whole number >= 1`);
const oneOf =
  (...allowed: string[]): Validator =>
  (v) =>
    allowed.includes(v) ? null : `${v} is not one of ${allowed.join(', ')}`;
const bool: Validator = oneOf('true', 'false');
const ratio: Validator = (v) => (Number(v) >= 0 && Number(v) <= 1 ? null : `${v} must be between 0 and 1`);
const cleanupPolicy: Validator = (v) =>
  v.split(',').every((p) => ['delete', 'compact'].includes(p.trim())) ? null : `${v} is not a list of delete, compact`;

const intIn =
  (min: number, max: number): Validator =>
  (v) =>
    /^-?\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? null : `${v} must be a whole number in ${min}..${max}`;
const localRetention: Validator = (v) => long(v) ?? (Number(v) >= -2 ? null : `${v} must be -2 or more`);
// LogConfig's ThrottledReplicaListValidator: empty, `*`, or partition:broker pairs.
const throttledReplicas: Validator = (v) =>
  /^\s*(\*|(\d+\s*:\s*\d+\s*(,\s*\d+\s*:\s*\d+\s*)*)?)\s*$/.test(v) ? null : `${v} is not empty, * or a list of partition:broker`;
export interface ConfigDef {
  readonly default: string;
  readonly validate: Validator;
  /** Describe type, as DescribeConfigs v3+ reports it (ConfigType in Kafka: 1 boolean, 2 string, 3 int, 5 long, 6 double, 7 list). */
  readonly type: number;
  readonly sensitive?: boolean;
}

export const topicConfigDefs: ReadonlyMap<string, ConfigDef> = new Map<string, ConfigDef>([
  ['cleanup.policy', { default: 'delete', validate: cleanupPolicy, type: 7 }],
  ['compression.type', { default: 'producer', validate: oneOf('producer', 'uncompressed', 'gzip', 'snappy', 'lz4', 'zstd'), type: 2 }],
  ['delete.retention.ms', { default: '86400000', validate: long, type: 5 }],
  ['file.delete.delay.ms', { default: '60000', validate: long, type: 5 }],
  ['flush.messages', { default: '9223372036854775807', validate: long, type: 5 }],
  ['flush.ms', { default: '9223372036854775807', validate: long, type: 5 }],
  ['index.interval.bytes', { default: '4096', validate: long, type: 3 }],
  ['max.compaction.lag.ms', { default: '9223372036854775807', validate: long, type: 5 }],
  ['max.message.bytes', { default: '1048588', validate: long, type: 3 }],
  ['message.downconversion.enable', { default: 'true', validate: bool, type: 1 }],
  ['message.timestamp.after.max.ms', { default: '9223372036854775807', validate: long, type: 5 }],
  ['message.timestamp.before.max.ms', { default: '9223372036854775807', validate: long, type: 5 }],
  ['message.timestamp.difference.max.ms', { default: '9223372036854775807', validate: long, type: 5 }],
  ['message.timestamp.type', { default: 'CreateTime', validate: oneOf('CreateTime', 'LogAppendTime'), type: 2 }],
  ['min.cleanable.dirty.ratio', { default: '0.5', validate: ratio, type: 6 }],
  ['min.compaction.lag.ms', { default: '0', validate: long, type: 5 }],
  ['min.insync.replicas', { default: '1', validate: positiveInt, type: 3 }],
  ['preallocate', { default: 'false', validate: bool, type: 1 }],
  ['retention.bytes', { default: '-1', validate: long, type: 5 }],
  ['retention.ms', { default: '604800000', validate: long, type: 5 }],
  ['segment.bytes', { default: '1073741824', validate: positiveInt, type: 3 }],
  ['segment.index.bytes', { default: '10485760', validate: positiveInt, type: 3 }],
  ['segment.jitter.ms', { default: '0', validate: long, type: 5 }],
  ['segment.ms', { default: '604800000', validate: long, type: 5 }],
  ['unclean.leader.election.enable', { default: 'false', validate: bool, type: 1 }],
  // In LogConfig since 3.x and listed by a real 3.9.1 and 4.0.2 broker
  // (test/conformance): the compression levels (KIP-390, 3.8), tiered
  // storage's (KIP-405; KIP-950's two, 3.9) and replication throttling.
  ['compression.gzip.level', { default: '-1', validate: (v) => (v.trim() === '-1' ? null : intIn(1, 9)(v)), type: 3 }],
  ['compression.lz4.level', { default: '9', validate: intIn(1, 17), type: 3 }],
  ['compression.zstd.level', { default: '3', validate: intIn(-131072, 22), type: 3 }],
  ['follower.replication.throttled.replicas', { default: '', validate: throttledReplicas, type: 7 }],
  ['leader.replication.throttled.replicas', { default: '', validate: throttledReplicas, type: 7 }],
  ['local.retention.bytes', { default: '-2', validate: localRetention, type: 5 }],
  ['local.retention.ms', { default: '-2', validate: localRetention, type: 5 }],
  ['remote.log.copy.disable', { default: 'false', validate: bool, type: 1 }],
  ['remote.log.delete.on.disable', { default: 'false', validate: bool, type: 1 }],
  ['remote.storage.enable', { default: 'false', validate: bool, type: 1 }],
]);

const messageFormatVersion: Validator = (v) => (/^\d+\.\d+(\.\d+)?(-IV\d+)?$/.test(v) ? null : `${v} is not a Kafka version such as 3.0-IV1`);
/** Validators and types of the configs a profile adds to the 3.9 set. */
const addedConfigDefs: Readonly<Record<string, Omit<ConfigDef, 'default'>>> = {
  'message.format.version': { validate: messageFormatVersion, type: 2 },
  'errors.deadletterqueue.group.enable': { validate: bool, type: 1 },
  // LogConfig 4.4: Range.between(1, Integer.MAX_VALUE - 8). Accepted and
  // described; not enforced, since kafkaesque does not decompress batches at
  // produce (docs/protocol.md).
  'max.decompressed.message.bytes': { validate: intIn(1, 2147483639), type: 3 },
  // Tiered storage's upload lag (LogConfig 4.4: Range.atLeast(-1)); no remote storage here, so stored only.
  'remote.copy.lag.bytes': { validate: (v) => long(v) ?? (Number(v) >= -1 ? null : `${v} must be -1 or more`), type: 5 },
  'remote.copy.lag.ms': { validate: (v) => long(v) ?? (Number(v) >= -1 ? null : `${v} must be -1 or more`), type: 5 },
};

const byProfile = new WeakMap<KafkaVersionProfile, ReadonlyMap<string, ConfigDef>>();

/** The topic configs of one Kafka version (LogConfig of that release): the set above, less the profile's removals, with its additions, by name. */
export function topicConfigDefsFor(profile: KafkaVersionProfile): ReadonlyMap<string, ConfigDef> {
  let defs = byProfile.get(profile);
  if (!defs) {
    const entries = new Map([...topicConfigDefs].filter(([name]) => !profile.topicConfigsRemoved.includes(name)));
    // An added name already in the 3.9 set keeps its validator and takes the profile's default.
    for (const [name, value] of profile.topicConfigsAdded) entries.set(name, { ...(entries.get(name) ?? addedConfigDefs[name]!), default: value });
    defs = new Map([...entries].sort(([a], [b]) => (a < b ? -1 : 1)));
    byProfile.set(profile, defs);
  }
  return defs;
}

/** Checks one topic config; returns the reason it is refused, or null. */
export function validateTopicConfig(name: string, value: string | null, defs: ReadonlyMap<string, ConfigDef> = topicConfigDefs): string | null {
  const def = defs.get(name);
  if (!def) return `Unknown topic config name: ${name}`;
  if (value === null) return `Null value not supported for topic configs: ${name}`;
  const why = def.validate(value);
  return why ? `Invalid value ${value} for configuration ${name}: ${why}` : null;
}

/** A topic's effective value of a config (its override, else the default). */
export function topicConfigValue(overrides: ReadonlyMap<string, string>, name: string): string {
  return overrides.get(name) ?? topicConfigDefs.get(name)?.default ?? '';
}
