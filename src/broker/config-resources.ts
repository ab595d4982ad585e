// Describe and alter configs of TOPIC (2), BROKER (4) and GROUP (32)
// resources, shared by DescribeConfigs, AlterConfigs and
// IncrementalAlterConfigs. Topic configs are validated against
// topicConfigDefs; the broker configs that shape the cluster's defaults can
// be changed at run time; group configs are GroupConfig's (groups/group-configs.ts).
import type { LagReader } from './metadata-lag.js';
import type { ErrorName } from '../protocol/errors.js';
import type { Cluster } from './cluster.js';
import { validateTopicConfig } from './configs.js';
import { defaultShareGroupConfigValues, groupConfigKeys, parseGroupConfigValue, validateGroupConfig, type GroupConfigDialect, type GroupConfigKey } from './groups/group-configs.js';

export const RESOURCE_TOPIC = 2;
export const RESOURCE_BROKER = 4;
export const RESOURCE_GROUP = 32;

/** DescribeConfigsResponse.ConfigSource */
export const ConfigSource = { TOPIC_CONFIG: 1, DYNAMIC_BROKER_CONFIG: 2, DYNAMIC_DEFAULT_BROKER_CONFIG: 3, STATIC_BROKER_CONFIG: 4, DEFAULT_CONFIG: 5, GROUP_CONFIG: 8 } as const;

export interface ConfigSynonym {
  name: string;
  value: string | null;
  source: number;
}

export interface ConfigEntry {
  name: string;
  value: string | null;
  readOnly: boolean;
  isDefault: boolean;
  source: number;
  type: number;
  sensitive: boolean;
  /** Listed where kafkaesque knows them (GROUP resources); otherwise none. */
  synonyms?: ConfigSynonym[];
  documentation?: string | null;
}

export type ResourceResult<T> = { ok: true; value: T } | { ok: false; error: ErrorName; message: string };

interface BrokerConfig {
  type: number;
  readOnly: boolean;
  get(cluster: Cluster, nodeId: number): string;
  set?(cluster: Cluster, value: string): string | null;
}

const wholeNumber = (v: string, min: number) => (/^\d+$/.test(v) && Number(v) >= min ? null : `${v} must be a whole number >= ${min}`);

// readOnly is what Kafka answers: false only for the configs in
// DynamicBrokerConfig's dynamic set (message.max.bytes, min.insync.replicas,
// compression.type, ...), as a real 3.9.1/4.0.2 broker answered
// test/conformance. kafkaesque's own run-time changes (`set`) are an
// extension and do not change that answer.
const brokerConfigs = new Map<string, BrokerConfig>([
  ['broker.id', { type: 3, readOnly: true, get: (_c, id) => String(id) }],
  ['node.id', { type: 3, readOnly: true, get: (_c, id) => String(id) }],
  ['process.roles', { type: 7, readOnly: true, get: () => 'broker,controller' }],
  ['num.partitions', {
    type: 3, readOnly: true, get: (c) => String(c.options.defaultPartitions),
    set: (c, v) => wholeNumber(v, 1) ?? ((c.options.defaultPartitions = Number(v)), null),
  }],
  // ReplicationConfigs defines it INT, though CreateTopics carries an int16.
  ['default.replication.factor', {
    type: 3, readOnly: true, get: (c) => String(c.options.defaultReplicationFactor),
    set: (c, v) => wholeNumber(v, 1) ?? ((c.options.defaultReplicationFactor = Number(v)), null),
  }],
  ['min.insync.replicas', {
    type: 3, readOnly: false, get: (c) => String(c.options.minInsyncReplicas),
    set: (c, v) => wholeNumber(v, 1) ?? ((c.options.minInsyncReplicas = Number(v)), null),
  }],
  ['auto.create.topics.enable', {
    type: 1, readOnly: true, get: (c) => String(c.options.autoCreateTopics),
    set: (c, v) => (v === 'true' || v === 'false' ? ((c.options.autoCreateTopics = v === 'true'), null) : `${v} is not true or false`),
  }],
  ['message.max.bytes', { type: 3, readOnly: false, get: () => '1048588' }],
  ['compression.type', { type: 2, readOnly: false, get: () => 'producer' }],
  ['log.retention.hours', { type: 3, readOnly: true, get: () => '168' }],
  ['offsets.topic.num.partitions', { type: 3, readOnly: true, get: () => '50' }],
  ['transaction.state.log.num.partitions', { type: 3, readOnly: true, get: () => '50' }],
  ['transaction.max.timeout.ms', { type: 3, readOnly: true, get: () => '900000' }],
  ['group.initial.rebalance.delay.ms', { type: 3, readOnly: true, get: () => '0' }],
  ['unclean.leader.election.enable', { type: 1, readOnly: false, get: () => 'false' }],
]);

function brokerNode(cluster: Cluster, name: string): ResourceResult<number> {
  if (name === '') return { ok: true, value: cluster.controllerId };
  const id = Number(name);
  if (!/^\d+$/.test(name) || !cluster.nodes.has(id)) return { ok: false, error: 'INVALID_REQUEST', message: `Unexpected broker id ${name}` };
  return { ok: true, value: id };
}

/** DescribeConfigsResponse.ConfigType by ConfigDef.Type. */
const CONFIG_TYPE = { BOOLEAN: 1, STRING: 2, INT: 3 } as const;

/** Kafka's defaults of the broker configs group configs fall back to (GroupCoordinatorConfig, ShareGroupConfig). */
const BROKER_GROUP_DEFAULTS: ReadonlyMap<string, string> = new Map([
  ['group.consumer.session.timeout.ms', '45000'],
  ['group.consumer.heartbeat.interval.ms', '5000'],
  ['group.consumer.assignment.interval.ms', '1000'],
  ['group.consumer.assignor.offload.enable', 'true'],
  ['group.share.session.timeout.ms', String(defaultShareGroupConfigValues.sessionTimeoutMs)],
  ['group.share.heartbeat.interval.ms', String(defaultShareGroupConfigValues.heartbeatIntervalMs)],
  ['group.share.record.lock.duration.ms', String(defaultShareGroupConfigValues.recordLockDurationMs)],
  ['group.share.delivery.count.limit', String(defaultShareGroupConfigValues.deliveryCountLimit)],
  ['group.share.partition.max.record.locks', String(defaultShareGroupConfigValues.partitionMaxRecordLocks)],
  ['group.share.assignment.interval.ms', '1000'],
  ['group.share.assignor.offload.enable', 'true'],
]);

/**
 * The broker's current value of a group config's synonym, and Kafka's
 * default of it: only the KIP-848 coordinator's two timeouts can differ
 * (cluster.groups.consumerGroups.config, changeable in-process).
 */
function brokerGroupValue(cluster: Cluster, name: string): { value: string; kafkaDefault: string } {
  const kafkaDefault = BROKER_GROUP_DEFAULTS.get(name)!;
  const consumer = cluster.groups.consumerGroups.config;
  const value = name === 'group.consumer.session.timeout.ms' || name === 'group.consumer.heartbeat.interval.ms' ? String(consumer[name]) : kafkaDefault;
  return { value, kafkaDefault };
}

/** A broker config's value for group configs' checks and defaults. */
export const brokerGroupConfig = (cluster: Cluster) => (name: string) => brokerGroupValue(cluster, name).value;

/**
 * ConfigHelper#createGroupConfigEntry: the group's value, else its broker
 * synonym's, else GroupConfig's default; the source is the first synonym's.
 * 4.0.2 names the group key itself as the only synonym (GROUP_CONFIG or DEFAULT_CONFIG).
 */
function groupConfigEntry(cluster: Cluster, dialect: GroupConfigDialect, key: GroupConfigKey, set: string | undefined, opts: DescribeOptions): ConfigEntry {
  const override = set === undefined ? undefined : parseGroupConfigValue(dialect, key, set);
  const own = override && 'value' in override ? override.value : set;
  const broker = key.synonym ? brokerGroupValue(cluster, key.synonym) : null;
  const value = own ?? broker?.value ?? key.default;
  let synonyms: ConfigSynonym[];
  if (dialect === '4.0') {
    synonyms = [{ name: key.name, value, source: own === undefined ? ConfigSource.DEFAULT_CONFIG : ConfigSource.GROUP_CONFIG }];
  } else {
    const below: ConfigSynonym[] = !broker
      ? [{ name: key.name, value: key.default, source: ConfigSource.DEFAULT_CONFIG }]
      : broker.value === broker.kafkaDefault
        ? [{ name: key.synonym!, value: broker.value, source: ConfigSource.DEFAULT_CONFIG }]
        : [{ name: key.synonym!, value: broker.value, source: ConfigSource.STATIC_BROKER_CONFIG }, { name: key.synonym!, value: broker.kafkaDefault, source: ConfigSource.DEFAULT_CONFIG }];
    synonyms = own === undefined ? below : [{ name: key.name, value: own, source: ConfigSource.GROUP_CONFIG }, ...below];
  }
  return {
    name: key.name,
    value,
    readOnly: false,
    isDefault: false,
    source: synonyms[0]!.source,
    type: CONFIG_TYPE[key.type],
    sensitive: false,
    synonyms: opts.includeSynonyms ? synonyms : [],
    documentation: opts.includeDocumentation ? key.doc : null,
  };
}

export interface DescribeOptions {
  includeSynonyms: boolean;
  includeDocumentation: boolean;
}

/** `reader`: the request whose node's metadata answers (metadata-lag: ConfigHelper's metadataCache.contains on a lagging node). */
export function describeConfigs(
  cluster: Cluster,
  type: number,
  name: string,
  keys: readonly string[] | null,
  reader?: LagReader,
  opts: DescribeOptions = { includeSynonyms: false, includeDocumentation: false },
): ResourceResult<ConfigEntry[]> {
  const wanted = (k: string) => !keys || keys.length === 0 || keys.includes(k);
  const dialect = cluster.profile.groupConfigs;
  if (type === RESOURCE_GROUP && dialect) {
    // ConfigHelper#describeConfigs: any group, existing or not; internal keys only where the group set them.
    if (name === '') return { ok: false, error: 'INVALID_REQUEST', message: 'Group name must not be empty' };
    const set = cluster.groupConfigs.entries(name);
    return {
      ok: true,
      value: groupConfigKeys[dialect].filter((k) => wanted(k.name) && (!k.internal || set.has(k.name))).map((k) => groupConfigEntry(cluster, dialect, k, set.get(k.name), opts)),
    };
  }
  if (type === RESOURCE_TOPIC) {
    const topic = reader ? cluster.topicOn(reader, name) : cluster.topic(name);
    if (!topic) return { ok: false, error: 'UNKNOWN_TOPIC_OR_PARTITION', message: `Topic '${name}' does not exist.` };
    return {
      ok: true,
      value: [...cluster.topicConfigDefs].filter(([k]) => wanted(k)).map(([k, def]) => {
        const override = topic.configs.get(k);
        return {
          name: k,
          value: override ?? def.default,
          readOnly: false,
          isDefault: override === undefined,
          source: override === undefined ? ConfigSource.DEFAULT_CONFIG : ConfigSource.TOPIC_CONFIG,
          type: def.type,
          sensitive: false,
        };
      }),
    };
  }
  if (type === RESOURCE_BROKER) {
    const node = brokerNode(cluster, name);
    if (!node.ok) return node;
    return {
      ok: true,
      value: [...brokerConfigs].filter(([k]) => wanted(k) && !cluster.profile.brokerConfigsRemoved.includes(k)).map(([k, def]) => ({
        name: k,
        value: def.get(cluster, node.value),
        readOnly: def.readOnly,
        isDefault: false,
        source: ConfigSource.STATIC_BROKER_CONFIG,
        type: def.type,
        sensitive: false,
      })),
    };
  }
  return { ok: false, error: 'INVALID_REQUEST', message: `Unsupported resource type ${type}` };
}

export type ConfigOp = { name: string; op: 'set' | 'delete' | 'append' | 'subtract'; value: string | null };

/**
 * Applies config changes to one resource, all or nothing. `replace` (the
 * legacy AlterConfigs) drops every topic override not named.
 */
export function alterConfigs(cluster: Cluster, type: number, name: string, ops: readonly ConfigOp[], opts: { replace: boolean; validateOnly: boolean }): ResourceResult<void> {
  const dialect = cluster.profile.groupConfigs;
  if (type === RESOURCE_GROUP && dialect) return alterGroupConfigs(cluster, dialect, name, ops, opts);
  if (type === RESOURCE_TOPIC) {
    const topic = cluster.topic(name);
    if (!topic) return { ok: false, error: 'UNKNOWN_TOPIC_OR_PARTITION', message: `Topic '${name}' does not exist.` };
    const next = opts.replace ? new Map<string, string>() : new Map(topic.configs);
    for (const { name: key, op, value } of ops) {
      if (op === 'delete') {
        if (!cluster.topicConfigDefs.has(key)) return { ok: false, error: 'INVALID_CONFIG', message: `Unknown topic config name: ${key}` };
        next.delete(key);
        continue;
      }
      let v = value;
      if (op === 'append' || op === 'subtract') {
        const current = (next.get(key) ?? cluster.topicConfigDefs.get(key)?.default ?? '').split(',').filter(Boolean);
        const items = (value ?? '').split(',').filter(Boolean);
        v = (op === 'append' ? [...current, ...items.filter((i) => !current.includes(i))] : current.filter((i) => !items.includes(i))).join(',');
      }
      const why = validateTopicConfig(key, v, cluster.topicConfigDefs);
      if (why) return { ok: false, error: 'INVALID_CONFIG', message: why };
      next.set(key, v!);
    }
    if (!opts.validateOnly) {
      topic.configs.clear();
      for (const [k, v] of next) topic.configs.set(k, v);
    }
    return { ok: true, value: undefined };
  }
  if (type === RESOURCE_BROKER) {
    const node = brokerNode(cluster, name);
    if (!node.ok) return node;
    for (const { name: key, op, value } of ops) {
      const def = brokerConfigs.get(key);
      if (!def) return { ok: false, error: 'INVALID_CONFIG', message: `Unknown broker config name: ${key}` };
      if (!def.set || op !== 'set' || value === null) return { ok: false, error: 'INVALID_CONFIG', message: `Cannot update ${key} at run time in kafkaesque` };
      if (!opts.validateOnly) {
        const why = def.set(cluster, value);
        if (why) return { ok: false, error: 'INVALID_CONFIG', message: `Invalid value ${value} for configuration ${key}: ${why}` };
      }
    }
    return { ok: true, value: undefined };
  }
  return { ok: false, error: 'INVALID_REQUEST', message: `Unsupported resource type ${type}` };
}

/**
 * ConfigAdminManager#preprocess, on the broker before the controller and
 * before any authorization: duplicate keys, null values, a resource type that
 * Kafka does not know. Done here for GROUP resources only (the other types
 * keep kafkaesque's older checks). `legacy`: AlterConfigs, where no value may be null.
 */
export function preprocessGroupResource(cluster: Cluster, type: number, ops: readonly ConfigOp[], legacy: boolean): ResourceResult<void> | null {
  if (type !== RESOURCE_GROUP) return null;
  const names = ops.map((o) => o.name);
  if (new Set(names).size !== names.length) return { ok: false, error: 'INVALID_REQUEST', message: 'Error due to duplicate config keys' };
  const nulls = ops.filter((o) => o.value === null && (legacy || o.op !== 'delete')).map((o) => o.name);
  if (nulls.length) return { ok: false, error: 'INVALID_REQUEST', message: `Null value not supported for : ${nulls.join(', ')}` };
  // 3.9 knows no GROUP resource (ConfigAdminManager#preprocess, 3.9.1).
  if (!cluster.profile.groupConfigs) return { ok: false, error: 'INVALID_REQUEST', message: `Unknown resource type ${type}` };
  return null;
}

/**
 * ConfigurationControlManager#incrementalAlterConfigResource / #legacyAlterConfigResource
 * for a GROUP: the ops make the group's next config, which is validated whole
 * (ControllerConfigurationValidator); all or nothing. The group need not exist.
 */
function alterGroupConfigs(cluster: Cluster, dialect: GroupConfigDialect, name: string, ops: readonly ConfigOp[], opts: { replace: boolean; validateOnly: boolean }): ResourceResult<void> {
  const next = new Map(opts.replace ? [] : cluster.groupConfigs.entries(name));
  for (const { name: key, op, value } of ops) {
    // No group config is a LIST (4.4's only one, streams.rack.aware.assignment.tags, is not served).
    if (op === 'append' || op === 'subtract') return { ok: false, error: 'INVALID_CONFIG', message: `Can't ${op.toUpperCase()} to key ${key} because its type is not LIST.` };
    if (op === 'delete') next.delete(key);
    else next.set(key, value!);
  }
  if (name === '') return { ok: false, error: 'INVALID_REQUEST', message: 'Default group resources are not allowed.' };
  const why = validateGroupConfig(dialect, next, brokerGroupConfig(cluster));
  if (why) return { ok: false, error: 'INVALID_CONFIG', message: why };
  if (!opts.validateOnly) {
    for (const k of cluster.groupConfigs.entries(name).keys()) if (!next.has(k)) cluster.groupConfigs.delete(name, k);
    for (const [k, v] of next) cluster.groupConfigs.set(name, k, v);
  }
  return { ok: true, value: undefined };
}
