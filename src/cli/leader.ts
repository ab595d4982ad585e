// `kafkaesque leader move <topic> <partition>` against a running instance.
import type { Argv, CommandModule } from 'yargs';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';
import { wholeFlag, wholePositional } from './flags.js';
import { MAX_INT32 } from '../options-schema.js';

type MoveArgs = ClientArgs & { topic: string; partition: number; to?: number; unclean: boolean };

const move: CommandModule<object, MoveArgs> = {
  command: 'move <topic> <partition>',
  describe: 'Elect a new leader (the next in-sync replica, or --to); the leader epoch goes up',
  builder: (y) =>
    clientOptions(y)
      .positional('topic', { type: 'string', demandOption: true })
      .positional('partition', wholePositional('partition', 'The partition', [0, MAX_INT32]))
      .option('to', wholeFlag('to', 'The new leader (default: the next live in-sync replica)', [0, MAX_INT32]))
      .option('unclean', { type: 'boolean', default: false, describe: 'Allow a replica outside the ISR (the log is truncated to what it has)' })
      .example('$0 leader move orders 0 --to 2', '') as never,
  handler: run(async (args) => {
    const r = await clientFor(args).moveLeader(String(args.topic), args.partition, {
      to: args.to,
      unclean: args.unclean || undefined,
    });
    if (args.json) printJson(r);
    else print(`${r.topic}-${r.partition}: leader ${r.leader}, epoch ${r.leaderEpoch}${r.truncatedFrom !== null ? `; log truncated from ${r.truncatedFrom}` : ''}`);
  }),
};

export const leaderCommand: CommandModule = {
  command: 'leader <command>',
  describe: 'Move partition leadership on a running instance',
  builder: (y: Argv) => y.command(move).demandCommand(1, 'Name a leader command: move'),
  handler: () => {},
};
