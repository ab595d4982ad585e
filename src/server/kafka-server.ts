// All broker listeners of a cluster: one per node, following the node's
// stops and starts (node-listeners.ts), each connection a Kafka connection.
import type { Cluster } from '../broker/cluster.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Logger } from '../logger.js';
import { Connection } from './connection.js';
import { NodeListeners } from './node-listeners.js';
import type { SaslConfig } from './sasl/authenticator.js';

export interface KafkaServerOptions {
  cluster: Cluster;
  registry: HandlerRegistry;
  bindHost: string;
  /** Port per node id; 0 = a free port chosen by the kernel. */
  ports: Map<number, number>;
  advertisedHost: string;
  maxRequestSize: number;
  log: Logger;
  /** SASL users and mechanisms; null = no authentication. */
  sasl?: SaslConfig | null;
}

export class KafkaServer extends NodeListeners<Connection> {
  constructor(options: KafkaServerOptions) {
    const { cluster, registry, maxRequestSize, log } = options;
    const sasl = options.sasl ?? null;
    super({
      cluster,
      bindHost: options.bindHost,
      ports: options.ports,
      advertisedHost: options.advertisedHost,
      label: 'node',
      log,
      accept: (socket, nodeId, untrack) => {
        const conn = new Connection(socket, { nodeId, cluster, registry, maxRequestSize, log, sasl });
        socket.on('close', untrack);
        return conn;
      },
      closeConnection: (conn) => conn.close(),
    });
  }
}
