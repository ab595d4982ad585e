// All broker listeners of a cluster. A node the model stops loses its
// listener and every connection at once; a node started again listens on the
// same port, so clients reconnect to the address they already know.
import type { Cluster } from '../broker/cluster.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Logger } from '../logger.js';
import { BrokerListener } from './broker-listener.js';
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

export class KafkaServer {
  readonly listeners = new Map<number, BrokerListener>();
  private readonly onStopped = (nodeId: number) => void this.listeners.get(nodeId)?.stop();
  private readonly onStarted = (nodeId: number) => {
    this.listeners.get(nodeId)?.start().catch((err: Error) => this.options.log.error({ nodeId, err: err.message }, 'node could not listen again'));
  };

  constructor(private readonly options: KafkaServerOptions) {
    const { cluster, registry, maxRequestSize, log } = options;
    for (const nodeId of cluster.nodes.keys()) {
      const listener = new BrokerListener({ nodeId, cluster, registry, maxRequestSize, log, sasl: options.sasl ?? null }, options.bindHost, options.ports.get(nodeId) ?? 0);
      this.listeners.set(nodeId, listener);
    }
  }

  async start(): Promise<void> {
    const { cluster } = this.options;
    try {
      for (const [nodeId, listener] of this.listeners) {
        if (!cluster.isAlive(nodeId)) continue;
        await listener.start().catch((err: NodeJS.ErrnoException) => {
          throw new Error(`node ${nodeId} cannot listen on ${this.options.bindHost}:${listener.port}: ${err.code ?? err.message}`);
        });
        const node = cluster.nodes.get(nodeId)!;
        node.host = this.options.advertisedHost;
        node.port = listener.port;
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
    cluster.on('node-stopped', this.onStopped);
    cluster.on('node-started', this.onStarted);
  }

  /** Resolves once a node's listener accepts connections (after a restart). */
  listening(nodeId: number): Promise<void> {
    return this.listeners.get(nodeId)?.start() ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    this.options.cluster.off('node-stopped', this.onStopped);
    this.options.cluster.off('node-started', this.onStarted);
    await Promise.all([...this.listeners.values()].map((l) => l.stop()));
  }
}
