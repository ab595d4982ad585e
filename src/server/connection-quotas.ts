// Kafka's ConnectionQuotas for one listener: `max.connections` and
// `max.connections.per.ip`, acting as the broker does. Over max.connections
// the acceptor waits for a slot (Kafka blocks its Acceptor thread), so a new
// connection is established at the TCP level but served only once another
// one closes; while it waits it is not read. Over max.connections.per.ip the
// new connection is closed at once (TooManyConnectionsException). Waiting
// connections beyond Kafka's accept backlog (socket.listen.backlog.size, 50)
// are closed, where a kernel queue would drop them.
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';

export interface ConnectionLimits {
  /** max.connections: connections served at once by this listener; more wait for a slot. */
  maxConnections?: number;
  /** max.connections.per.ip: connections served at once from one address; more are closed. */
  maxConnectionsPerIp?: number;
}

/** socket.listen.backlog.size default. */
export const LISTEN_BACKLOG = 50;

export class ConnectionQuotas {
  private total = 0;
  private readonly perIp = new Map<string, number>();
  private readonly waiting: Socket[] = [];

  constructor(
    private readonly limits: ConnectionLimits,
    /** Serves a connection that got a slot; `release` frees the slot and must be called once, when it closes. */
    private readonly admit: (socket: Socket, release: () => void) => void,
    private readonly log: Logger,
  ) {}

  /** Connections holding a slot. */
  get active(): number {
    return this.total;
  }

  /** Connections waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A newly accepted (still paused) socket. */
  accept(socket: Socket): void {
    const max = this.limits.maxConnections ?? Infinity;
    if (this.total < max && this.waiting.length === 0) return this.serve(socket);
    if (this.waiting.length >= LISTEN_BACKLOG) {
      this.log.warn({ peer: socket.remoteAddress, max }, 'max.connections reached and the accept backlog is full; connection closed');
      return void socket.destroy();
    }
    this.log.debug({ peer: socket.remoteAddress, max }, 'max.connections reached; connection waits for a slot');
    socket.on('error', () => {});
    socket.once('close', () => {
      const i = this.waiting.indexOf(socket);
      if (i >= 0) this.waiting.splice(i, 1);
    });
    this.waiting.push(socket);
  }

  /** Closes every waiting connection (the listener is stopping). */
  dropWaiting(): void {
    for (const s of this.waiting.splice(0)) s.destroy();
  }

  private serve(socket: Socket): void {
    const ip = socket.remoteAddress ?? 'unknown';
    const fromIp = this.perIp.get(ip) ?? 0;
    const maxPerIp = this.limits.maxConnectionsPerIp ?? Infinity;
    if (fromIp >= maxPerIp) {
      this.log.warn({ peer: ip, max: maxPerIp }, `Too many connections from ${ip} (maximum = ${maxPerIp}); connection closed`);
      return void socket.destroy();
    }
    this.total++;
    this.perIp.set(ip, fromIp + 1);
    let released = false;
    this.admit(socket, () => {
      if (released) return;
      released = true;
      this.total--;
      const n = (this.perIp.get(ip) ?? 1) - 1;
      if (n > 0) this.perIp.set(ip, n);
      else this.perIp.delete(ip);
      this.next();
    });
  }

  /** A slot freed: the longest-waiting connection takes it. */
  private next(): void {
    const max = this.limits.maxConnections ?? Infinity;
    while (this.total < max && this.waiting.length) {
      const socket = this.waiting.shift()!;
      if (socket.destroyed) continue;
      this.serve(socket);
    }
  }
}
