// DescribeCluster (60), v0-1: live brokers (at the addresses of the request's
// listener, as Metadata), cluster id and controller.
// Only the brokers endpoint type (1) is served; controllers (2) are refused
// with UNSUPPORTED_ENDPOINT_TYPE, as a broker does. Authorized operations
// when asked: 0 without DESCRIBE on the cluster.
import { DescribeClusterApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { liveEndpoints } from './shared.js';
import { AUTHORIZED_OPERATIONS_OMITTED, clusterAuthorizedOperations } from './authorize.js';

const BROKERS = 1;

// Served up to v1: v2 (IncludeFencedBrokers, KIP-1073) is in the codecs, not served yet.
export default defineHandler(DescribeClusterApi, (req, ctx) => {
  const { cluster } = ctx;
  if (ctx.apiVersion >= 1 && req.endpointType !== BROKERS) {
    return { errorCode: ErrorCode.UNSUPPORTED_ENDPOINT_TYPE, errorMessage: 'The broker does not serve controller endpoints.', endpointType: req.endpointType, clusterId: cluster.clusterId };
  }
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    endpointType: BROKERS,
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    brokers: liveEndpoints(ctx).map(({ nodeId, ...at }) => ({ brokerId: nodeId, ...at })),
    clusterAuthorizedOperations: req.includeClusterAuthorizedOperations ? clusterAuthorizedOperations(ctx) : AUTHORIZED_OPERATIONS_OMITTED,
  };
}, { max: 1 });
