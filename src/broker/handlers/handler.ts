// The contract between the server layer and one API's handler. A handler
// translates a decoded request into calls on the cluster model and builds the
// response; it returns protocol errors in response fields. Throwing means one
// thing: close this connection.
import type { ApiSchema, MessageInput } from '../../protocol/api-schema.js';
import type { Cluster } from '../cluster.js';
import type { Logger } from '../../logger.js';
import type { ErrorName } from '../../protocol/errors.js';

export interface RequestContext {
  readonly cluster: Cluster;
  /** The broker node whose listener received the request. */
  readonly nodeId: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
  /** The client's address as Kafka prints it in DescribeGroups ("/127.0.0.1"). */
  readonly clientHost: string;
  readonly log: Logger;
  /** This connection's SASL state (SaslHandshake, SaslAuthenticate). */
  readonly sasl: SaslSession;
  /** The APIs and versions this broker serves (for ApiVersions). */
  readonly supportedApis: () => readonly { apiKey: number; minVersion: number; maxVersion: number }[];
  /** Broker-side Fetch caps; absent: Kafka's defaults. */
  readonly fetchLimits?: FetchLimits;
  /**
   * Where the clients of the listener this request came in on reach a node,
   * as Kafka answers with the endpoints of the request's listener: the
   * proxy's addresses on the proxied path, the side door's on the side door.
   * Null for a node that has none.
   */
  readonly endpoint: (nodeId: number) => NodeAddress | null;
  /**
   * The session's principal as Kafka's default principal builder makes it:
   * "User:<SASL name>", "User:<client certificate subject, RFC 2253>", or
   * "User:ANONYMOUS".
   */
  readonly principal: string;
  /** The client's IP address, as ACLs' hosts name it ("127.0.0.1"). */
  readonly clientAddress: string;
  /** The request frame's size in bytes (what Produce's bandwidth quota counts). */
  readonly requestSize: number;
  /**
   * Mutes this connection for throttleTimeMs after this request's answer is
   * made (KIP-219, ClientQuotaManager.throttle): the next request is read
   * only then. The handler puts the same time in the response's throttle_time_ms.
   */
  throttle(throttleTimeMs: number): void;
  /** The client connection this request came on: state tied to it (a share session) ends with it. */
  readonly connection: ClientConnection;
}

/** What a handler may know of its connection. The broker owns this contract; the server layer keeps the socket. */
export interface ClientConnection {
  /** Unique among this process's connections. */
  readonly id: number;
  /** Calls fn once when the connection closes (at once if it already has). */
  onClose(fn: () => void): void;
}

/**
 * What the SASL handlers ask of a connection's authentication state. The
 * broker owns this contract; the server layer's SaslAuthenticator keeps the
 * state machine and the mechanisms behind it.
 */
export interface SaslSession {
  /** SaslHandshake: NONE when the mechanism is enabled, UNSUPPORTED_SASL_MECHANISM or ILLEGAL_SASL_STATE otherwise. */
  handshake(mechanism: string, version: number): ErrorName;
  /** The authenticated user (KafkaPrincipal's name), or null before or without SASL. */
  readonly principal: string | null;
  /** The mechanisms SaslHandshake lists. */
  enabledMechanisms(): string[];
  /** One SaslAuthenticate token in, the reply out, or why authentication failed. */
  authenticate(token: Buffer): SaslStep;
}

/** One step of a SASL exchange: a reply (and whether the exchange is complete), or a failure. `refused`: OAUTHBEARER's error challenge was sent. */
export type SaslStep = { ok: true; reply: Buffer; complete: boolean; refused?: string } | { ok: false; error: ErrorName; message: string };

export interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

/** Broker-side caps on a Fetch answer, at whole-batch granularity; the first batch is always served (v3+). */
export interface FetchLimits {
  /** fetch.max.bytes: caps the request's max_bytes. */
  readonly maxBytes: number;
  /** Records per answer, counted by whole batches (kafkaesque's own; Kafka has none). */
  readonly maxRecords: number;
}

/** Process the request but write no response (Produce with acks=0). */
export const NO_RESPONSE = Symbol('no response');
/** Close the connection after the responses queued before this one (acks=0 Produce that failed). */
export const CLOSE_CONNECTION = Symbol('close connection');

/** Write this response, then close the connection (a failed SASL authentication). */
export class CloseAfter<Res> {
  constructor(readonly response: MessageInput<Res>) {}
}

export type HandlerResult<Res> = MessageInput<Res> | CloseAfter<Res> | typeof NO_RESPONSE | typeof CLOSE_CONNECTION;

export interface ApiHandler<Req = any, Res = any> {
  readonly api: ApiSchema<Req, Res>;
  /** The versions this broker serves; ApiVersions advertises exactly these. */
  readonly minVersion: number;
  readonly maxVersion: number;
  handle(request: Req, ctx: RequestContext): HandlerResult<Res> | Promise<HandlerResult<Res>>;
}

/** Declares a handler serving every version the schemas define, unless a narrower range is given. */
export function defineHandler<Req, Res>(
  api: ApiSchema<Req, Res>,
  handle: NoInfer<ApiHandler<Req, Res>['handle']>,
  versions: { min?: number; max?: number } = {},
): ApiHandler<Req, Res> {
  return { api, minVersion: versions.min ?? api.minVersion, maxVersion: versions.max ?? api.maxVersion, handle };
}
