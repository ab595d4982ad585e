// kafkaesque's public API.
export { startCluster, type RunningCluster } from './start.js';
export { defaultOptions, type KafkaesqueOptions, type TopicSpec } from './options.js';
export { Cluster, type BrokerNode, type Topic, type LeaderChange } from './broker/cluster.js';
export { Partition } from './broker/partition.js';
export { ManualClock, systemClock, type Clock } from './broker/clock.js';
export { ErrorCode, errorByCode, errorByName } from './protocol/errors.js';
export { decodeRecords, buildRecordBatch, type KafkaRecord } from './protocol/record-batch.js';
export const version = '0.1.0';
