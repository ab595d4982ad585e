// All broker listeners of a cluster: one per node, following the node's
// stops and starts (node-listeners.ts), each connection a Kafka connection.
import type { Cluster } from '../broker/cluster.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Logger } from '../logger.js';
import { Connection } from './connection.js';
import { NodeListeners, type ListenerPolicy } from './node-listeners.js';
import type { FetchLimits } from '../broker/handlers/handler.js';
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
  /** Bound on a started request frame (slow clients); 0 = none. */
  requestTimeoutMs?: number;
  /** Bound on a SASL exchange, from the connection's start; 0 = none. */
  authTimeoutMs?: number;
  fetchLimits?: FetchLimits;
  /** TLS, connection quotas, idle timeout (client-facing listeners only when the proxy is off). */
  policy?: Omit<ListenerPolicy, 'log'>;
}

export class KafkaServer extends NodeListeners<Connection> {
  constructor(options: KafkaServerOptions) {
    const { cluster, registry, maxRequestSize, log, requestTimeoutMs, authTimeoutMs, fetchLimits } = options;
    const sasl = options.sasl ?? null;
    super({
      cluster,
      bindHost: options.bindHost,
      ports: options.ports,
      advertisedHost: options.advertisedHost,
      label: 'node',
      log,
      policy: options.policy,
      accept: (socket, nodeId, untrack) => {
        const conn = new Connection(socket, { nodeId, cluster, registry, maxRequestSize, log, sasl, requestTimeoutMs, authTimeoutMs, fetchLimits });
        socket.on('close', untrack);
        return conn;
      },
      closeConnection: (conn) => conn.close(),
    });
  }
}
