// Every API this broker serves. The registry built from this list is what
// ApiVersions advertises.
import type { ApiHandler } from './handler.js';
import produce from './00-produce.js';
import fetch from './01-fetch.js';
import listOffsets from './02-list-offsets.js';
import metadata from './03-metadata.js';
import offsetCommit from './08-offset-commit.js';
import offsetFetch from './09-offset-fetch.js';
import findCoordinator from './10-find-coordinator.js';
import joinGroup from './11-join-group.js';
import heartbeat from './12-heartbeat.js';
import leaveGroup from './13-leave-group.js';
import syncGroup from './14-sync-group.js';
import describeGroups from './15-describe-groups.js';
import listGroups from './16-list-groups.js';
import saslHandshake from './17-sasl-handshake.js';
import apiVersions from './18-api-versions.js';
import createTopics from './19-create-topics.js';
import deleteTopics from './20-delete-topics.js';
import deleteRecords from './21-delete-records.js';
import initProducerId from './22-init-producer-id.js';
import offsetForLeaderEpoch from './23-offset-for-leader-epoch.js';
import addPartitionsToTxn from './24-add-partitions-to-txn.js';
import addOffsetsToTxn from './25-add-offsets-to-txn.js';
import endTxn from './26-end-txn.js';
import txnOffsetCommit from './28-txn-offset-commit.js';
import describeAcls from './29-describe-acls.js';
import createAcls from './30-create-acls.js';
import deleteAcls from './31-delete-acls.js';
import describeConfigs from './32-describe-configs.js';
import alterConfigs from './33-alter-configs.js';
import describeLogDirs from './35-describe-log-dirs.js';
import saslAuthenticate from './36-sasl-authenticate.js';
import createPartitions from './37-create-partitions.js';
import deleteGroups from './42-delete-groups.js';
import electLeaders from './43-elect-leaders.js';
import incrementalAlterConfigs from './44-incremental-alter-configs.js';
import alterPartitionReassignments from './45-alter-partition-reassignments.js';
import listPartitionReassignments from './46-list-partition-reassignments.js';
import offsetDelete from './47-offset-delete.js';
import describeClientQuotas from './48-describe-client-quotas.js';
import alterClientQuotas from './49-alter-client-quotas.js';
import describeUserScramCredentials from './50-describe-user-scram-credentials.js';
import alterUserScramCredentials from './51-alter-user-scram-credentials.js';
import describeCluster from './60-describe-cluster.js';
import describeProducers from './61-describe-producers.js';
import describeTransactions from './65-describe-transactions.js';
import listTransactions from './66-list-transactions.js';
import consumerGroupHeartbeat from './68-consumer-group-heartbeat.js';
import consumerGroupDescribe from './69-consumer-group-describe.js';
import describeTopicPartitions from './75-describe-topic-partitions.js';
import shareGroupHeartbeat from './76-share-group-heartbeat.js';
import shareGroupDescribe from './77-share-group-describe.js';
import shareFetch from './78-share-fetch.js';
import shareAcknowledge from './79-share-acknowledge.js';
import describeShareGroupOffsets from './90-describe-share-group-offsets.js';
import alterShareGroupOffsets from './91-alter-share-group-offsets.js';
import deleteShareGroupOffsets from './92-delete-share-group-offsets.js';

export const brokerHandlers: readonly ApiHandler[] = [
  produce,
  fetch,
  listOffsets,
  metadata,
  offsetCommit,
  offsetFetch,
  findCoordinator,
  joinGroup,
  heartbeat,
  leaveGroup,
  syncGroup,
  describeGroups,
  listGroups,
  saslHandshake,
  apiVersions,
  createTopics,
  deleteTopics,
  deleteRecords,
  initProducerId,
  offsetForLeaderEpoch,
  addPartitionsToTxn,
  addOffsetsToTxn,
  endTxn,
  txnOffsetCommit,
  describeAcls,
  createAcls,
  deleteAcls,
  describeConfigs,
  alterConfigs,
  describeLogDirs,
  saslAuthenticate,
  createPartitions,
  deleteGroups,
  electLeaders,
  incrementalAlterConfigs,
  alterPartitionReassignments,
  listPartitionReassignments,
  offsetDelete,
  describeClientQuotas,
  alterClientQuotas,
  describeUserScramCredentials,
  alterUserScramCredentials,
  describeCluster,
  describeProducers,
  describeTransactions,
  listTransactions,
  consumerGroupHeartbeat,
  consumerGroupDescribe,
  describeTopicPartitions,
  shareGroupHeartbeat,
  shareGroupDescribe,
  shareFetch,
  shareAcknowledge,
  describeShareGroupOffsets,
  alterShareGroupOffsets,
  deleteShareGroupOffsets,
];
