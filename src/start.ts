// startCluster: the library's entry point. Builds the cluster model, starts
// one listener per node, creates the requested topics, and hands back the
// bootstrap string and a stop function.
import { Cluster } from './broker/cluster.js';
import { systemClock } from './broker/clock.js';
import { brokerHandlers } from './broker/handlers/index.js';
import { HandlerRegistry } from './broker/handlers/registry.js';
import { createLogger } from './logger.js';
import { resolveOptions, type KafkaesqueOptions } from './options.js';
import { KafkaServer } from './server/kafka-server.js';

export interface RunningCluster {
  /** Comma-separated host:port list of the live brokers, for client configs. */
  readonly bootstrap: string;
  /** host:port of every broker, by node id. */
  readonly brokers: ReadonlyMap<number, string>;
  /** The cluster model: topics, partitions, leader election, node stop/start. */
  readonly cluster: Cluster;
  readonly options: KafkaesqueOptions;
  /** Stops a broker: its connections reset, new ones are refused, its leaderships move. */
  stopNode(nodeId: number): Promise<void>;
  /** Starts a stopped broker on its old port; resolves once it accepts connections. */
  startNode(nodeId: number): Promise<void>;
  /** Ends every connection and listener. */
  stop(): Promise<void>;
}

export async function startCluster(input: Partial<KafkaesqueOptions> = {}): Promise<RunningCluster> {
  const options = resolveOptions(input);
  const log = options.logger ?? createLogger({ logLevel: options.logLevel, prettyLogs: options.prettyLogs });
  const nodeIds = options.nodeIds ?? Array.from({ length: options.brokers }, (_, i) => i);
  const cluster = new Cluster({
    nodeIds,
    clusterId: options.clusterId,
    autoCreateTopics: options.autoCreateTopics,
    defaultPartitions: options.defaultPartitions,
    defaultReplicationFactor: options.defaultReplicationFactor ?? Math.min(3, options.brokers),
    minInsyncReplicas: options.minInsyncReplicas,
    replicationLagMs: options.replicationLagMs,
    producerIdExpirationMs: options.producerIdExpirationMs,
    transactionMaxTimeoutMs: options.transactionMaxTimeoutMs,
    clock: options.clock ?? systemClock,
    logger: log,
  });
  cluster.groups.config['group.initial.rebalance.delay.ms'] = options.groupInitialRebalanceDelayMs;
  const ports = new Map(nodeIds.map((id, i) => [id, options.ports?.[i] ?? (options.port ? options.port + i : 0)]));
  const server = new KafkaServer({
    cluster,
    registry: new HandlerRegistry(brokerHandlers),
    bindHost: options.host,
    ports,
    advertisedHost: options.advertisedHost ?? options.host,
    maxRequestSize: options.maxRequestSize,
    log,
  });
  await server.start();
  for (const t of options.topics) {
    const r = cluster.createTopic(t.name, { numPartitions: t.partitions, replicationFactor: t.replicationFactor, configs: t.configs });
    if (!r.ok) {
      await server.stop();
      throw new Error(`cannot create topic ${t.name}: ${r.error}: ${r.message}`);
    }
  }
  const address = (id: number) => `${cluster.nodes.get(id)!.host}:${cluster.nodes.get(id)!.port}`;
  log.info({ brokers: nodeIds.map(address) }, 'kafkaesque cluster ready');
  return {
    get bootstrap() {
      return cluster.liveNodes().map((n) => `${n.host}:${n.port}`).join(',');
    },
    brokers: new Map(nodeIds.map((id) => [id, address(id)])),
    cluster,
    options,
    stopNode: async (id) => {
      const r = cluster.stopNode(id);
      if (!r.ok) throw new Error(r.message);
    },
    startNode: async (id) => {
      const r = cluster.startNode(id);
      if (!r.ok) throw new Error(r.message);
      await server.listening(id);
    },
    stop: async () => {
      await server.stop();
      cluster.groups.shutdown();
    },
  };
}
