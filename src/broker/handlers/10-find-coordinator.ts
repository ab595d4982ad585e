// FindCoordinator (10), v0-6. Key type 0 (group) maps to a partition of
// __consumer_offsets, key type 1 (transactional id) to one of
// __transaction_state: abs(hashCode) % 50, and the coordinator is that
// partition's leader, at the address of the request's listener (proxy or side
// door, RequestContext.endpoint). The first lookup of a key type creates its internal
// topic and answers COORDINATOR_NOT_AVAILABLE, as Kafka does while it creates
// it; so does a partition without a leader. v0-3 carry one key (v1-3 answer
// error_message "NONE" on success, as Kafka does); v4+ a batch of keys.
// Key type 2 (share groups) is INVALID_REQUEST below v6 and
// COORDINATOR_NOT_AVAILABLE at v6, as in 3.9, which has no share coordinator;
// an unknown key type fails the whole request with INVALID_REQUEST.
import { FindCoordinatorApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { SHARE_KEY_TYPE, coordinatorFor, ensureCoordinatorTopic, type CoordinatorKeyType } from '../coordinators.js';
import { defineHandler } from './handler.js';
import { authorize, authorizeCluster } from './authorize.js';

/** Errors#message(): the exception's default message; for NONE, the name. */
const MESSAGES: Partial<Record<ErrorName, string>> = {
  NONE: 'NONE',
  COORDINATOR_NOT_AVAILABLE: 'The coordinator is not available.',
  GROUP_AUTHORIZATION_FAILED: 'Group authorization failed.',
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 'Transactional Id authorization failed.',
  CLUSTER_AUTHORIZATION_FAILED: 'Cluster authorization failed.',
  INVALID_REQUEST:
    'This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.',
};

export default defineHandler(FindCoordinatorApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const keyType = req.keyType;
  const keys = version >= 4 ? req.coordinatorKeys : [req.key];
  const noNode = { nodeId: -1, host: '', port: -1 };

  if (keyType !== 0 && keyType !== 1 && keyType !== SHARE_KEY_TYPE && keys.length > 0) {
    const errorCode = ErrorCode.INVALID_REQUEST;
    const errorMessage = MESSAGES.INVALID_REQUEST!;
    if (version < 4) return { throttleTimeMs: 0, errorCode, errorMessage, ...noNode };
    return { throttleTimeMs: 0, coordinators: keys.map((key) => ({ key, errorCode, errorMessage, ...noNode })) };
  }

  // The internal topic is created once per request: every key of this request sees it missing.
  let ready: boolean | undefined;
  const lookup = (key: string): { error: ErrorName; nodeId: number } => {
    // KafkaApis.getCoordinator: DESCRIBE on the group or transactional id first.
    if (keyType === 0 && !authorize(ctx, 'DESCRIBE', 'GROUP', key)) return { error: 'GROUP_AUTHORIZATION_FAILED', nodeId: -1 };
    if (keyType === 1 && !authorize(ctx, 'DESCRIBE', 'TRANSACTIONAL_ID', key)) return { error: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', nodeId: -1 };
    if (keyType === SHARE_KEY_TYPE && version >= 6 && !authorizeCluster(ctx, 'CLUSTER_ACTION')) return { error: 'CLUSTER_AUTHORIZATION_FAILED', nodeId: -1 };
    if (keyType === SHARE_KEY_TYPE) return { error: version < 6 ? 'INVALID_REQUEST' : 'COORDINATOR_NOT_AVAILABLE', nodeId: -1 };
    ready ??= ensureCoordinatorTopic(cluster, keyType as CoordinatorKeyType);
    const nodeId = ready ? coordinatorFor(cluster, keyType as CoordinatorKeyType, key) : -1;
    return nodeId < 0 ? { error: 'COORDINATOR_NOT_AVAILABLE', nodeId } : { error: 'NONE', nodeId };
  };
  const endpoint = (nodeId: number) => {
    const at = ctx.endpoint(nodeId);
    return at ? { nodeId, host: at.host, port: at.port } : noNode;
  };

  if (version < 4) {
    const { error, nodeId } = lookup(req.key);
    return { throttleTimeMs: 0, errorCode: ErrorCode[error], errorMessage: MESSAGES[error] ?? null, ...(error === 'NONE' ? endpoint(nodeId) : noNode) };
  }
  return {
    throttleTimeMs: 0,
    coordinators: keys.map((key) => {
      const { error, nodeId } = lookup(key);
      return { key, errorCode: ErrorCode[error], errorMessage: null, ...(error === 'NONE' ? endpoint(nodeId) : noNode) };
    }),
  };
});
