// Number flags checked as the options schema checks the options they set
// (src/options-schema.ts): given once, with a value, a whole number within
// the bounds that --help shows. yargs' own `number` type turns "abc" into NaN,
// a flag given twice into an array and a flag with no value into the
// default, so these flags take the text and check it here; a refusal names
// the flag and the value and exits 2 (src/cli/exit-codes.ts).
import type { Options, PositionalOptions } from 'yargs';
import { checkOption, optionBounds, type OptionKey } from '../options-schema.js';
import { UsageError } from './common.js';

const shown = (v: unknown) => (String(v) === '' ? '""' : String(v));

function once(label: string, v: unknown): unknown {
  if (Array.isArray(v)) throw new UsageError(`${label} is given ${v.length} times (${v.map(shown).join(', ')}); give it once`);
  return v;
}

/** A whole number from min to max, or a UsageError naming the flag (`--port`, or `<partition>`) and the value. */
export function parseWhole(label: string, value: unknown, [min, max]: readonly [number, number]): number {
  const v = once(label, value);
  const text = String(v).trim();
  const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${label} ${shown(v)}: must be a whole number from ${min} to ${max}`);
  return n;
}

/** yargs settings of a whole-number flag: its value required, checked within `bounds`, the bounds in its help line. */
export function wholeFlag(flag: string, describe: string, bounds: readonly [number, number], extra: Options = {}): Options {
  return { requiresArg: true, describe: `${describe} [${bounds[0]}..${bounds[1]}]`, coerce: (v: unknown) => (v === undefined ? v : parseWhole(`--${flag}`, v, bounds)), ...extra };
}

/** The same for a positional argument. */
export function wholePositional(name: string, describe: string, bounds: readonly [number, number]): PositionalOptions {
  return { describe: `${describe} [${bounds[0]}..${bounds[1]}]`, demandOption: true, coerce: (v: unknown) => (v === undefined ? v : parseWhole(`<${name}>`, v, bounds)) };
}

function boundsOf(key: OptionKey): [number, number] {
  const bounds = optionBounds(key);
  if (!bounds) throw new Error(`option ${key} has no whole-number bounds`);
  return bounds;
}

/** A whole-number flag that sets the option `key`, with that option's bounds. */
export function optionFlag(key: OptionKey, flag: string, describe: string, extra: Options = {}): Options {
  return wholeFlag(flag, describe, boundsOf(key), extra);
}

/** A text flag that sets the option `key`: given once, with a value, checked by the options schema; a refusal names the flag and the value. */
export function optionTextFlag(key: OptionKey, flag: string, describe: string): Options {
  return {
    type: 'string',
    requiresArg: true,
    describe,
    coerce: (v: unknown) => {
      if (v === undefined) return v;
      const text = String(once(`--${flag}`, v));
      const bad = checkOption(key, text);
      if (bad) throw new UsageError(`--${flag} ${shown(text)}: ${bad.reason.replace(/, got .*$/, '')}`);
      return text;
    },
  };
}

/** A comma-separated list of whole numbers that sets the option `key` (each within its bounds, then the list as the schema checks it). */
export function optionListFlag(key: OptionKey, flag: string, describe: string): Options {
  const bounds = boundsOf(key);
  return {
    type: 'string',
    requiresArg: true,
    describe: `${describe} [each ${bounds[0]}..${bounds[1]}]`,
    coerce: (v: unknown) => {
      if (v === undefined) return v;
      const text = String(once(flag, v));
      const list = text.split(',').map((item) => {
        const t = item.trim();
        const n = /^\d+$/.test(t) ? Number(t) : NaN;
        if (!Number.isSafeInteger(n) || n < bounds[0] || n > bounds[1]) throw new UsageError(`--${flag} ${text}: takes whole numbers from ${bounds[0]} to ${bounds[1]} separated by commas, got ${shown(t)}`);
        return n;
      });
      const bad = checkOption(key, list);
      if (bad) throw new UsageError(`--${flag} ${text}: ${bad.reason}`);
      return list;
    },
  };
}

/**
 * `--flag -` as `--flag=-`: yargs reads a lone `-` as a positional argument
 * (and strict mode refuses it), while `-` is how a flag that takes a file
 * names stdin (audit --processed -).
 */
export function stdinDashes(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    const previous = out.at(-1);
    if (a === '-' && previous !== undefined && previous.startsWith('-') && previous !== '--' && !previous.includes('=')) out[out.length - 1] = `${previous}=-`;
    else out.push(a);
  }
  return out;
}
