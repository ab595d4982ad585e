// The chaos proxy: one TCP listener per broker node, in front of the broker
// listeners. The cluster advertises the proxy's addresses (every endpoint a
// response carries comes from cluster.nodes[].host/port), so no client
// bypasses it. A stopped node looks stopped through the proxy too: its
// proxy listener refuses connections and its proxied connections reset.
import { createServer, type Server, type Socket } from 'node:net';
import type { Cluster } from '../broker/cluster.js';
import type { Logger } from '../logger.js';
import type { ChaosEngine } from './controller.js';
import { ProxyConnection } from './proxy-connection.js';

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
}

class ProxyListener {
  private server: Server | null = null;
  private starting: Promise<void> | null = null;
  readonly connections = new Set<ProxyConnection>();

  constructor(
    readonly nodeId: number,
    private readonly bindHost: string,
    public port: number,
    private readonly accept: (socket: Socket, listener: ProxyListener) => void,
  ) {}

  start(): Promise<void> {
    if (this.server) return Promise.resolve();
    this.starting ??= this.listen().finally(() => (this.starting = null));
    return this.starting;
  }

  private async listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket, this));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.bindHost, port: this.port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  /** Stops listening and resets every proxied connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const c of [...this.connections]) c.reset('node stopped');
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export class ChaosProxy {
  readonly listeners = new Map<number, ProxyListener>();
  private nextConnectionId = 1;
  private readonly onStopped = (nodeId: number) => void this.listeners.get(nodeId)?.stop();
  private readonly onStarted = (nodeId: number) => {
    this.listeners.get(nodeId)?.start().catch((err: Error) => this.o.log.error({ nodeId, err: err.message }, 'proxy listener could not listen again'));
  };

  constructor(private readonly o: ChaosProxyOptions) {
    for (const nodeId of o.cluster.nodes.keys()) {
      this.listeners.set(nodeId, new ProxyListener(nodeId, o.bindHost, o.ports.get(nodeId) ?? 0, (s, l) => this.accept(s, l)));
    }
  }

  private accept(socket: Socket, listener: ProxyListener): void {
    const { cluster } = this.o;
    const conn = new ProxyConnection(
      socket,
      {
        id: this.nextConnectionId++,
        nodeId: listener.nodeId,
        engine: this.o.engine,
        clock: cluster.clock,
        upstream: this.o.upstream(listener.nodeId),
        maxRequestSize: this.o.maxRequestSize,
        topicName: (id) => cluster.topicById(id)?.name,
        log: this.o.log,
      },
      (c) => listener.connections.delete(c),
    );
    listener.connections.add(conn);
  }

  /** Listens for every live node and makes the cluster advertise the proxy. */
  async start(): Promise<void> {
    const { cluster } = this.o;
    try {
      for (const [nodeId, listener] of this.listeners) {
        if (!cluster.isAlive(nodeId)) continue;
        await listener.start().catch((err: NodeJS.ErrnoException) => {
          throw new Error(`proxy for node ${nodeId} cannot listen on ${this.o.bindHost}:${listener.port}: ${err.code ?? err.message}`);
        });
        const node = cluster.nodes.get(nodeId)!;
        node.host = this.o.advertisedHost;
        node.port = listener.port;
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
    cluster.on('node-stopped', this.onStopped);
    cluster.on('node-started', this.onStarted);
  }

  /** Resolves once a node's proxy listener accepts connections. */
  listening(nodeId: number): Promise<void> {
    return this.listeners.get(nodeId)?.start() ?? Promise.resolve();
  }

  get connectionCount(): number {
    let n = 0;
    for (const l of this.listeners.values()) n += l.connections.size;
    return n;
  }

  async stop(): Promise<void> {
    this.o.cluster.off('node-stopped', this.onStopped);
    this.o.cluster.off('node-started', this.onStarted);
    await Promise.all([...this.listeners.values()].map((l) => l.stop()));
  }
}
