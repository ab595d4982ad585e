// `kafkaesque reset`: clears faults, starts stopped nodes, deletes every
// topic, group and transaction, and creates the start topics again.
import type { CommandModule } from 'yargs';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';

export const resetCommand: CommandModule<object, ClientArgs> = {
  command: 'reset',
  describe: 'Clear faults, start stopped nodes, delete all data and create the start topics again',
  builder: (y) => clientOptions(y) as never,
  handler: run(async (args) => {
    const r = await clientFor(args).reset();
    if (args.json) printJson(r);
    else print(`reset: ${r.rulesCleared} rule(s) cleared, ${r.nodesStarted.length} node(s) started, ${r.topicsDeleted.length} topic(s) deleted, ${r.topicsCreated.length} created`);
  }),
};
