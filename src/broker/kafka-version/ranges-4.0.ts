// What a Kafka 4.0.2 broker serves, per API key: [api key, min, max], as its
// ApiVersionManager computes it with default configs (broker listener, stable
// versions only, no telemetry reporter). Derived by
// `node scripts/kafka-version-ranges.mjs <dir> broker` from Kafka's own
// message schemas: common/message/*Request.json in org.apache.kafka:kafka-clients:4.0.2 from Maven Central (jar SHA-256 902bf4749ad601b7f272a0f3385a781f44750121a54abe52b7495be4de8f977f; 4.0.0's differed only in JoinGroup, 2-9: 4.0.1 gave v0-1 back)
// (Apache-2.0, © The Apache Software Foundation). Data, not code: regenerate, do not edit.
export default [
  [0, 3, 12], // Produce
  [1, 4, 17], // Fetch
  [2, 1, 10], // ListOffsets
  [3, 0, 13], // Metadata
  [8, 2, 9], // OffsetCommit
  [9, 1, 9], // OffsetFetch
  [10, 0, 6], // FindCoordinator
  [11, 0, 9], // JoinGroup
  [12, 0, 4], // Heartbeat
  [13, 0, 5], // LeaveGroup
  [14, 0, 5], // SyncGroup
  [15, 0, 6], // DescribeGroups
  [16, 0, 5], // ListGroups
  [17, 0, 1], // SaslHandshake
  [18, 0, 4], // ApiVersions
  [19, 2, 7], // CreateTopics
  [20, 1, 6], // DeleteTopics
  [21, 0, 2], // DeleteRecords
  [22, 0, 5], // InitProducerId
  [23, 2, 4], // OffsetForLeaderEpoch
  [24, 0, 5], // AddPartitionsToTxn
  [25, 0, 4], // AddOffsetsToTxn
  [26, 0, 5], // EndTxn
  [27, 1, 1], // WriteTxnMarkers
  [28, 0, 5], // TxnOffsetCommit
  [29, 1, 3], // DescribeAcls
  [30, 1, 3], // CreateAcls
  [31, 1, 3], // DeleteAcls
  [32, 1, 4], // DescribeConfigs
  [33, 0, 2], // AlterConfigs
  [34, 1, 2], // AlterReplicaLogDirs
  [35, 1, 4], // DescribeLogDirs
  [36, 0, 2], // SaslAuthenticate
  [37, 0, 3], // CreatePartitions
  [38, 1, 3], // CreateDelegationToken
  [39, 1, 2], // RenewDelegationToken
  [40, 1, 2], // ExpireDelegationToken
  [41, 1, 3], // DescribeDelegationToken
  [42, 0, 2], // DeleteGroups
  [43, 0, 2], // ElectLeaders
  [44, 0, 1], // IncrementalAlterConfigs
  [45, 0, 0], // AlterPartitionReassignments
  [46, 0, 0], // ListPartitionReassignments
  [47, 0, 0], // OffsetDelete
  [48, 0, 1], // DescribeClientQuotas
  [49, 0, 1], // AlterClientQuotas
  [50, 0, 0], // DescribeUserScramCredentials
  [51, 0, 0], // AlterUserScramCredentials
  [55, 0, 2], // DescribeQuorum
  [57, 0, 2], // UpdateFeatures
  [60, 0, 2], // DescribeCluster
  [61, 0, 0], // DescribeProducers
  [64, 0, 0], // UnregisterBroker
  [65, 0, 0], // DescribeTransactions
  [66, 0, 1], // ListTransactions
  [68, 0, 1], // ConsumerGroupHeartbeat
  [69, 0, 1], // ConsumerGroupDescribe
  [74, 0, 0], // ListClientMetricsResources
  [75, 0, 0], // DescribeTopicPartitions
  [80, 0, 0], // AddRaftVoter
  [81, 0, 0], // RemoveRaftVoter
] as const satisfies readonly (readonly [number, number, number])[];
