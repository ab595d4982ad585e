// `kafkaesque status`: what a running instance is: nodes, proxy, seed, topics, rules.
import type { CommandModule } from 'yargs';
import { clientFor, clientOptions, print, printJson, run, type ClientArgs } from './common.js';
import { ruleLine } from './fault.js';

export const statusCommand: CommandModule<object, ClientArgs> = {
  command: 'status',
  describe: 'Show the nodes, topics and fault rules of a running instance',
  builder: (y) => clientOptions(y).example('$0 status --json', '{ cluster, topics, faults }') as never,
  handler: run(async (args) => {
    const client = clientFor(args);
    const [cluster, topics] = await Promise.all([client.cluster(), client.topics()]);
    const faults = cluster.proxy ? await client.faults() : [];
    if (args.json) return printJson({ cluster, topics, faults });
    print(`cluster ${cluster.clusterId}; bootstrap ${cluster.bootstrap || '(no live broker)'}; ${cluster.proxy ? 'chaos proxy on' : 'no proxy'}; seed ${cluster.seed ?? '-'}; control ${client.baseUrl}`);
    for (const n of cluster.nodes) print(`node ${n.nodeId}\t${n.host}:${n.port}\t${n.alive ? 'up' : 'stopped'}${n.nodeId === cluster.controllerId ? '\tcontroller' : ''}`);
    print(`${topics.length} topic(s)${topics.length ? ': ' + topics.map((t) => `${t.name}(${t.partitions})`).join(', ') : ''}`);
    print(`${faults.length} fault rule(s)`);
    for (const r of faults) print(`  ${ruleLine(r)}`);
  }),
};
