// A response frame from a response body, written by the API's codec: the
// proxy's answers in place of the broker's (error answers, rewritten and
// upstream-capped responses). Apart from ./error-responses.ts so that the
// error action, loaded at `import('kafkaesque')`, does not take in the codecs.
import { apiSchemas } from '../protocol/messages/index.js';
import { writeResponseHeader } from '../protocol/headers.js';
import { Writer } from '../protocol/primitives.js';

/** A whole response frame, size prefix included, ready for the socket. */
export function responseFrame(apiKey: number, version: number, correlationId: number, body: Record<string, unknown>): Buffer {
  const api = apiSchemas.get(apiKey);
  if (!api) throw new Error(`unknown api key ${apiKey}`);
  const w = new Writer();
  w.int32(0); // size, patched below
  writeResponseHeader(w, api, version, correlationId);
  api.writeResponse(w, body as never, version);
  const out = w.toBuffer();
  out.writeInt32BE(out.length - 4, 0);
  return out;
}
