// Golden bytes: every frame real clients sent (and the mock answered) in
// test/fixtures/captures decodes with our codec to its last byte,
// and encoding the decoded message gives the same bytes back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiSchemas, readResponseHeader, writeRequestHeader } from '../../src/protocol/messages/index.js';
import { readHeader, requestHeaderVersion, responseHeaderVersion } from '../../src/protocol/headers.js';
import { Reader, Writer } from '../../src/protocol/primitives.js';
import { captureFiles, capturesDir } from '../support/captures.js';

interface CaptureLine {
  dir: 'request' | 'response';
  apiKey: number;
  apiName: string;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
  hex: string;
}

const lines: (CaptureLine & { file: string })[] = captureFiles.flatMap((file) =>
  readFileSync(join(capturesDir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ ...(JSON.parse(l) as CaptureLine), file })),
);
// ACL and partition-reassignment APIs have no schema in the 3.9 set we generate from.
const withoutSchema = new Set([29, 30, 31, 45, 46]);
const known = lines.filter((l) => !withoutSchema.has(l.apiKey));

test('the corpus is there and nearly all of it has schemas', () => {
  expect(lines.length).toBe(513);
  expect(lines.length - known.length).toBeLessThan(20);
});

test.each(known.filter((l) => l.dir === 'request').map((l) => [l.file, l.apiName, l.apiVersion, l.correlationId, l] as const))(
  '%s: %s v%i request (correlation %i) decodes and re-encodes byte for byte',
  (_f, _n, _v, _c, line) => {
    const frame = Buffer.from(line.hex, 'hex');
    expect(frame.readInt32BE(0)).toBe(frame.length - 4);
    const api = apiSchemas.get(line.apiKey)!;
    const r = new Reader(frame, 4);
    const header = readHeader(r, api, line.apiVersion);
    expect(header).toMatchObject({ requestApiKey: line.apiKey, requestApiVersion: line.apiVersion, correlationId: line.correlationId, clientId: line.clientId });
    const body = api.readRequest(r, line.apiVersion);
    expect(r.remaining).toBe(0);
    const w = new Writer();
    writeRequestHeader(w, header, requestHeaderVersion(api, line.apiVersion));
    api.writeRequest(w, body as never, line.apiVersion);
    expect(w.toBuffer().toString('hex')).toBe(frame.subarray(4).toString('hex'));
  },
);

test.each(known.filter((l) => l.dir === 'response').map((l) => [l.file, l.apiName, l.apiVersion, l.correlationId, l] as const))(
  '%s: %s v%i response (correlation %i) decodes and re-encodes byte for byte',
  (_f, _n, _v, _c, line) => {
    const frame = Buffer.from(line.hex, 'hex');
    const api = apiSchemas.get(line.apiKey)!;
    const r = new Reader(frame, 4);
    const headerVersion = responseHeaderVersion(api, line.apiVersion);
    expect(readResponseHeader(r, headerVersion).correlationId).toBe(line.correlationId);
    const body = api.readResponse(r, line.apiVersion);
    expect(r.remaining).toBe(0);
    const w = new Writer();
    w.int32(line.correlationId);
    if (headerVersion === 1) w.uvarint(0);
    api.writeResponse(w, body as never, line.apiVersion);
    expect(w.toBuffer().toString('hex')).toBe(frame.subarray(4).toString('hex'));
  },
);
