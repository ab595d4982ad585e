import type { ByteChunks, Reader, Writer } from './primitives.js';

/**
 * What a decoded message may be built from: every field optional, recursively,
 * so a handler names only the fields that differ from the schema defaults; a
 * bytes field may be several buffers (ByteChunks), written without joining.
 */
export type MessageInput<T> = T extends Buffer
  ? T | ByteChunks
  : T extends readonly (infer U)[]
    ? readonly MessageInput<U>[]
    : T extends object
      ? { [K in keyof T]?: MessageInput<T[K]> }
      : T;

/** One API of the protocol, as the generator derives it from the request and response schemas. */
export interface ApiSchema<Req = unknown, Res = unknown> {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** First flexible (KIP-482) request version; Infinity when the API has none. */
  readonly requestFlexibleMin: number;
  readonly responseFlexibleMin: number;
  readRequest(r: Reader, version: number): Req;
  writeRequest(w: Writer, data: MessageInput<Req>, version: number): void;
  readResponse(r: Reader, version: number): Res;
  writeResponse(w: Writer, data: MessageInput<Res>, version: number): void;
}
