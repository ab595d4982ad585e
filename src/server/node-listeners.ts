// One TCP listener per broker node, each following its node: a stopped node's
// listener closes and ends every connection at once, as a crashed broker
// would; started again, it binds the same port, so clients reconnect to the
// address they already know. The broker listeners and the chaos proxy in
// front of them are both sets of these.
import { createServer, type Server, type Socket } from 'node:net';
import type { Cluster } from '../broker/cluster.js';
import type { Logger } from '../logger.js';
import { ConnectionQuotas, type ConnectionLimits } from './connection-quotas.js';
import { serveTls, type TlsServing } from './tls.js';

/** Makes the connection object for an accepted socket; `untrack` drops it from the listener once it is closed. */
export type Accept<C> = (socket: Socket, nodeId: number, untrack: () => void) => C;

/** How a listener guards itself (docs/security.md): TLS, connection quotas, idle and handshake timeouts. */
export interface ListenerPolicy {
  /** Serve TLS (an SSL listener), asking clients for certificates as it says; null or absent: plaintext. */
  tls?: TlsServing | null;
  limits?: ConnectionLimits;
  /** connections.max.idle.ms: a connection with no bytes either way for this long is closed; 0 = never. */
  idleMs?: number;
  /** A TLS handshake must finish within this long; 0 = no bound. */
  handshakeTimeoutMs?: number;
  log?: Logger;
}

export class TcpListener<C> {
  private server: Server | null = null;
  private starting: Promise<void> | null = null;
  readonly connections = new Set<C>();
  /** Accepted sockets still in their TLS handshake. */
  private readonly handshaking = new Set<Socket>();
  private readonly quotas: ConnectionQuotas | null;

  constructor(
    readonly nodeId: number,
    readonly bindHost: string,
    public port: number,
    private readonly accept: Accept<C>,
    private readonly closeConnection: (connection: C) => void,
    private readonly policy: ListenerPolicy = {},
  ) {
    const { limits } = policy;
    const limited = limits && (limits.maxConnections !== undefined || limits.maxConnectionsPerIp !== undefined);
    this.quotas = limited && policy.log ? new ConnectionQuotas(limits, (socket, release) => this.admit(socket, release), policy.log) : null;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** Listens (again); concurrent calls share one attempt. */
  start(): Promise<void> {
    if (this.server) return Promise.resolve();
    this.starting ??= this.listen().finally(() => (this.starting = null));
    return this.starting;
  }

  private async listen(): Promise<void> {
    // Paused until served: a connection waiting for a slot is not read, and TLS takes over an unread socket.
    const server = createServer({ pauseOnConnect: true }, (socket) => {
      if (this.quotas) this.quotas.accept(socket);
      else this.admit(socket, () => {});
    });
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

  /** A socket that got its slot: TLS handshake if this is an SSL listener, then a connection. */
  private admit(socket: Socket, release: () => void): void {
    socket.once('close', release);
    const { tls, log } = this.policy;
    if (!tls) {
      this.open(socket);
      socket.resume();
      return;
    }
    this.handshaking.add(socket);
    const secure = serveTls(
      socket,
      tls,
      this.policy.handshakeTimeoutMs ?? 30_000,
      (s) => {
        this.handshaking.delete(socket);
        this.open(s);
      },
      (reason) => {
        this.handshaking.delete(socket);
        log?.debug({ node: this.nodeId, peer: `${socket.remoteAddress}:${socket.remotePort}`, reason }, 'TLS connection refused');
      },
    );
    secure.once('close', () => {
      this.handshaking.delete(socket);
      release();
    });
  }

  private open(socket: Socket): void {
    const { idleMs, log } = this.policy;
    if (idleMs) {
      // One inactivity timer per socket, kept by Node itself: any byte either way restarts it.
      socket.setTimeout(idleMs, () => {
        log?.debug({ node: this.nodeId, peer: `${socket.remoteAddress}:${socket.remotePort}`, idleMs }, 'closing idle connection (connections.max.idle.ms)');
        socket.destroy();
      });
    }
    let connection: C | undefined;
    let closed = false;
    const untrack = () => {
      closed = true;
      if (connection !== undefined) this.connections.delete(connection);
    };
    connection = this.accept(socket, this.nodeId, untrack);
    if (!closed) this.connections.add(connection);
  }

  /** Closes the listener and every connection it accepted. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const c of [...this.connections]) this.closeConnection(c);
    this.connections.clear();
    for (const s of [...this.handshaking]) s.destroy();
    this.handshaking.clear();
    this.quotas?.dropWaiting();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface NodeListenersOptions<C> {
  cluster: Cluster;
  bindHost: string;
  /** Port per node id; 0 = a free port chosen by the kernel. */
  ports: ReadonlyMap<number, number>;
  /** Host the cluster advertises for these listeners. */
  advertisedHost: string;
  /**
   * Whether the cluster advertises these listeners (cluster.nodes[].host/port,
   * what every answer carries by default). False for a listener of its own
   * that answers with its own addresses (the side door, kafka-server.ts).
   */
  advertiseInCluster?: boolean;
  accept: Accept<C>;
  closeConnection: (connection: C) => void;
  /** What these listeners are, for error messages ("node", "proxy for node"). */
  label: string;
  log: Logger;
  /** TLS, connection quotas and timeouts of every listener (ListenerPolicy). */
  policy?: Omit<ListenerPolicy, 'log'>;
}

export class NodeListeners<C> {
  readonly listeners = new Map<number, TcpListener<C>>();
  private readonly onStopped = (nodeId: number) => void this.listeners.get(nodeId)?.stop();
  private readonly onStarted = (nodeId: number) => {
    this.listeners.get(nodeId)?.start().catch((err: Error) => this.o.log.error({ nodeId, err: err.message }, `${this.o.label} ${nodeId} could not listen again`));
  };

  constructor(private readonly o: NodeListenersOptions<C>) {
    for (const nodeId of o.cluster.nodes.keys()) {
      this.listeners.set(nodeId, new TcpListener(nodeId, o.bindHost, o.ports.get(nodeId) ?? 0, o.accept, o.closeConnection, { ...o.policy, log: o.log }));
    }
  }

  /** Listens for every live node and makes the cluster advertise these listeners. */
  async start(): Promise<void> {
    const { cluster } = this.o;
    try {
      for (const [nodeId, listener] of this.listeners) {
        if (!cluster.isAlive(nodeId)) continue;
        await listener.start().catch((err: NodeJS.ErrnoException) => {
          throw new Error(`${this.o.label} ${nodeId} cannot listen on ${this.o.bindHost}:${listener.port}: ${err.code ?? err.message}`);
        });
        if (this.o.advertiseInCluster === false) continue;
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

  /** Where clients reach a node on these listeners; null for a node without one. A stopped node's listener keeps its port. */
  endpoint(nodeId: number): { host: string; port: number } | null {
    const listener = this.listeners.get(nodeId);
    return listener ? { host: this.o.advertisedHost, port: listener.port } : null;
  }

  /** Comma-separated host:port of the live nodes' listeners, for client configs. */
  bootstrap(): string {
    return this.o.cluster
      .liveNodes()
      .flatMap((n) => {
        const at = this.endpoint(n.nodeId);
        return at ? [`${at.host}:${at.port}`] : [];
      })
      .join(',');
  }

  /** Resolves once a node's listener accepts connections (after a restart). */
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
