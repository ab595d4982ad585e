// `kafkaesque audit`: the delivery audit (docs/audit.md) from a CI script.
// The application writes what it processed to a file (a JSON array, or one
// item a line: an id, or a JSON object { topic, partition, offset, … });
// the verb asks the running instance and exits 1 when anything was lost,
// duplicated or reordered, so a script can fail on it.
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import type { IdFromJson } from '../audit/types.js';
import type { AuditRequest } from '../control/types.js';
import { recordAnomalies } from '../audit/audit-out.js';
import { EXIT_FINDING, RejectedInputError, UsageError, clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';

type AuditArgs = ClientArgs & { processed: string; sent?: string; topic: string[]; 'id-from': string };

/** The items of a file ('-' = stdin): a JSON array, or one item a line (a JSON value, or a bare id). A file that cannot be read is a usage error (exit 2), one that is not what it should be is refused input (exit 3). */
export function readItems(path: string, flag: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (text.trimStart().startsWith('[')) {
    try {
      return JSON.parse(text) as unknown[];
    } catch (err) {
      throw new RejectedInputError(`${flag} ${path}: not a JSON array: ${(err as Error).message}`);
    }
  }
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      if (!line.startsWith('{') && !line.startsWith('"')) return line;
      try {
        return JSON.parse(line) as unknown;
      } catch (err) {
        throw new RejectedInputError(`${flag} ${path}: a line is not JSON (${(err as Error).message}): ${line.slice(0, 80)}`);
      }
    });
}

/** 'key' or 'header:NAME'. */
export function parseIdFrom(spec: string): IdFromJson {
  if (spec === 'key') return 'key';
  if (spec.startsWith('header:') && spec.length > 'header:'.length) return { header: spec.slice('header:'.length) };
  throw new UsageError(`--id-from takes key or header:NAME, got "${spec}"`);
}

export const auditCommand: CommandModule<object, AuditArgs> = {
  command: 'audit',
  describe: 'Check what the application processed against what the cluster stored: lost, duplicated, reordered (exit 1 if any, 3 for input refused)',
  builder: (y) =>
    clientOptions(y)
      .option('processed', { type: 'string', demandOption: true, describe: "File of what the application processed, in order ('-' = stdin): a JSON array, or one id or JSON record a line" })
      .option('sent', { type: 'string', describe: "File of the ids the application sent, in order ('-' = stdin; adds the send-order check)" })
      .option('topic', { type: 'string', array: true, default: [], describe: 'Topic to audit (repeatable; default: those the records name, else all)' })
      .option('id-from', { type: 'string', default: 'key', describe: "Where a record's id is: key, or header:NAME" })
      .example('$0 audit --processed processed.jsonl --topic orders', 'one line per processed record')
      .example('$0 audit --processed ids.json --id-from header:order-id --json', 'the whole report as JSON') as never,
  handler: run(async (args) => {
    const input: AuditRequest = {
      processed: readItems(args.processed, '--processed') as AuditRequest['processed'],
      idFrom: parseIdFrom(args['id-from']),
      ...(args.sent !== undefined ? { sent: readItems(args.sent, '--sent') as AuditRequest['sent'] } : {}),
      ...(args.topic.length ? { topics: args.topic } : {}),
    };
    const report = await clientFor(args).audit(input);
    recordAnomalies(report);
    if (args.json) printJson(report);
    else {
      for (const a of report.anomalies) print(`${a.kind}\t${a.message}`);
      for (const u of report.unmatched) print(`unmatched\tprocessed[${u.index}]: ${u.reason}`);
      const c = report.counts;
      print(
        `${report.ok ? 'ok' : 'NOT ok'}: ${c.records} record(s) in ${report.topics.join(', ') || 'no topic'}, ${c.processed} processed; ` +
          `${report.anomalies.length} anomal${report.anomalies.length === 1 ? 'y' : 'ies'}, ${c.unmatched} unmatched`,
      );
    }
    if (!report.ok) process.exitCode = EXIT_FINDING;
  }),
};
