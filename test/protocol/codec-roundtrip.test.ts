import { apiSchemas } from '../../src/protocol/messages/index.js';
import * as messages from '../../src/protocol/messages/index.js';
import { Reader, Writer } from '../../src/protocol/primitives.js';
import { loadSchemas, newerSchemasDir, olderSchemasDir, sampleMessage, versionsOf, withNewerNames, type MessageSpec } from '../support/schemas.js';

type Codec = { read: (r: Reader, v: number) => unknown; write: (w: Writer, d: never, v: number) => void };

// The codecs serve the union of 3.9's and 4.4's versions: each version is
// sampled from the release that defines it (4.4 where both do), for every
// message of the 3.9 set, and for the 4.4-only messages that have codecs
// (those served: share groups).
const newer = new Map(loadSchemas(newerSchemasDir).map((s) => [s.name, s]));
const olderOnly = loadSchemas(olderSchemasDir);
const olderNames = new Set(olderOnly.map((s) => s.name));
const older = [...olderOnly, ...[...newer.values()].filter((s) => !olderNames.has(s.name) && `read${s.name}` in messages)];
const codecs = messages as unknown as Record<string, (...a: never[]) => unknown>;

function codecOf(spec: MessageSpec): Codec {
  const read = codecs[`read${spec.name}`];
  const write = codecs[`write${spec.name}`];
  if (!read || !write) throw new Error(`no codec generated for ${spec.name}`);
  return { read, write } as unknown as Codec;
}

const cases = older.flatMap((spec) => {
  const next = newer.get(spec.name);
  const newerVersions = next ? versionsOf(next) : [];
  return [
    ...versionsOf(spec)
      .filter((v) => !newerVersions.includes(v))
      .map((v) => [spec.name, v, spec] as const),
    ...newerVersions.map((v) => [next!.name, v, next!] as const),
  ];
});

/** `decoded` cut down to the keys `sample` has, recursively: what a sample of one release can be compared with. */
function sameShape(decoded: unknown, sample: unknown): unknown {
  if (Array.isArray(sample) && Array.isArray(decoded)) return decoded.map((d, i) => sameShape(d, sample[i]));
  if (sample && typeof sample === 'object' && !Buffer.isBuffer(sample) && decoded && typeof decoded === 'object') {
    const d = decoded as Record<string, unknown>;
    return Object.fromEntries(Object.entries(sample).map(([k, x]) => [k, sameShape(d[k], x)]));
  }
  return decoded;
}

test('every API in the schemas is in the registry with the versions of 3.9 and 4.4 together', () => {
  const requests = older.filter((s) => s.type === 'request');
  expect(apiSchemas.size).toBe(requests.length);
  for (const s of requests) {
    const api = apiSchemas.get(s.apiKey!)!;
    expect(`${api.name}Request`).toBe(s.name);
    const versions = new Set([...versionsOf(s), ...(newer.has(s.name) ? versionsOf(newer.get(s.name)!) : [])]);
    expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: api.maxVersion - api.minVersion + 1 }, (_, i) => api.minVersion + i));
  }
});

test.each(cases)('%s v%i round-trips', (_name, v, spec) => {
  const { read, write } = codecOf(spec);
  const sample = withNewerNames(spec, sampleMessage(spec, v, v + 7));
  const w = new Writer(16);
  write(w, sample as never, v);
  const bytes = w.toBuffer();
  const r = new Reader(bytes);
  const decoded = read(r, v);
  expect(r.remaining).toBe(0);
  expect(sameShape(decoded, sample)).toEqual(sample);
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
