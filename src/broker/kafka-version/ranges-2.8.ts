// What a Kafka 2.8.2 broker serves, per API key: [api key, min, max], as its
// ApiVersionManager computes it with default configs (zkBroker listener, stable
// versions only, no telemetry reporter). Derived by
// `node scripts/kafka-version-ranges.mjs <dir> zkBroker` from Kafka's own
// message schemas: apache/kafka tag 2.8.2 (commit 3146c6ff4a24cc24d6039037e99edc8930d1958a), clients/src/main/resources/common/message/*Request.json
// (Apache-2.0, © The Apache Software Foundation). Data, not code: regenerate, do not edit.
export default [
  [0, 0, 9], // Produce
  [1, 0, 12], // Fetch
  [2, 0, 6], // ListOffsets
  [3, 0, 11], // Metadata
  [4, 0, 5], // LeaderAndIsr
  [5, 0, 3], // StopReplica
  [6, 0, 7], // UpdateMetadata
  [7, 0, 3], // ControlledShutdown
  [8, 0, 8], // OffsetCommit
  [9, 0, 7], // OffsetFetch
  [10, 0, 3], // FindCoordinator
  [11, 0, 7], // JoinGroup
  [12, 0, 4], // Heartbeat
  [13, 0, 4], // LeaveGroup
  [14, 0, 5], // SyncGroup
  [15, 0, 5], // DescribeGroups
  [16, 0, 4], // ListGroups
  [17, 0, 1], // SaslHandshake
  [18, 0, 3], // ApiVersions
  [19, 0, 7], // CreateTopics
  [20, 0, 6], // DeleteTopics
  [21, 0, 2], // DeleteRecords
  [22, 0, 4], // InitProducerId
  [23, 0, 4], // OffsetForLeaderEpoch
  [24, 0, 3], // AddPartitionsToTxn
  [25, 0, 3], // AddOffsetsToTxn
  [26, 0, 3], // EndTxn
  [27, 0, 1], // WriteTxnMarkers
  [28, 0, 3], // TxnOffsetCommit
  [29, 0, 2], // DescribeAcls
  [30, 0, 2], // CreateAcls
  [31, 0, 2], // DeleteAcls
  [32, 0, 4], // DescribeConfigs
  [33, 0, 2], // AlterConfigs
  [34, 0, 2], // AlterReplicaLogDirs
  [35, 0, 2], // DescribeLogDirs
  [36, 0, 2], // SaslAuthenticate
  [37, 0, 3], // CreatePartitions
  [38, 0, 2], // CreateDelegationToken
  [39, 0, 2], // RenewDelegationToken
  [40, 0, 2], // ExpireDelegationToken
  [41, 0, 2], // DescribeDelegationToken
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
  [56, 0, 0], // AlterIsr
  [57, 0, 0], // UpdateFeatures
  [60, 0, 0], // DescribeCluster
  [61, 0, 0], // DescribeProducers
] as const satisfies readonly (readonly [number, number, number])[];
