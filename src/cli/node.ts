// `kafkaesque node stop|start <id>` against a running instance.
import type { Argv, CommandModule } from 'yargs';
import type { NodeView } from '../control/types.js';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';
import { wholePositional } from './flags.js';
import { MAX_INT32 } from '../options-schema.js';

const verb = (name: 'stop' | 'start', describe: string): CommandModule<object, ClientArgs & { id: number }> => ({
  command: `${name} <id>`,
  describe,
  builder: (y) => clientOptions(y).positional('id', wholePositional('id', 'Node id', [0, MAX_INT32])).example(`$0 node ${name} 1`, '') as never,
  handler: run(async (args) => {
    const client = clientFor(args);
    const id = args.id;
    const node: NodeView = name === 'stop' ? await client.stopNode(id) : await client.startNode(id);
    if (args.json) printJson(node);
    else print(`node ${node.nodeId} (${node.host}:${node.port}) ${node.alive ? 'is up' : 'is stopped'}`);
  }),
});

export const nodeCommand: CommandModule = {
  command: 'node <command>',
  describe: 'Stop or start a broker node of a running instance',
  builder: (y: Argv) =>
    y
      .command(verb('stop', 'Stop a node: its connections reset, its leaderships and coordinators move'))
      .command(verb('start', 'Start a stopped node on its old port'))
      .demandCommand(1, 'Name a node command: stop or start'),
  handler: () => {},
};
