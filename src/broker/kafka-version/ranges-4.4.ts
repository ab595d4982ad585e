// What a Kafka 4.4.0 broker serves, per API key: [api key, min, max], as its
// ApiVersionManager computes it with default configs (broker listener, stable
// versions only, no telemetry reporter). Derived by
// `node scripts/kafka-version-ranges.mjs protocol/kafka-4.4/schemas broker` from Kafka's own
// message schemas: common/message/*Request.json in org.apache.kafka:kafka-clients:4.4.0 from Maven Central (jar SHA-256 1ab07317eb6633241392449d329dbdc5d9251e6ffc4926860f42dd966e88bdf9, as protocol/kafka-4.4)
// (Apache-2.0, © The Apache Software Foundation). A real 4.4.0 broker answers the same
// (test/fixtures/kafka-api-versions/4.4.0.json) but for Produce, advertised from v0 (KAFKA-18659).
// Data, not code: regenerate, do not edit.
export default [
  [0, 3, 13], // Produce
  [1, 4, 18], // Fetch
  [2, 1, 11], // ListOffsets
  [3, 0, 13], // Metadata
  [8, 2, 10], // OffsetCommit
  [9, 1, 10], // OffsetFetch
  [10, 0, 6], // FindCoordinator
  [11, 0, 9], // JoinGroup
  [12, 0, 4], // Heartbeat
  [13, 0, 5], // LeaveGroup
  [14, 0, 5], // SyncGroup
  [15, 0, 6], // DescribeGroups
  [16, 0, 5], // ListGroups
  [17, 0, 1], // SaslHandshake
  [18, 0, 5], // ApiVersions
  [19, 2, 7], // CreateTopics
  [20, 1, 6], // DeleteTopics
  [21, 0, 2], // DeleteRecords
  [22, 0, 5], // InitProducerId
  [23, 2, 4], // OffsetForLeaderEpoch
  [24, 0, 5], // AddPartitionsToTxn
  [25, 0, 4], // AddOffsetsToTxn
  [26, 0, 5], // EndTxn
  [27, 1, 2], // WriteTxnMarkers
  [28, 0, 6], // TxnOffsetCommit
  [29, 1, 3], // DescribeAcls
  [30, 1, 3], // CreateAcls
  [31, 1, 3], // DeleteAcls
  [32, 1, 4], // DescribeConfigs
  [33, 0, 2], // AlterConfigs
  [34, 1, 2], // AlterReplicaLogDirs
  [35, 1, 5], // DescribeLogDirs
  [36, 0, 2], // SaslAuthenticate
  [37, 0, 3], // CreatePartitions
  [38, 1, 3], // CreateDelegationToken
  [39, 1, 2], // RenewDelegationToken
  [40, 1, 2], // ExpireDelegationToken
  [41, 1, 3], // DescribeDelegationToken
  [42, 0, 3], // DeleteGroups
  [43, 0, 2], // ElectLeaders
  [44, 0, 1], // IncrementalAlterConfigs
  [45, 0, 1], // AlterPartitionReassignments
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
  [66, 0, 2], // ListTransactions
  [68, 0, 1], // ConsumerGroupHeartbeat
  [69, 0, 1], // ConsumerGroupDescribe
  [74, 0, 1], // ListConfigResources
  [75, 0, 0], // DescribeTopicPartitions
  [76, 1, 1], // ShareGroupHeartbeat
  [77, 1, 1], // ShareGroupDescribe
  [78, 1, 2], // ShareFetch
  [79, 1, 2], // ShareAcknowledge
  [80, 0, 1], // AddRaftVoter
  [81, 0, 0], // RemoveRaftVoter
  [83, 0, 0], // InitializeShareGroupState
  [84, 0, 0], // ReadShareGroupState
  [85, 0, 1], // WriteShareGroupState
  [86, 0, 0], // DeleteShareGroupState
  [87, 0, 1], // ReadShareGroupStateSummary
  [88, 0, 1], // StreamsGroupHeartbeat
  [89, 0, 1], // StreamsGroupDescribe
  [90, 0, 1], // DescribeShareGroupOffsets
  [91, 0, 0], // AlterShareGroupOffsets
  [92, 0, 0], // DeleteShareGroupOffsets
  [93, 0, 0], // StreamsGroupTopologyDescriptionUpdate
  [94, 0, 0], // UnregisterController
] as const satisfies readonly (readonly [number, number, number])[];
