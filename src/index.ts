// kafkaesque's public API.
export { startCluster, startProxy, startControlServer, type RunningCluster, type RunningProxy, type ProxyOptions, type ControlServer, type ControlServerOptions } from './start-on-demand.js';
export { ListenError, defaultOptions, type KafkaesqueOptions, type TopicSpec } from './options.js';
export { OptionsError, optionSchemas } from './options-schema.js';
export { Cluster, type BrokerNode, type Topic, type LeaderChange } from './broker/cluster.js';
export { Partition } from './broker/partition.js';
export { ManualClock, systemClock, type Clock } from './broker/clock.js';
export { ErrorCode, errorByCode, errorByName } from './protocol/errors.js';
export { decodeRecords, buildRecordBatch, type KafkaRecord } from './protocol/record-batch.js';
export {
  RuleValidationError,
  type ChaosController,
  type ChaosEvent,
  type FaultRule,
  type FaultRuleInput,
  type RuleAction,
  type RuleMatch,
  type RuleTrigger,
} from './chaos/api.js';
// From their modules, not ./chaos/index.js, whose proxy and engine only a start needs.
export { chaosActions } from './chaos/actions/index.js';
export { SeededRandom } from './chaos/random.js';
export { version } from './version.js';
export { unsecuredJwt, type OAuthBearerOptions } from './server/sasl/oauthbearer.js';
export type { SaslOptions, SaslMechanism } from './server/sasl/authenticator.js';
export type { TlsOptions, TlsInfo, ClientAuth } from './server/tls.js';
export {
  auditDelivery,
  formatAnomalies,
  AuditInputError,
  ANOMALY_KINDS,
  type AuditSource,
  type AuditInput,
  type AuditReport,
  type Anomaly,
  type AnomalyKind,
  type IdFrom,
  type ProcessedItem,
  type ProcessedRecord,
  type SentItem,
  type AcknowledgedItem,
  type RecordRef,
  type AuditedRecordView,
} from './audit/index.js';
export {
  applyPreset,
  builtinPresetsDir,
  findPreset,
  listPresetNames,
  listPresets,
  loadPresetFile,
  resolvePreset,
  validatePreset,
  UnknownPresetError,
  type Preset,
} from './presets/index.js';
export { ControlClient, ControlError, type ControlClientOptions, type RequestInput } from './control/client.js';
export type { ControlTarget, UpstreamTarget } from './control/target.js';
export type {
  Routes,
  RouteKey,
  ErrorBody,
  VersionInfo,
  ClusterView,
  NodeView,
  TopicSummary,
  TopicView,
  PartitionView,
  CreateTopicRequest,
  RecordsQuery,
  RecordsPage,
  RecordView,
  ProducerView,
  MoveLeaderRequest,
  LeaderChangeView,
  GroupSummaryView,
  GroupView,
  TransactionView,
  WaitForFaultRequest,
  EventsQuery,
  EventsPage,
  ResetResult,
  PresetSummary,
  AppliedPreset,
  ApplyPresetRequest,
  AuditRequest,
  WaitForRecordsRequest,
  WaitForCommittedRequest,
  WaitForGroupRequest,
} from './control/types.js';
export {
  waitForGroup,
  waitForRecords,
  waitForCommitted,
  WaitTimeoutError,
  type WaitOptions,
  type WaitForGroupOptions,
  type GroupProgress,
  type GroupPartitionProgress,
  type RecordsProgress,
  type CommittedProgress,
} from './broker/waits.js';
