// Describe and alter configs of TOPIC (2) and BROKER (4) resources, shared
// by DescribeConfigs, AlterConfigs and IncrementalAlterConfigs. Topic
// configs are validated against topicConfigDefs; the broker configs that
// shape the cluster's defaults can be changed at run time.
import type { LagReader } from './metadata-lag.js';
import type { ErrorName } from '../protocol/errors.js';
import type { Cluster } from './cluster.js';
import { validateTopicConfig } from './configs.js';

export const RESOURCE_TOPIC = 2;
export const RESOURCE_BROKER = 4;

/** DescribeConfigsResponse.ConfigSource */
export const ConfigSource = { TOPIC_CONFIG: 1, DYNAMIC_BROKER_CONFIG: 2, DYNAMIC_DEFAULT_BROKER_CONFIG: 3, STATIC_BROKER_CONFIG: 4, DEFAULT_CONFIG: 5 } as const;

export interface ConfigEntry {
  name: string;
  value: string | null;
  readOnly: boolean;
  isDefault: boolean;
  source: number;
  type: number;
  sensitive: boolean;
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

/** `reader`: the request whose node's metadata answers (metadata-lag: ConfigHelper's metadataCache.contains on a lagging node). */
export function describeConfigs(cluster: Cluster, type: number, name: string, keys: readonly string[] | null, reader?: LagReader): ResourceResult<ConfigEntry[]> {
  const wanted = (k: string) => !keys || keys.length === 0 || keys.includes(k);
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
