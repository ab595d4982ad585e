// The chaos proxy: one TCP listener per broker node, in front of the broker
// listeners. The cluster advertises the proxy's addresses (every endpoint a
// response carries comes from cluster.nodes[].host/port), so no client
// bypasses it. A stopped node looks stopped through the proxy too: its
// proxy listener refuses connections and its proxied connections reset.
import type { Cluster } from '../broker/cluster.js';
import type { Logger } from '../logger.js';
import type { ChaosEngine } from './controller.js';
import { ProxyConnection } from './proxy-connection.js';
import { NodeListeners, type ListenerPolicy } from '../server/node-listeners.js';
import type { ProxiedPeers } from '../server/proxied-peers.js';

export interface ChaosProxyOptions {
  cluster: Cluster;
  engine: ChaosEngine;
  bindHost: string;
  /** Proxy port per node id; 0 = a free port. */
  ports: Map<number, number>;
  /** Host the cluster advertises for the proxy listeners. */
  advertisedHost: string;
  /** Where a node's broker listener is. */
  upstream: (nodeId: number) => { host: string; port: number };
  maxRequestSize: number;
  log: Logger;
  /** A request frame begun by the client must arrive whole within this long; 0 = no bound. */
  requestTimeoutMs?: number;
  /** TLS, connection quotas, idle timeout of the client-facing listeners. */
  policy?: Omit<ListenerPolicy, 'log'>;
  /** Tells the brokers behind who each client is (server/proxied-peers.ts). */
  peers?: ProxiedPeers;
}

export class ChaosProxy extends NodeListeners<ProxyConnection> {
  private nextConnectionId = 1;

  constructor(o: ChaosProxyOptions) {
    const { cluster } = o;
    super({
      cluster,
      bindHost: o.bindHost,
      ports: o.ports,
      advertisedHost: o.advertisedHost,
      label: 'proxy for node',
      log: o.log,
      policy: o.policy,
      accept: (socket, nodeId, untrack) =>
        new ProxyConnection(
          socket,
          {
            id: this.nextConnectionId++,
            nodeId,
            engine: o.engine,
            clock: cluster.clock,
            upstream: o.upstream(nodeId),
            maxRequestSize: o.maxRequestSize,
            requestTimeoutMs: o.requestTimeoutMs,
            topicName: (id) => cluster.topicById(id)?.name,
            peers: o.peers,
            log: o.log,
          },
          untrack,
        ),
      closeConnection: (c) => c.reset('node stopped'),
    });
  }
}
