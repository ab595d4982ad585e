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
    const cluster = await client.cluster();
    // Upstream mode: the topics are the upstream's, not kafkaesque's to list.
    const topics = cluster.upstream === undefined ? await client.topics() : [];
    const faults = cluster.proxy ? await client.faults() : [];
    if (args.json) return printJson({ cluster, topics, faults });
    const proxy = cluster.proxy ? 'chaos proxy on' : 'no proxy';
    const mode = cluster.upstream !== undefined ? `upstream mode: chaos proxy in front of ${cluster.upstream}` : cluster.kafkaVersion ? `Kafka ${cluster.kafkaVersion}; ${proxy}` : proxy;
    print(`cluster ${cluster.clusterId || '(not seen yet)'}; bootstrap ${cluster.bootstrap || '(no live broker)'}; ${mode}; seed ${cluster.seed ?? '-'}; control ${client.baseUrl}`);
    for (const n of cluster.nodes) {
      const name = n.nodeId < 0 ? `bootstrap ${-n.nodeId}` : `node ${n.nodeId}`;
      print(`${name}\t${n.host}:${n.port}\t${n.upstream !== undefined ? `-> ${n.upstream}` : n.alive ? 'up' : 'stopped'}${n.nodeId >= 0 && n.nodeId === cluster.controllerId ? '\tcontroller' : ''}`);
    }
    if (cluster.upstream === undefined) print(`${topics.length} topic(s)${topics.length ? ': ' + topics.map((t) => `${t.name}(${t.partitions})`).join(', ') : ''}`);
    print(`${faults.length} fault rule(s)`);
    for (const r of faults) print(`  ${ruleLine(r)}`);
  }),
};
