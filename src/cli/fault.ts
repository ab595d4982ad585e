// `kafkaesque fault add|list|rm|clear`: fault rules of a running instance
// (docs/chaos.md), over its control API.
import { readFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import type { FaultRule, FaultRuleInput, RuleTrigger } from '../chaos/api.js';
import { clientFor, clientOptions, print, printJson, RejectedInputError, run, UsageError, type ClientArgs } from './common.js';
import { parseWhole, wholeFlag } from './flags.js';
import { MAX_INT32 } from '../options-schema.js';
import { hasRuleFlags, ruleFromFlags, type RuleFlags } from './rule-flags.js';

const triggerText = (t: RuleTrigger): string => {
  const times = t.times === undefined ? '' : ` (at most ${t.times})`;
  switch (t.type) {
    case 'always':
      return `always${times}`;
    case 'probability':
      return `probability:${t.p}${times}`;
    case 'window':
      return `window:${t.fromMs}-${t.toMs}${times}`;
    default:
      return `${t.type}:${t.n}${times}`;
  }
};

/** One line per rule: id, counts, match, trigger, action. */
export function ruleLine(r: FaultRule): string {
  const match = Object.entries(r.match ?? {}).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' ') || 'any request';
  const { type, ...params } = r.action;
  const p = Object.keys(params).length ? ` ${JSON.stringify(params)}` : '';
  return `${r.id}\tfired ${r.fired}/${r.matched} matched\t${match}\t${triggerText(r.trigger)}\t${type}${p}`;
}

/** A rule given on the command line that is not JSON is a usage error (exit 2); a file's, refused input (exit 3). */
function parseRuleJson(text: string, where: string, fromFile = false): FaultRuleInput {
  try {
    return JSON.parse(text) as FaultRuleInput;
  } catch (err) {
    const message = `${where} is not JSON: ${(err as Error).message}`;
    throw fromFile ? new RejectedInputError(message) : new UsageError(message);
  }
}

type AddArgs = ClientArgs & RuleFlags & { rule?: string; file?: string };

const add: CommandModule<object, AddArgs> = {
  command: 'add [rule]',
  describe: 'Add a rule: JSON, --file rule.json, or flags',
  builder: (y) =>
    clientOptions(y)
      .positional('rule', { type: 'string', describe: 'The rule as JSON: {"match":…,"trigger":…,"action":…}' })
      .option('file', { type: 'string', describe: "Read the rule (JSON) from this file ('-' = stdin)" })
      .option('api', { type: 'string', array: true, describe: 'match.api: Kafka API name(s) or key(s)' })
      .option('topic', { type: 'string', describe: 'match.topic' })
      .option('partition', wholeFlag('partition', 'match.partition (with --topic)', [0, MAX_INT32]))
      .option('node', { type: 'string', array: true, describe: 'match.nodeId: node(s) the request goes to (repeatable) [0..2147483647]', coerce: (ids: unknown[]) => ids.map((id) => parseWhole('--node', id, [0, MAX_INT32])) })
      .option('client-id', { type: 'string', describe: 'match.clientId' })
      .option('group', { type: 'string', describe: 'match.groupId' })
      .option('transactional-id', { type: 'string', describe: 'match.transactionalId' })
      .option('trigger', { type: 'string', describe: 'always | nth:N | first:N | after:N | probability:P | window:FROM-TO (default always)' })
      .option('times', wholeFlag('times', 'trigger.times: fire at most this often (per party with --per)', [1, MAX_INT32]))
      .option('per', { type: 'string', describe: 'trigger.per: count for each group | clientId | producerId | transactionalId | connection | topic apart' })
      .option('stage', { type: 'string', describe: 'trigger.stage: count only once the party is stable | committed | fetched:N' })
      .option('action', { type: 'string', describe: 'action.type: drop-response, delay, error, close, throttle, slice, blackhole, corrupt, duplicate-fetch, move-leader, stop-node, start-node, fence, expire-producer, rewind, rebalance, expire-share-locks, … (docs/chaos.md)' })
      .option('param', { type: 'string', array: true, default: [], describe: 'An action parameter as key=value (JSON values: ms=500, code=NOT_LEADER_OR_FOLLOWER); repeatable' })
      .option('id', { type: 'string', describe: 'The rule id (default: generated)' })
      .option('description', { type: 'string', describe: 'A note kept with the rule' })
      .example("$0 fault add --api Produce --topic orders --trigger nth:1 --action drop-response", 'lose the answer to the first Produce')
      .example("$0 fault add --api Produce --action delay --param ms=1500 --trigger first:2", 'delay two Produce answers')
      .example('$0 fault add --api OffsetCommit --action drop-response --trigger nth:1 --per group --stage stable', "lose each group's first commit once it is stable")
      .example('$0 fault add \'{"match":{"api":"Fetch"},"action":{"type":"close"}}\'', 'a rule as JSON')
      .example('$0 fault add --file rule.json --json', 'a rule from a file; print it as JSON') as never,
  handler: run(async (args) => {
    const sources = [args.rule !== undefined, args.file !== undefined, hasRuleFlags(args)].filter(Boolean).length;
    if (sources > 1) throw new UsageError('fault add: give the rule one way: as JSON, with --file, or with flags');
    const rule =
      args.rule !== undefined
        ? parseRuleJson(args.rule, 'the rule')
        : args.file !== undefined
          ? parseRuleJson(readFileOr(args.file), args.file, true)
          : ruleFromFlags(args);
    const added = await clientFor(args).addFault(rule);
    if (args.json) printJson(added);
    else print(`added ${ruleLine(added)}`);
  }),
};

function readFileOr(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`--file ${path}: cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

const list: CommandModule<object, ClientArgs> = {
  command: ['list', 'ls'],
  describe: 'List the rules, with how often each matched and fired',
  builder: (y) => clientOptions(y).example('$0 fault list --json', 'the rules as a JSON array') as never,
  handler: run(async (args) => {
    const rules = await clientFor(args).faults();
    if (args.json) printJson(rules);
    else if (rules.length === 0) print('no fault rules');
    else for (const r of rules) print(ruleLine(r));
  }),
};

const rm: CommandModule<object, ClientArgs & { ids: string[] }> = {
  command: 'rm <ids..>',
  describe: 'Remove rules by id (what they hold back is released, not dropped)',
  builder: (y) => clientOptions(y).positional('ids', { type: 'string', array: true, demandOption: true }).example('$0 fault rm rule-1', '') as never,
  handler: run(async (args) => {
    const client = clientFor(args);
    for (const id of args.ids) {
      await client.removeFault(String(id));
      if (!args.json) print(`removed ${id}`);
    }
    if (args.json) printJson({ removed: args.ids.map(String) });
  }),
};

const clear: CommandModule<object, ClientArgs> = {
  command: 'clear',
  describe: 'Remove every rule',
  builder: (y) => clientOptions(y) as never,
  handler: run(async (args) => {
    const removed = await clientFor(args).clearFaults();
    if (args.json) printJson({ removed });
    else print(`removed ${removed} rule(s)`);
  }),
};

export const faultCommand: CommandModule = {
  command: 'fault <command>',
  describe: 'Add, list and remove fault rules of a running instance',
  builder: (y: Argv) => y.command(add).command(list).command(rm).command(clear).demandCommand(1, 'Name a fault command: add, list, rm or clear'),
  handler: () => {},
};
