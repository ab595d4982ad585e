// Small checks shared by rule, trigger and action validation. Each throws a
// RuleValidationError naming the field (`action.ms`, `match.api[1]`) and why.
import { RuleValidationError } from './api.js';

export function fail(field: string, reason: string): never {
  throw new RuleValidationError(field, reason);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object whose keys are all among `allowed`; an unknown key is usually a typo. */
export function record(v: unknown, field: string, allowed: readonly string[]): Record<string, unknown> {
  if (!isPlainObject(v)) fail(field, `must be an object, got ${describe(v)}`);
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) fail(`${field}.${key}`, `unknown field; expected one of ${allowed.join(', ')}`);
  }
  return v;
}

export function integer(v: unknown, field: string, opts: { min?: number; max?: number } = {}): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(field, `must be a whole number, got ${describe(v)}`);
  if (opts.min !== undefined && v < opts.min) fail(field, `must be at least ${opts.min}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) fail(field, `must be at most ${opts.max}, got ${v}`);
  return v;
}

export function optionalInteger(v: unknown, field: string, opts: { min?: number; max?: number } = {}): number | undefined {
  return v === undefined ? undefined : integer(v, field, opts);
}

export function string(v: unknown, field: string): string {
  if (typeof v !== 'string' || v === '') fail(field, `must be a non-empty string, got ${describe(v)}`);
  return v;
}

export function optionalString(v: unknown, field: string): string | undefined {
  return v === undefined ? undefined : string(v, field);
}

export function oneOf<T extends string>(v: unknown, field: string, choices: readonly T[], fallback?: T): T {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !choices.includes(v as T)) fail(field, `must be one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${describe(v)}`);
  return v as T;
}

export function optionalBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') fail(field, `must be true or false, got ${describe(v)}`);
  return v;
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
