// The one options object of a kafkaesque cluster, and its defaults. The
// library, the CLI and (later) the jest fixture all merge over these.
import type { Clock } from './broker/clock.js';
import type { Logger } from './logger.js';
import type { SaslOptions } from './server/sasl/authenticator.js';
import type { AuthorizerOptions } from './broker/acl/authorizer.js';
import type { TlsOptions } from './server/tls.js';
import { checkCombination, checkOptions } from './options-schema.js';
import { DEFAULT_KAFKA_VERSION } from './broker/kafka-version/profiles.js';
import type { PresetRef } from './presets/params.js';

export interface TopicSpec {
  name: string;
  partitions?: number;
  replicationFactor?: number;
  configs?: Record<string, string>;
}

export interface KafkaesqueOptions {
  /** Number of broker nodes. */
  brokers: number;
  /** Node ids, one per broker; default 0..brokers-1. */
  nodeIds?: number[];
  /** Port of the first node; the others take the next ones. 0 = free ports. */
  port: number;
  /** A port per node, overriding `port` (0 = free). */
  ports?: number[];
  /** Address the listeners bind to. */
  host: string;
  /** Host that Metadata advertises (e.g. localhost); default: `host`. */
  advertisedHost?: string;
  clusterId: string;
  /**
   * The Kafka version the brokers behave as: '2.8' (ZooKeeper era), '3.9'
   * (KRaft, the default), '4.0' (KIP-896's removed versions) or '4.4'; a patch
   * release ('3.9.1') names its minor's profile. It sets the ApiVersions
   * ranges and each behaviour that differs (docs/protocol.md#kafka-versions).
   */
  kafkaVersion: string;
  /** auto.create.topics.enable */
  autoCreateTopics: boolean;
  /** num.partitions for auto-created topics and CreateTopics with -1. */
  defaultPartitions: number;
  /** default.replication.factor; default min(3, brokers). */
  defaultReplicationFactor?: number;
  /** Broker-level min.insync.replicas. */
  minInsyncReplicas: number;
  /** How long followers lag behind leaders, in ms. */
  replicationLagMs: number;
  /** group.initial.rebalance.delay.ms: how long a new (Empty) group waits for more members before its first rebalance. Kafka's default is 3000. */
  groupInitialRebalanceDelayMs: number;
  /** producer.id.expiration.ms: idle producer ids are forgotten after this long (measured from their last batch's timestamp). */
  producerIdExpirationMs: number;
  /** producer.id.expiration.check.interval.ms: how often idle producer ids are looked for; they are forgotten only then, as in Kafka. */
  producerIdExpirationCheckIntervalMs: number;
  /** transaction.max.timeout.ms: the longest transaction timeout InitProducerId accepts. */
  transactionMaxTimeoutMs: number;
  /** Largest request frame accepted; a larger one closes the connection. */
  maxRequestSize: number;
  /** Require SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with these users on every connection. */
  sasl?: SaslOptions;
  /**
   * An authorizer as Kafka's StandardAuthorizer (authorizer.class.name):
   * super users, allow.everyone.if.no.acl.found, and ACLs at start; the ACL
   * APIs then manage them (docs/security.md). Absent: no authorizer,
   * everything allowed, the ACL APIs answer SECURITY_DISABLED.
   */
  authorizer?: AuthorizerOptions;
  /** Serve TLS on the client-facing listeners (the proxy's, or the brokers' with proxy: false): true = a certificate generated at start (RunningCluster.tls.ca to trust), or a given PEM key and certificate. docs/security.md */
  tls?: true | TlsOptions;
  /** max.connections: connections served at once per client-facing listener; more wait for a slot, as on a Kafka broker. Default: no limit. */
  maxConnections?: number;
  /** max.connections.per.ip: connections served at once from one address per listener; more are closed at once. Default: no limit. */
  maxConnectionsPerIp?: number;
  /** connections.max.idle.ms: connections with no traffic for this long are closed (0 = never). */
  connectionsMaxIdleMs: number;
  /** Slow-client bound: a request frame once begun, a TLS handshake, and a SASL exchange must finish within this long (0 = no bound). */
  requestTimeoutMs: number;
  /** fetch.max.bytes: the broker's cap on a Fetch answer's max_bytes (whole batches; the first is always served). */
  fetchMaxBytes: number;
  /** Most records in one Fetch answer, by whole batches (the first is always served); default: no cap. Not a Kafka config. */
  maxRecordsPerFetch?: number;
  /** Port of the HTTP control API; 0 = a free one (RunningCluster.controlUrl says which). */
  controlPort: number;
  /** Address the control API binds to; it refuses non-loopback clients unless controlAllowRemote. */
  controlHost: string;
  /** When set, the control API requires `Authorization: Bearer <token>`. */
  controlToken?: string;
  /** Let the control API serve non-loopback addresses (bind controlHost elsewhere too); cross-origin browser requests are refused either way. */
  controlAllowRemote: boolean;
  /** Host names the control API answers for besides loopback addresses and localhost (its DNS-rebinding defence; `.example.com` allows a domain and its subdomains). docs/security.md. */
  controlAllowedHosts?: string[];
  /** Topics created at start. */
  topics: TopicSpec[];
  /**
   * Presets applied at start, in order: built-in names ('lost-ack') or paths
   * of preset files, with parameter values as 'lost-ack?topic=orders' or
   * { name: 'lost-ack', params: { topic: 'orders' } } (docs/presets.md). Needs the proxy.
   */
  presets: (string | PresetRef)[];
  /**
   * Start as a newly formed cluster: __consumer_offsets and __transaction_state
   * do not exist until the first FindCoordinator of each kind creates them,
   * answering COORDINATOR_NOT_AVAILABLE meanwhile (clients back off ~300 ms).
   * Default false: the cluster starts warm, as one that has run a while.
   */
  coldStart: boolean;
  /** Time source for every timeout; ManualClock in tests. */
  clock?: Clock;
  logger?: Logger;
  /** pino level when no logger is given; the library is silent by default. */
  logLevel: string;
  prettyLogs: boolean;
  /** Serve the cluster through the chaos proxy: its listeners take the ports above, the brokers free loopback ports. */
  proxy: boolean;
  /**
   * With the proxy: a fault-free side door, a second listener per node on a
   * free port, with no rules, whose answers advertise the side door itself
   * (RunningCluster.directBootstrap), for a test's own setup and assertions.
   */
  direct: boolean;
  /** Append every fault event, node stop and start and leader change to this file as a JSON line, as it happens (for a CI run's post-mortem). */
  eventsFile?: string;
  /** Write the run's HTML report here at stop: the timeline and the audits' anomalies in one self-contained file (docs/web-view.md). */
  report?: string;
  /** Seed of the run's random generator (0 to 2^32-1); default: a random one, logged and printed at start. */
  seed?: number;
  /**
   * Upstream mode: "host:port[,host:port…]" of a Kafka cluster to put the
   * chaos proxy in front of, instead of the in-memory cluster. Read by
   * startProxy (docs/upstream.md); startCluster refuses it.
   */
  upstream?: string;
}

export const defaultOptions: Readonly<KafkaesqueOptions> = Object.freeze({
  brokers: 3,
  port: 0,
  host: '127.0.0.1',
  clusterId: 'kafkaesque-cluster',
  kafkaVersion: DEFAULT_KAFKA_VERSION,
  autoCreateTopics: true,
  defaultPartitions: 1,
  minInsyncReplicas: 1,
  replicationLagMs: 0,
  groupInitialRebalanceDelayMs: 0,
  producerIdExpirationMs: 86_400_000,
  producerIdExpirationCheckIntervalMs: 600_000,
  transactionMaxTimeoutMs: 900_000,
  maxRequestSize: 100 * 1024 * 1024,
  connectionsMaxIdleMs: 600_000,
  requestTimeoutMs: 30_000,
  fetchMaxBytes: 57_671_680,
  controlPort: 0,
  controlHost: '127.0.0.1',
  controlAllowRemote: false,
  topics: [],
  presets: [],
  coldStart: false,
  // Silent unless asked: KAFKAESQUE_LOG_LEVEL=debug npm test shows what the brokers do.
  logLevel: process.env.KAFKAESQUE_LOG_LEVEL ?? 'silent',
  // KAFKAESQUE_PRETTY=1: the logs asked for above as one line per event, for people.
  prettyLogs: process.env.KAFKAESQUE_PRETTY === '1',
  proxy: true,
  direct: true,
});

/** A listener that could not bind: `option` names the option of its address (port, ports, controlPort), so a caller can name its own flag. */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    readonly option: 'port' | 'ports' | 'controlPort',
    cause: Error,
  ) {
    super(`${option}: ${cause.message}`, { cause });
  }
}

/**
 * The options of a run: `input` checked against the one schema
 * (src/options-schema.ts) and merged over the defaults. `source` names the
 * caller in an error ("startCluster: brokerz: unknown option; did you mean brokers?").
 */
export function resolveOptions(input: Partial<KafkaesqueOptions> = {}, source = 'startCluster'): KafkaesqueOptions {
  const given = checkOptions(input, source);
  const merged: KafkaesqueOptions = { ...defaultOptions, ...given, topics: given.topics ?? [], presets: given.presets ?? [] };
  checkCombination(merged, source);
  return merged;
}
