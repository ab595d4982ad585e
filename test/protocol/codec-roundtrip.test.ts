import { apiSchemas } from '../../src/protocol/messages/index.js';
import * as messages from '../../src/protocol/messages/index.js';
import { Reader, Writer } from '../../src/protocol/primitives.js';
import { loadSchemas, sampleMessage, versionsOf, type MessageSpec } from '../support/schemas.js';

type Codec = { read: (r: Reader, v: number) => unknown; write: (w: Writer, d: never, v: number) => void };

const specs = loadSchemas();
const codecs = messages as unknown as Record<string, (...a: never[]) => unknown>;

function codecOf(spec: MessageSpec): Codec {
  const read = codecs[`read${spec.name}`];
  const write = codecs[`write${spec.name}`];
  if (!read || !write) throw new Error(`no codec generated for ${spec.name}`);
  return { read, write } as unknown as Codec;
}

const cases = specs.flatMap((spec) => versionsOf(spec).map((v) => [spec.name, v, spec] as const));

test('every API in the schemas is in the registry with its version range', () => {
  const requests = specs.filter((s) => s.type === 'request');
  expect(apiSchemas.size).toBe(requests.length);
  for (const s of requests) {
    const api = apiSchemas.get(s.apiKey!)!;
    expect(`${api.name}Request`).toBe(s.name);
    expect(versionsOf(s)).toEqual(Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => api.minVersion + i));
  }
});

test.each(cases)('%s v%i round-trips', (_name, v, spec) => {
  const { read, write } = codecOf(spec);
  const sample = sampleMessage(spec, v, v + 7);
  const w = new Writer(16);
  write(w, sample as never, v);
  const bytes = w.toBuffer();
  const r = new Reader(bytes);
  const decoded = read(r, v);
  expect(r.remaining).toBe(0);
  expect(decoded).toEqual(sample);
  // Encoding what was decoded gives the same bytes back.
  const again = new Writer(16);
  write(again, decoded as never, v);
  expect(again.toBuffer().equals(bytes)).toBe(true);
});

test.each(cases)('%s v%i decodes from defaults and rejects truncation', (_name, v, spec) => {
  const { read, write } = codecOf(spec);
  const w = new Writer();
  write(w, {} as never, v);
  const bytes = w.toBuffer();
  expect(() => read(new Reader(bytes), v)).not.toThrow();
  if (bytes.length > 0) expect(() => read(new Reader(bytes.subarray(0, bytes.length - 1)), v)).toThrow();
});
