// `kafkaesque reset`: clears faults, starts stopped nodes, deletes every
// topic, group and transaction, then creates the start topics and applies the
// start presets again.
import type { CommandModule } from 'yargs';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';

export const resetCommand: CommandModule<object, ClientArgs> = {
  command: 'reset',
  describe: 'Clear faults, start stopped nodes, delete all data, then create the start topics and apply the start presets again',
  builder: (y) => clientOptions(y) as never,
  handler: run(async (args) => {
    const r = await clientFor(args).reset();
    if (args.json) printJson(r);
    else print(`reset: ${r.rulesCleared} rule(s) cleared, ${r.nodesStarted.length} node(s) started, ${r.topicsDeleted.length} topic(s) deleted, ${r.topicsCreated.length} created, ${r.presetsApplied.length} start preset(s) applied again`);
  }),
};
