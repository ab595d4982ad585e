// A set of broker listeners of a cluster: one per node, following the node's
// stops and starts (node-listeners.ts), each connection a Kafka connection.
// A cluster has one set behind the proxy (or facing clients without it), and
// may have a second, the side door, which answers with its own addresses.
import type { Cluster } from '../broker/cluster.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Logger } from '../logger.js';
import { Connection } from './connection.js';
import { NodeListeners, type ListenerPolicy } from './node-listeners.js';
import type { FetchLimits } from '../broker/handlers/handler.js';
import type { SaslConfig } from './sasl/authenticator.js';
import type { ProxiedPeers } from './proxied-peers.js';

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
  /**
   * Which addresses the answers on these listeners carry (Kafka's listeners:
   * a broker answers with the endpoints of the listener a request came in on).
   *   'cluster'  the cluster's advertised ones (cluster.nodes): these
   *              listeners', or the proxy's in front of them (the default)
   *   'own'      these listeners' own, and the cluster's stay as they are:
   *              the side door, a second listener per node that no proxy fronts
   */
  advertise?: 'cluster' | 'own';
  /** Who the clients behind the proxy are, for the authorizer (server/proxied-peers.ts). */
  peers?: ProxiedPeers;
  /** What these listeners are, for logs and errors (default "node"). */
  label?: string;
}

export class KafkaServer extends NodeListeners<Connection> {
  constructor(options: KafkaServerOptions) {
    const { cluster, registry, maxRequestSize, log, requestTimeoutMs, authTimeoutMs, fetchLimits, peers } = options;
    const sasl = options.sasl ?? null;
    const own = options.advertise === 'own';
    const endpoint = own
      ? (id: number) => this.endpoint(id)
      : (id: number) => {
          const n = cluster.nodes.get(id);
          return n ? { host: n.host, port: n.port } : null;
        };
    super({
      cluster,
      bindHost: options.bindHost,
      ports: options.ports,
      advertisedHost: options.advertisedHost,
      advertiseInCluster: !own,
      label: options.label ?? 'node',
      log,
      policy: options.policy,
      accept: (socket, nodeId, untrack) => {
        const conn = new Connection(socket, { nodeId, cluster, registry, maxRequestSize, log, sasl, requestTimeoutMs, authTimeoutMs, fetchLimits, endpoint, peers });
        socket.on('close', untrack);
        return conn;
      },
      closeConnection: (conn) => conn.close(),
    });
  }
}
