// The TCP listener of one broker node. Stopping it ends every socket at once,
// as a crashed broker would; starting it again binds the same port.
import { createServer, type Server, type Socket } from 'node:net';
import { Connection, type ConnectionOptions } from './connection.js';

export class BrokerListener {
  private server: Server | null = null;
  private readonly connections = new Set<Connection>();
  port: number;

  constructor(
    private readonly options: ConnectionOptions,
    readonly bindHost: string,
    port: number,
  ) {
    this.port = port;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  private starting: Promise<void> | null = null;

  /** Listens (again); concurrent calls share one attempt. */
  start(): Promise<void> {
    if (this.server) return Promise.resolve();
    this.starting ??= this.listen().finally(() => (this.starting = null));
    return this.starting;
  }

  private async listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
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

  private accept(socket: Socket): void {
    const conn = new Connection(socket, this.options);
    this.connections.add(conn);
    socket.on('close', () => this.connections.delete(conn));
  }

  /** Closes the listener and destroys every connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const c of this.connections) c.close();
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
