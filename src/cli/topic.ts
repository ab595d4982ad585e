// `kafkaesque topic create|list|records` against a running instance.
import type { Argv, CommandModule } from 'yargs';
import { clientFor, clientOptions, keyValues, print, printJson, run, type ClientArgs } from './common.js';
import { wholeFlag } from './flags.js';
import { MAX_BROKERS, MAX_INT32, MAX_PARTITIONS } from '../options-schema.js';

type CreateArgs = ClientArgs & { name: string; partitions?: number; 'replication-factor'?: number; config: string[] };

const create: CommandModule<object, CreateArgs> = {
  command: 'create <name>',
  describe: 'Create a topic',
  builder: (y) =>
    clientOptions(y)
      .positional('name', { type: 'string', demandOption: true })
      .option('partitions', wholeFlag('partitions', 'Default: the broker num.partitions', [1, MAX_PARTITIONS]))
      .option('replication-factor', wholeFlag('replication-factor', 'Default: the broker default.replication.factor', [1, MAX_BROKERS]))
      .option('config', { type: 'string', array: true, default: [], describe: 'A topic config as key=value (repeatable)' })
      .example('$0 topic create orders --partitions 6 --config cleanup.policy=compact', '') as never,
  handler: run(async (args) => {
    const configs = keyValues(args.config, 'config', false) as Record<string, string>;
    const t = await clientFor(args).createTopic({
      name: String(args.name),
      partitions: args.partitions,
      replicationFactor: args['replication-factor'],
      configs: Object.keys(configs).length ? configs : undefined,
    });
    if (args.json) printJson(t);
    else print(`created ${t.name}: ${t.partitions.length} partition(s), replication ${t.partitions[0]?.replicas.length ?? 0}`);
  }),
};

const list: CommandModule<object, ClientArgs> = {
  command: ['list', 'ls'],
  describe: 'List topics',
  builder: (y) => clientOptions(y) as never,
  handler: run(async (args) => {
    const topics = await clientFor(args).topics();
    if (args.json) printJson(topics);
    else if (topics.length === 0) print('no topics');
    else for (const t of topics) print(`${t.name}\tpartitions ${t.partitions}\treplication ${t.replicationFactor}${t.internal ? '\tinternal' : ''}`);
  }),
};

type RecordsArgs = ClientArgs & { name: string; partition: number; from?: number; limit?: number };

const records: CommandModule<object, RecordsArgs> = {
  command: 'records <name>',
  describe: 'Print the records of a partition, one a line',
  builder: (y) =>
    clientOptions(y)
      .positional('name', { type: 'string', demandOption: true })
      .option('partition', wholeFlag('partition', 'The partition', [0, MAX_INT32], { alias: 'p', default: 0 }))
      .option('from', wholeFlag('from', 'First offset (default: the log start)', [0, Number.MAX_SAFE_INTEGER]))
      .option('limit', wholeFlag('limit', 'Most records (default 100)', [1, 10_000]))
      .example('$0 topic records orders --partition 0 --from 10 --limit 5', '')
      .example('$0 topic records orders --json', 'the page as the control API serves it') as never,
  handler: run(async (args) => {
    const page = await clientFor(args).records(String(args.name), args.partition, { from: args.from, limit: args.limit });
    if (args.json) return printJson(page);
    for (const r of page.records) {
      const what = r.control !== null ? `[${r.control} marker]` : `key=${r.key ?? 'null'} value=${r.value ?? 'null'}`;
      print(`${r.offset}\t${what}\tproducer ${r.batch.producerId}/${r.batch.producerEpoch} seq ${r.batch.baseSequence}${r.batch.transactional ? ' txn' : ''}`);
    }
    print(`-- ${page.records.length} record(s); high watermark ${page.highWatermark}; next offset ${page.nextOffset}`);
  }),
};

export const topicCommand: CommandModule = {
  command: 'topic <command>',
  describe: 'Create, list and read topics of a running instance',
  builder: (y: Argv) => y.command(create).command(list).command(records).demandCommand(1, 'Name a topic command: create, list or records'),
  handler: () => {},
};
