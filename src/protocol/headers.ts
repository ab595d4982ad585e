// Request and response headers, and which header version goes with which
// (api key, api version): v2 request / v1 response headers for flexible
// versions, except ApiVersions, whose response header is always v0 so that a
// client can read the answer before it knows what the broker supports (KIP-511).
import { apiSchemas, ApiKey, readRequestHeader, writeRequestHeader, type RequestHeader } from './messages/index.js';
import { Reader, Writer } from './primitives.js';
import type { ApiSchema } from './api-schema.js';

export function requestHeaderVersion(api: ApiSchema, version: number): number {
  return version >= api.requestFlexibleMin ? 2 : 1;
}

export function responseHeaderVersion(api: ApiSchema, version: number): number {
  if (api.apiKey === ApiKey.ApiVersions) return 0;
  return version >= api.responseFlexibleMin ? 1 : 0;
}

/**
 * The fixed start of every request header (api key, version, correlation id),
 * readable before the version is known to be supported.
 */
export function peekRequestHeader(frame: Buffer): { apiKey: number; apiVersion: number; correlationId: number } | null {
  if (frame.length < 8) return null;
  return { apiKey: frame.readInt16BE(0), apiVersion: frame.readInt16BE(2), correlationId: frame.readInt32BE(4) };
}

/** Decodes a request header for a known API; the reader is left at the body. */
export function readHeader(r: Reader, api: ApiSchema, version: number): RequestHeader {
  return readRequestHeader(r, requestHeaderVersion(api, version));
}

/** Encodes a whole request frame body (header + message), without the size prefix. */
export function encodeRequest(apiKey: number, version: number, correlationId: number, clientId: string | null, body: unknown): Buffer {
  const api = apiSchemas.get(apiKey);
  if (!api) throw new Error(`unknown api key ${apiKey}`);
  const w = new Writer();
  writeRequestHeader(w, { requestApiKey: apiKey, requestApiVersion: version, correlationId, clientId }, requestHeaderVersion(api, version));
  api.writeRequest(w, body as never, version);
  return w.toBuffer();
}

/** Writes a response header for (api, version). */
export function writeResponseHeader(w: Writer, api: ApiSchema, version: number, correlationId: number): void {
  w.int32(correlationId);
  if (responseHeaderVersion(api, version) >= 1) w.uvarint(0);
}
