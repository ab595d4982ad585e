// The codecs are generated from the union of Kafka 3.9's and 4.4's schemas.
// This proves the union changed no byte: the generator is run again on each
// release's folder alone, and for every message and every version that release
// defines, the union's codec writes what the single release's codec writes,
// and reads it back to the same bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as union from '../../src/protocol/messages/index.js';
import { Reader, Writer } from '../../src/protocol/primitives.js';
import { loadSchemas, newerSchemasDir, olderSchemasDir, sampleMessage, versionsOf, withNewerNames, type MessageSpec } from '../support/schemas.js';

type Codecs = Record<string, (...a: never[]) => unknown>;
type Read = (r: Reader, v: number) => unknown;
type Write = (w: Writer, d: unknown, v: number) => void;

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kafkaesque-codecs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The codecs the generator makes from one folder of schemas alone. */
async function generateFrom(name: string, schemas: string): Promise<Codecs> {
  const dir = join(work, name);
  execFileSync(process.execPath, ['scripts/gen-protocol.mjs', '--out', join(dir, 'messages')], {
    cwd: repo,
    env: { ...process.env, KAFKA_SCHEMAS_DIR: schemas },
    stdio: 'pipe',
  });
  // The generated modules import '../primitives.js': point that at the real one.
  const primitives = relative(dir, join(repo, 'src/protocol/primitives.js'));
  writeFileSync(join(dir, 'primitives.ts'), `export * from '${primitives.startsWith('.') ? primitives : `./${primitives}`}';\n`);
  return (await import(pathToFileURL(join(dir, 'messages/index.ts')).href)) as Codecs;
}

const unionCodecs = union as unknown as Codecs;
const codec = (codecs: Codecs, name: string) => ({ read: codecs[`read${name}`] as unknown as Read, write: codecs[`write${name}`] as unknown as Write });

function bytes(write: Write, data: unknown, v: number): Buffer {
  const w = new Writer(16);
  write(w, data, v);
  return w.toBuffer();
}

function checkRelease(label: string, dir: string, load: () => Promise<Codecs>) {
  describe(`every version of Kafka ${label}'s schemas`, () => {
    let single: Codecs;
    beforeAll(async () => {
      single = await load();
    }, 60_000);

    // Only messages the union generates: 4.4-only APIs get codecs as they are served.
    const specs = loadSchemas(dir).filter((s) => `read${s.name}` in unionCodecs);

    test('the union covers every message of the release that it generates', () => {
      expect(specs.length).toBeGreaterThan(100);
    });

    test.each(specs.map((s) => [s.name, s] as const))('%s: the same bytes as the release alone', (name, spec: MessageSpec) => {
      const one = codec(single, name);
      const both = codec(unionCodecs, name);
      expect(one.write).toBeInstanceOf(Function);
      for (const v of versionsOf(spec)) {
        for (const seed of [v + 3, v + 11]) {
          const sample = sampleMessage(spec, v, seed);
          const expected = bytes(one.write, sample, v);
          const written = bytes(both.write, withNewerNames(spec, sample), v);
          expect([v, written.toString('hex')]).toEqual([v, expected.toString('hex')]);
          // What the union reads from the release's bytes writes the same bytes again.
          const r = new Reader(expected);
          const decoded = both.read(r, v);
          expect(r.remaining).toBe(0);
          expect(bytes(both.write, decoded, v).equals(expected)).toBe(true);
        }
        expect(bytes(both.write, {}, v).equals(bytes(one.write, {}, v))).toBe(true);
      }
    });
  });
}

checkRelease('3.9', olderSchemasDir, () => generateFrom('kafka-3.9', olderSchemasDir));
checkRelease('4.4', newerSchemasDir, () => generateFrom('kafka-4.4', newerSchemasDir));
