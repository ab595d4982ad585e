// Kafka versions as profiles (option `kafkaVersion`, CLI --kafka-version):
// which API versions a broker of that Kafka advertises and serves, and each
// broker behaviour that differs between them, each from that version's source.
// docs/protocol.md#kafka-versions lists the differences with their sources.
//
// To add an API: serve it (a handler in src/broker/handlers/); each profile
// advertises it where that Kafka's ranges table below lists it, capped to
// the handler's range. To add a version: a ranges file from
// scripts/kafka-version-ranges.mjs, its features (features.ts, read from a
// real broker) and an entry in PROFILES.
import ranges28 from './ranges-2.8.js';
import ranges39 from './ranges-3.9.js';
import ranges40 from './ranges-4.0.js';
import ranges44 from './ranges-4.4.js';
import { FEATURES_3_9, FEATURES_4_0, FEATURES_4_4, NO_FEATURES, type BrokerFeatures } from './features.js';
import type { ErrorName } from '../../protocol/errors.js';
import type { GroupConfigDialect } from '../groups/group-configs.js';

export type VersionRange = { readonly min: number; readonly max: number };

export interface KafkaVersionProfile {
  /** The profile's name: major.minor, as `kafkaVersion` takes it. */
  readonly name: string;
  /** The release the profile was read from. */
  readonly release: string;
  /** Where that broker keeps its metadata. */
  readonly metadataMode: 'zookeeper' | 'kraft';
  /** What that Kafka's broker serves, by api key; an API absent here is neither advertised nor served. */
  readonly ranges: ReadonlyMap<number, VersionRange>;
  /** Lowest version ApiVersions advertises where it is below the served one. */
  readonly advertisedMin: ReadonlyMap<number, number>;
  /** Highest version served where that release's next versions have semantics kafkaesque lacks, by api key. */
  readonly versionCaps: ReadonlyMap<number, number>;
  /** ApiVersions v3+'s supported and finalized features (KIP-584). */
  readonly features: BrokerFeatures;
  /** Metadata's answer for a topic that request auto-creates. */
  readonly autoCreatedTopicError: ErrorName;
  /** KIP-890 part 1: transactional Produce and TxnOffsetCommit verified with the transaction coordinator. */
  readonly transactionVerification: boolean;
  /** TxnOffsetCommit's member checks: 2.x's doTxnCommitOffsets or 3.x's validateOffsetCommit. */
  readonly txnOffsetCommitMemberCheck: 'zookeeper' | 'kraft';
  /** Topic configs this Kafka does not have (LogConfig), beyond the 3.9 set in configs.ts. */
  readonly topicConfigsRemoved: readonly string[];
  /** Topic configs this Kafka has that the 3.9 set does not, or whose default differs, with their defaults. */
  readonly topicConfigsAdded: readonly (readonly [name: string, defaultValue: string])[];
  /** Broker configs DescribeConfigs does not report on this Kafka. */
  readonly brokerConfigsRemoved: readonly string[];
  /** Which GroupConfig serves GROUP config resources (KIP-848, 4.0); null: that Kafka refuses them. */
  readonly groupConfigs: GroupConfigDialect | null;
}

const table = (rows: readonly (readonly [number, number, number])[]): ReadonlyMap<number, VersionRange> =>
  new Map(rows.map(([key, min, max]) => [key, { min, max }]));

const ZOOKEEPER_2_8: KafkaVersionProfile = {
  name: '2.8',
  release: '2.8.2',
  metadataMode: 'zookeeper',
  ranges: table(ranges28),
  advertisedMin: new Map(),
  versionCaps: new Map(),
  features: NO_FEATURES,
  // AutoTopicCreationManager#createTopicsInZk (2.8.2): the creation is
  // started with timeout 0, and its REQUEST_TIMED_OUT becomes LEADER_NOT_AVAILABLE.
  autoCreatedTopicError: 'LEADER_NOT_AVAILABLE',
  // 2.8.2 has no verification: GroupCoordinator#handleTxnCommitOffsets stores
  // at once, and UnifiedLog's append has no VerificationGuard (KIP-890, 3.6/3.8).
  transactionVerification: false,
  txnOffsetCommitMemberCheck: 'zookeeper',
  // LogConfig (2.8.2): no message.timestamp.before/after.max.ms (KIP-937, 3.6);
  // message.format.version defaults to the inter-broker protocol, 2.8-IV1.
  // Nor the compression levels (KIP-390, 3.8) nor tiered storage's configs (KIP-405, 3.x).
  topicConfigsRemoved: [
    'message.timestamp.after.max.ms',
    'message.timestamp.before.max.ms',
    'compression.gzip.level',
    'compression.lz4.level',
    'compression.zstd.level',
    'local.retention.bytes',
    'local.retention.ms',
    'remote.log.copy.disable',
    'remote.log.delete.on.disable',
    'remote.storage.enable',
  ],
  topicConfigsAdded: [['message.format.version', '2.8-IV1']],
  // KafkaConfig (2.8.2) defines process.roles and node.id with defineInternal;
  // ConfigHelper#describeConfigs reports originals ++ nonInternalValues.
  brokerConfigsRemoved: ['process.roles', 'node.id'],
  groupConfigs: null,
};

// KIP-848 in 3.9 is a preview a default broker does not serve: ApiVersions
// leaves ConsumerGroupHeartbeat and ConsumerGroupDescribe out unless
// group.coordinator.rebalance.protocols names "consumer"
// (ApiVersionManager, GroupCoordinatorConfig, 3.9). A cap below 0 serves no version.
const KIP_848_OFF: ReadonlyMap<number, number> = new Map([
  [68, -1], // ConsumerGroupHeartbeat
  [69, -1], // ConsumerGroupDescribe
]);

const KRAFT_3_9: KafkaVersionProfile = {
  name: '3.9',
  release: '3.9.0',
  metadataMode: 'kraft',
  ranges: table(ranges39),
  advertisedMin: new Map(),
  versionCaps: KIP_848_OFF,
  features: FEATURES_3_9,
  // AutoTopicCreationManager#sendCreateTopicRequest (3.9): forwarded to the controller.
  autoCreatedTopicError: 'UNKNOWN_TOPIC_OR_PARTITION',
  transactionVerification: true,
  txnOffsetCommitMemberCheck: 'kraft',
  topicConfigsRemoved: [],
  // LogConfig (3.9): DEFAULT_MESSAGE_FORMAT_VERSION is IBP_3_0_IV1.
  topicConfigsAdded: [['message.format.version', '3.0-IV1']],
  brokerConfigsRemoved: [],
  groupConfigs: null,
};

const KRAFT_4_0: KafkaVersionProfile = {
  ...KRAFT_3_9,
  name: '4.0',
  // 4.0.2, the release test/conformance compares with; 4.0.0 differed in JoinGroup's minimum (2).
  release: '4.0.2',
  ranges: table(ranges40),
  // ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION (KAFKA-18659): Produce
  // v0-2 are advertised for librdkafka's sake, and refused like any removed version.
  advertisedMin: new Map([[0, 0]]),
  versionCaps: new Map(),
  features: FEATURES_4_0,
  // LogConfig (4.0.0) no longer defines message.format.version,
  // message.downconversion.enable nor message.timestamp.difference.max.ms (KIP-724, KIP-937).
  topicConfigsRemoved: ['message.downconversion.enable', 'message.timestamp.difference.max.ms'],
  // LogConfig (4.0): message.timestamp.after.max.ms defaults to one hour
  // (KIP-1030), as a real 4.0.2 broker answers DescribeConfigs (test/conformance).
  topicConfigsAdded: [['message.timestamp.after.max.ms', '3600000']],
  groupConfigs: '4.0',
};

const KRAFT_4_4: KafkaVersionProfile = {
  ...KRAFT_4_0,
  name: '4.4',
  release: '4.4.0',
  ranges: table(ranges44),
  // A real 4.4.0 broker still advertises Produce 0-13 (test/fixtures/kafka-api-versions/4.4.0.json).
  advertisedMin: new Map([[0, 0]]),
  features: FEATURES_4_4,
  // LogConfig (4.4): a topic takes a share group's dead letters only when it
  // says so (KIP-1191); a per-record bound on decompressed size; tiered
  // storage's upload lag (RemoteLogManagerConfig's defaults: 0 ms, -1 bytes).
  topicConfigsAdded: [
    ...KRAFT_4_0.topicConfigsAdded,
    ['errors.deadletterqueue.group.enable', 'false'],
    ['max.decompressed.message.bytes', '2147483639'],
    ['remote.copy.lag.bytes', '-1'],
    ['remote.copy.lag.ms', '0'],
  ],
  groupConfigs: '4.4',
};

export const PROFILES: ReadonlyMap<string, KafkaVersionProfile> = new Map([ZOOKEEPER_2_8, KRAFT_3_9, KRAFT_4_0, KRAFT_4_4].map((p) => [p.name, p]));

export const DEFAULT_KAFKA_VERSION = '3.9';
export const KAFKA_VERSIONS = [...PROFILES.keys()];

/** '3.9' and '3.9.1' name the 3.9 profile; anything else is undefined. */
export function kafkaVersionProfile(version: string): KafkaVersionProfile | undefined {
  const m = /^(\d+\.\d+)(?:\.\d+)?$/.exec(version.trim());
  return m ? PROFILES.get(m[1]!) : undefined;
}

export const defaultProfile = PROFILES.get(DEFAULT_KAFKA_VERSION)!;
