// What every verb that talks to a running instance shares: --url (or
// KAFKAESQUE_URL), --token (or KAFKAESQUE_TOKEN), --json, and one way out.
// Exit codes (src/cli/exit-codes.ts): 0 done, 1 a finding or a failure at
// run time, 2 usage (yargs' own errors, UsageError and OptionsError from a
// handler), 3 input refused (a rule, a preset, an audit file; the field and
// why on stderr).
import type { Argv } from 'yargs';
import { RuleValidationError } from '../chaos/api.js';
import { ControlClient, ControlError } from '../control/client.js';
import { UnknownPresetError } from '../presets/load.js';
import { OptionsError } from '../options-schema.js';
import { EXIT_FAILED, EXIT_REJECTED, EXIT_USAGE } from './exit-codes.js';

export interface ClientArgs {
  url?: string;
  token?: string;
  json: boolean;
}

/** Bad command-line input found by a handler (a flag's syntax or value): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Input the CLI read and refused (a file that is not what the flag says): exit 3. */
export class RejectedInputError extends Error {
  override name = 'RejectedInputError';
}

export { EXIT_OK, EXIT_FAILED, EXIT_FINDING, EXIT_USAGE, EXIT_REJECTED } from './exit-codes.js';

/** --url, --token and --json for a verb that talks to a running instance. */
export function clientOptions<T>(y: Argv<T>): Argv<T & ClientArgs> {
  return y
    .option('url', { type: 'string', describe: 'Control API of the running instance (default: $KAFKAESQUE_URL)' })
    .option('token', { type: 'string', describe: 'Control API token (default: $KAFKAESQUE_TOKEN)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' }) as Argv<T & ClientArgs>;
}

export function clientFor(args: ClientArgs): ControlClient {
  const url = args.url ?? process.env.KAFKAESQUE_URL;
  if (!url) throw new UsageError('no instance to talk to: pass --url or set KAFKAESQUE_URL (kafkaesque start prints the control URL)');
  try {
    return new ControlClient(url, { token: args.token ?? (process.env.KAFKAESQUE_TOKEN || undefined) });
  } catch (err) {
    throw new UsageError(`${args.url !== undefined ? '--url' : 'KAFKAESQUE_URL'}: ${(err as Error).message}`);
  }
}

export const print = (line: string): void => void process.stdout.write(line + '\n');
export const printJson = (value: unknown): void => void process.stdout.write(JSON.stringify(value) + '\n');

/** What a failure prints on stderr, and the exit code it means (src/cli/exit-codes.ts). */
export function describeFailure(err: unknown): { message: string; code: number } {
  if (err instanceof UsageError) return { message: `${err.message}\nRun with --help for usage.`, code: EXIT_USAGE };
  if (err instanceof OptionsError) return { message: `${err.message}\nRun with --help for usage.`, code: EXIT_USAGE };
  if (err instanceof RejectedInputError) return { message: err.message, code: EXIT_REJECTED };
  if (err instanceof ControlError) {
    if (err.error === 'invalid_rule' && err.field !== undefined) return { message: `refused: ${err.field}: ${err.reason ?? err.message}`, code: EXIT_REJECTED };
    if (err.status === 0) return { message: `${err.message} (is kafkaesque running at that URL?)`, code: EXIT_FAILED };
    // 400 and 413: the instance refused what was sent; 404, 409 and the rest: it could not do it.
    const code = err.status === 400 || err.status === 413 ? EXIT_REJECTED : EXIT_FAILED;
    return { message: `${err.message}${err.field ? ` (field: ${err.field})` : ''}`, code };
  }
  if (err instanceof RuleValidationError) return { message: `refused: ${err.message}`, code: EXIT_REJECTED };
  if (err instanceof UnknownPresetError) return { message: err.message, code: EXIT_REJECTED };
  return { message: (err as Error)?.message ?? String(err), code: EXIT_FAILED };
}

/** Wraps a handler: a thrown error becomes a line on stderr and the exit code. */
export function run<A>(fn: (args: A) => Promise<void> | void): (args: A) => Promise<void> {
  return async (args) => {
    try {
      await fn(args);
    } catch (err) {
      const { message, code } = describeFailure(err);
      process.stderr.write(`kafkaesque: ${message}\n`);
      process.exitCode = code;
    }
  };
}

/** A whole number >= min from a positional or flag; UsageError otherwise. */
export function wholeNumber(value: unknown, what: string, min = 0): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${what} must be a whole number >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** Splits "key=value" pairs; values are JSON when they parse as JSON (numbers, true, "quoted"), else strings. */
export function keyValues(pairs: string[], flag: string, json = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--${flag} ${pair}: expected key=value`);
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    if (json) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    }
    out[pair.slice(0, at)] = value;
  }
  return out;
}
