// The feature flags ApiVersions v3+ answers (KIP-584): SupportedFeatures,
// FinalizedFeaturesEpoch and FinalizedFeatures, per Kafka version profile.
// Each table is what a default single-node KRaft cluster of that release
// answers (read from real brokers: test/fixtures/kafka-api-versions/), less
// what would promise behaviour kafkaesque does not have; docs/protocol.md
// ("Finalized features") lists each difference with its source in Kafka.

export interface FeatureRange {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

export interface BrokerFeatures {
  /** The levels this broker could run each feature at (BrokerFeatures#supportedFeatures). */
  readonly supported: readonly FeatureRange[];
  /** The cluster's level of each feature above 0; a feature at level 0 is not listed, as Kafka lists none. */
  readonly finalized: readonly (readonly [name: string, level: number])[];
}

/**
 * A real broker's epoch is the offset of its metadata image, which grows
 * while it runs (NoOpRecords every metadata.max.idle.interval.ms). kafkaesque
 * has no metadata log: its cluster's features never change, so one epoch
 * holds for its whole life. Any epoch ≥ 0 makes a client read the list
 * (the Java client's ApiVersions#update keeps the highest epoch's).
 */
export const FINALIZED_FEATURES_EPOCH = 0;

/** 2.8.2 (ZooKeeper): not read from a real broker; kafkaesque answers no features, as before profiles. */
export const NO_FEATURES: BrokerFeatures = { supported: [], finalized: [] };

// kraft.version 1 is KIP-853's dynamic controller quorum (AddRaftVoter,
// RemoveRaftVoter, UpdateRaftVoter), which kafkaesque does not serve: it
// supports level 0 only, where every real 3.9+ broker supports 0-1.
const KRAFT_VERSION_0: FeatureRange = { name: 'kraft.version', min: 0, max: 0 };

/** 3.9.0: MetadataVersion.MINIMUM_KRAFT_VERSION (3.0-IV1, 1) to IBP_3_9_IV0 (21), finalized at 21. */
export const FEATURES_3_9: BrokerFeatures = {
  supported: [KRAFT_VERSION_0, { name: 'metadata.version', min: 1, max: 21 }],
  finalized: [['metadata.version', 21]],
};

// Kafka 4.x's features, each capped where its next level promises what
// kafkaesque lacks (TransactionVersion, GroupVersion, ShareVersion,
// StreamsVersion, EligibleLeaderReplicasVersion in server-common):
// - transaction.version 2 (TV_2) makes a Java 4.x producer use transactions
//   v2 (KIP-890 part 2: TransactionManager#isTransactionV2Enabled is level
//   >= 2), served (Produce v12, TxnOffsetCommit v5, EndTxn v5) and finalized
//   at 2, as a default 4.x cluster is;
// - group.version 1 (GV_1) is KIP-848's consumer group protocol, served
//   (groups/consumer-group-coordinator.ts) and finalized at 1, as a default
//   4.x cluster is (GroupVersion.LATEST_PRODUCTION);
// - share.version 1 is share groups (KIP-932), 2 adds their dead-letter
//   topics (KIP-1191): served (groups/share-group-coordinator.ts, share/) and
//   finalized at 2 on 4.4, as a default 4.4 cluster is (ShareVersion.LATEST_PRODUCTION);
// - streams.version 1 is the Streams rebalance protocol (KIP-1071);
// - eligible.leader.replicas.version 1 is KIP-966's ELR (leader election
//   and DescribeTopicPartitions' eligible leaders), which kafkaesque does not model.
const TRANSACTION_VERSION_2: FeatureRange = { name: 'transaction.version', min: 0, max: 2 };
const GROUP_VERSION_1: FeatureRange = { name: 'group.version', min: 0, max: 1 };
const SHARE_VERSION_2: FeatureRange = { name: 'share.version', min: 0, max: 2 };
const ELR_VERSION_0: FeatureRange = { name: 'eligible.leader.replicas.version', min: 0, max: 0 };

/** 4.0.0: metadata.version 3.3-IV3 (7) to 4.0-IV3 (25), finalized at 25. */
export const FEATURES_4_0: BrokerFeatures = {
  supported: [GROUP_VERSION_1, KRAFT_VERSION_0, { name: 'metadata.version', min: 7, max: 25 }, TRANSACTION_VERSION_2, ELR_VERSION_0],
  finalized: [
    ['group.version', 1],
    ['transaction.version', 2],
    ['metadata.version', 25],
  ],
};

/** 4.4.0: metadata.version 3.3-IV3 (7) to 4.4-IV2 (33), finalized at 33. */
export const FEATURES_4_4: BrokerFeatures = {
  supported: [
    GROUP_VERSION_1,
    KRAFT_VERSION_0,
    { name: 'metadata.version', min: 7, max: 33 },
    SHARE_VERSION_2,
    { name: 'streams.version', min: 0, max: 0 },
    TRANSACTION_VERSION_2,
    ELR_VERSION_0,
  ],
  finalized: [
    ['group.version', 1],
    ['transaction.version', 2],
    ['share.version', 2],
    ['metadata.version', 33],
  ],
};

/**
 * ApiVersions' feature fields at one version. v0-2 have none; v3 omits a
 * supported feature whose minimum is 0 (ApiVersionsResponse's schema: "in
 * v0-v3, features with MinSupportedVersion = 0 are omitted", KIP-1022).
 */
export function apiVersionsFeatures(features: BrokerFeatures, apiVersion: number) {
  if (apiVersion < 3) return {};
  return {
    supportedFeatures: features.supported.filter((f) => apiVersion >= 4 || f.min > 0).map((f) => ({ name: f.name, minVersion: f.min, maxVersion: f.max })),
    finalizedFeaturesEpoch: features.finalized.length > 0 ? FINALIZED_FEATURES_EPOCH : -1,
    finalizedFeatures: features.finalized.map(([name, level]) => ({ name, minVersionLevel: level, maxVersionLevel: level })),
  };
}
