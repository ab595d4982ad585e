// The test's own reading of Kafka's JSON schemas: an oracle written apart
// from the generator, so a generator bug cannot hide behind itself.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The repo's copies of Kafka 3.9's and 4.4's schemas (protocol/kafka-3.9/ and
// protocol/kafka-4.4/): the codecs are generated from their union.
export const olderSchemasDir = fileURLToPath(new URL('../../protocol/kafka-3.9/schemas', import.meta.url));
export const newerSchemasDir = fileURLToPath(new URL('../../protocol/kafka-4.4/schemas', import.meta.url));

export interface FieldSpec {
  name: string;
  type: string;
  versions: string;
  nullableVersions?: string;
  taggedVersions?: string;
  tag?: number;
  default?: string;
  fields?: FieldSpec[];
  flexibleVersions?: string;
}

export interface MessageSpec {
  apiKey?: number;
  type: string;
  name: string;
  validVersions: string;
  flexibleVersions: string;
  fields: FieldSpec[];
  commonStructs?: { name: string; fields: FieldSpec[] }[];
}

export function loadSchemas(dir: string): MessageSpec[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as MessageSpec);
}

/**
 * Fields 4.4 renamed with their wire form unchanged, by message: the 3.9
 * name -> the 4.4 name, which the codecs use.
 */
export const RENAMED_FIELDS: Record<string, Record<string, string>> = {
  TxnOffsetCommitRequest: { generationId: 'generationIdOrMemberEpoch' },
};

/** A 3.9 sample with the 4.4 names the codecs use. */
export function withNewerNames(spec: MessageSpec, sample: Record<string, unknown>): Record<string, unknown> {
  const renames = RENAMED_FIELDS[spec.name];
  if (!renames) return sample;
  return Object.fromEntries(Object.entries(sample).map(([k, x]) => [renames[k] ?? k, x]));
}

export function inRange(range: string | undefined, v: number): boolean {
  if (range === undefined || range === 'none') return false;
  if (range.endsWith('+')) return v >= Number(range.slice(0, -1));
  const [lo, hi] = range.split('-').map(Number);
  return hi === undefined ? v === lo : v >= lo! && v <= hi;
}

export function versionsOf(spec: MessageSpec): number[] {
  const [lo, hi] = spec.validVersions.split('-').map(Number);
  const out: number[] = [];
  for (let v = lo!; v <= (hi ?? lo!); v++) out.push(v);
  return out;
}

export function propName(name: string): string {
  const m = /^([A-Z]+)([A-Z][a-z].*)?$/.exec(name);
  if (m && m[2] && m[1]!.length > 1) return m[1]!.toLowerCase() + m[2];
  if (/^[A-Z]+$/.test(name)) return name.toLowerCase();
  return name[0]!.toLowerCase() + name.slice(1);
}

const SCALARS = new Set(['bool', 'int8', 'int16', 'uint16', 'int32', 'int64', 'float64', 'string', 'bytes', 'records', 'uuid']);

function structFields(spec: MessageSpec, f: FieldSpec): FieldSpec[] {
  const inner = f.type.replace(/^\[\]/, '');
  const fields = f.fields ?? spec.commonStructs?.find((s) => s.name === inner)?.fields;
  if (!fields) throw new Error(`no fields for ${inner}`);
  return fields;
}

/** The value a decoder must give a field absent from the version. */
export function defaultValue(spec: MessageSpec, f: FieldSpec): unknown {
  const inner = f.type.replace(/^\[\]/, '');
  if (f.type.startsWith('[]')) return f.default === 'null' ? null : [];
  if (!SCALARS.has(inner)) return f.default === 'null' ? null : defaultStruct(spec, structFields(spec, f));
  switch (inner) {
    case 'bool':
      return f.default === 'true';
    case 'string':
      return f.default === 'null' ? null : (f.default ?? '');
    case 'uuid':
      return '00000000-0000-0000-0000-000000000000';
    case 'bytes':
    case 'records':
      return f.default === 'null' || f.nullableVersions ? null : Buffer.alloc(0);
    default:
      return f.default === undefined ? 0 : Number(f.default);
  }
}

function defaultStruct(spec: MessageSpec, fields: FieldSpec[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [propName(f.name), defaultValue(spec, f)]));
}

/**
 * A sample message for version v with non-default values everywhere the
 * version carries a field (arrays of two, nulls where nullable on every
 * other element), and the defaults a decoder must fill in elsewhere.
 */
export function sampleMessage(spec: MessageSpec, v: number, seed = 1): Record<string, unknown> {
  let n = seed;
  const next = () => (n = (n * 1103515245 + 12345) % 2147483648);
  const scalar = (t: string): unknown => {
    const x = next();
    switch (t) {
      case 'bool':
        return true;
      case 'int8':
        return (x % 200) - 100;
      case 'int16':
        return (x % 60000) - 30000;
      case 'uint16':
        return x % 65536;
      case 'int32':
        return x - 1073741824;
      case 'int64':
        return (x - 1073741824) * 1000003;
      case 'float64':
        return x / 7;
      case 'string':
        return `s${x % 1000}-é`;
      case 'uuid': {
        const h = (x.toString(16) + '0123456789abcdef0123456789abcdef').slice(0, 32);
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      }
      default:
        return Buffer.from(`b${x}`);
    }
  };
  const build = (fields: FieldSpec[], depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const key = propName(f.name);
      const present = inRange(f.versions, v) && (f.taggedVersions === undefined || inRange(f.taggedVersions, v));
      if (!present) {
        out[key] = defaultValue(spec, f);
        continue;
      }
      const inner = f.type.replace(/^\[\]/, '');
      const isStruct = !SCALARS.has(inner);
      const one = () => (isStruct ? build(structFields(spec, f), depth + 1) : scalar(inner));
      if (inRange(f.nullableVersions, v) && next() % 4 === 0) out[key] = null;
      else if (f.type.startsWith('[]')) out[key] = depth > 4 ? [] : [one(), one()];
      else out[key] = one();
    }
    return out;
  };
  return build(spec.fields, 0);
}
