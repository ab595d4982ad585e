// Upstream mode's answer rewrite, as pure functions on bytes: which answers
// may carry broker addresses, where those addresses are in the decoded body,
// and the frame again after they were changed. Only these answers are
// decoded (with the generated codecs); every other frame stays raw bytes.
//
//   Metadata          brokers[]                       every version
//   FindCoordinator   top-level node (v0-3), coordinators[] (v4+)
//   DescribeCluster   brokers[] (endpointType 1; controllers are left alone)
//   Produce v10+      nodeEndpoints (KIP-951: the new leader, with NOT_LEADER_OR_FOLLOWER)
//   Fetch v16+        nodeEndpoints (the same)
//
// Metadata also tells the proxy the topic ids (Fetch and Produce v13+ name
// topics by id) and the cluster id and controller, for the control API.
//
// ApiVersions answers are capped to the versions these codecs know (Kafka
// 3.9's and 4.4's schemas): a newer upstream could otherwise lead a client to a
// Metadata or FindCoordinator version the proxy cannot rewrite, and a rule
// to a request it cannot read.
import { ApiKey, apiSchemas } from '../protocol/messages/index.js';
import { responseHeaderVersion } from '../protocol/headers.js';
import { Reader, ZERO_UUID, readTaggedFields } from '../protocol/primitives.js';
import { responseFrame } from './response-frame.js';

/** The first version of each API whose answer may carry broker addresses. */
const ADDRESS_APIS: ReadonlyMap<number, number> = new Map([
  [ApiKey.Metadata, 0],
  [ApiKey.FindCoordinator, 0],
  [ApiKey.DescribeCluster, 0],
  [ApiKey.Produce, 10],
  [ApiKey.Fetch, 16],
]);

export function carriesAddresses(apiKey: number, version: number): boolean {
  const min = ADDRESS_APIS.get(apiKey);
  return min !== undefined && version >= min;
}

/**
 * An ApiVersions answer (frame without its size prefix) with every API this
 * proxy knows capped at the highest version it can decode; prefixed, ready
 * for the socket. Null when nothing changes or it cannot be read: an error
 * answer (UNSUPPORTED_VERSION comes back as v0, whatever was asked), or a
 * request version newer than the codec.
 */
export function capApiVersions(frame: Buffer, version: number): Buffer | null {
  const api = apiSchemas.get(ApiKey.ApiVersions)!;
  if (version > api.maxVersion || frame.length < 6 || frame.readInt16BE(4) !== 0) return null;
  try {
    const r = new Reader(frame);
    const correlationId = r.int32(); // the ApiVersions answer header is always v0
    const body = api.readResponse(r, version) as AnyBody;
    let changed = false;
    for (const k of body.apiKeys as AnyBody[]) {
      const known = apiSchemas.get(k.apiKey);
      if (!known || k.maxVersion <= known.maxVersion || k.minVersion > known.maxVersion) continue;
      k.maxVersion = known.maxVersion;
      changed = true;
    }
    return changed ? responseFrame(ApiKey.ApiVersions, version, correlationId, body) : null;
  } catch {
    return null;
  }
}

/** A broker address inside a decoded answer; `set` changes it in the body. */
export interface Endpoint {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  set(host: string, port: number): void;
}

export interface DecodedAnswer {
  readonly apiKey: number;
  readonly version: number;
  readonly correlationId: number;
  readonly body: Record<string, unknown>;
  /** Every broker address it carries (none: the frame can go as it is). */
  readonly endpoints: Endpoint[];
  /** From a Metadata answer. */
  readonly metadata?: { clusterId: string | null; controllerId: number; topics: { topicId: string; name: string }[] };
}

type AnyBody = Record<string, any>;

function endpoint(holder: AnyBody, idField: 'nodeId' | 'brokerId'): Endpoint {
  return {
    nodeId: holder[idField] as number,
    host: holder.host as string,
    port: holder.port as number,
    set(host, port) {
      holder.host = host;
      holder.port = port;
    },
  };
}

function endpointsOf(apiKey: number, version: number, body: AnyBody): Endpoint[] {
  switch (apiKey) {
    case ApiKey.Metadata:
      return (body.brokers as AnyBody[]).map((b) => endpoint(b, 'nodeId'));
    case ApiKey.FindCoordinator:
      // An unknown coordinator is node -1 (host '', port -1): nothing to rewrite.
      if (version <= 3) return body.errorCode === 0 && body.nodeId >= 0 ? [endpoint(body, 'nodeId')] : [];
      return (body.coordinators as AnyBody[]).filter((c) => c.errorCode === 0 && c.nodeId >= 0).map((c) => endpoint(c, 'nodeId'));
    case ApiKey.DescribeCluster:
      // Controllers (endpointType 2, KIP-919) are another set of node ids; only brokers are proxied.
      return body.endpointType === 1 ? (body.brokers as AnyBody[]).map((b) => endpoint(b, 'brokerId')) : [];
    case ApiKey.Produce:
    case ApiKey.Fetch:
      return (body.nodeEndpoints as AnyBody[]).map((e) => endpoint(e, 'nodeId'));
    default:
      return [];
  }
}

/**
 * Decodes an answer (frame without its size prefix) that may carry broker
 * addresses. Null when the API carries none or the bytes do not decode.
 */
export function decodeAnswer(frame: Buffer, apiKey: number, version: number): DecodedAnswer | null {
  const api = apiSchemas.get(apiKey);
  if (!api || !carriesAddresses(apiKey, version)) return null;
  try {
    const r = new Reader(frame);
    const correlationId = r.int32();
    if (responseHeaderVersion(api, version) >= 1) readTaggedFields(r, () => false);
    const body = api.readResponse(r, version) as AnyBody;
    const metadata =
      apiKey === ApiKey.Metadata
        ? {
            clusterId: body.clusterId as string | null,
            controllerId: body.controllerId as number,
            topics: (body.topics as AnyBody[]).filter((t) => t.name && t.topicId && t.topicId !== ZERO_UUID).map((t) => ({ topicId: t.topicId as string, name: t.name as string })),
          }
        : undefined;
    return { apiKey, version, correlationId, body, endpoints: endpointsOf(apiKey, version, body), ...(metadata ? { metadata } : {}) };
  } catch {
    return null;
  }
}

/** The answer encoded again, size prefix included. */
export function encodeAnswer(answer: DecodedAnswer): Buffer {
  return responseFrame(answer.apiKey, answer.version, answer.correlationId, answer.body);
}
