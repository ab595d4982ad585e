// Upstream mode: the chaos proxy in front of any Kafka cluster, given its
// bootstrap addresses. One proxy listener per bootstrap address; every
// broker the upstream advertises (Metadata, FindCoordinator,
// DescribeCluster, and the leader endpoints of Produce v10+ / Fetch v16+)
// gets a proxy listener of its own, made when it is first seen, and the
// answer names that listener instead, so clients never leave the proxy.
// A node keeps its listener (and port) for the life of the run; when the
// upstream moves a node, new connections go to its new address.
//
// There is no cluster model here: rules whose action needs one are refused
// by the engine (ChaosEngine without a cluster).
import { connect } from 'node:net';
import type { Logger } from '../logger.js';
import { TcpListener, type ListenerPolicy } from '../server/node-listeners.js';
import type { ChaosEngine } from './controller.js';
import { ProxyConnection, type AnswerRewriter } from './proxy-connection.js';
import { ApiKey } from '../protocol/messages/index.js';
import { capApiVersions, carriesAddresses, decodeAnswer, encodeAnswer, type DecodedAnswer, type Endpoint } from './upstream-answers.js';

export interface HostPort {
  host: string;
  port: number;
}

export interface UpstreamProxyOptions {
  /** The upstream cluster's bootstrap addresses. */
  bootstrap: readonly HostPort[];
  engine: ChaosEngine;
  bindHost: string;
  /** Host the rewritten answers name for the proxy listeners. */
  advertisedHost: string;
  /** First port: the bootstrap listeners take port, port+1, …, then nodes in the order they are seen. 0: free ports. */
  port: number;
  maxRequestSize: number;
  /** A request frame begun by the client must arrive whole within this long; 0 = no bound. */
  requestTimeoutMs?: number;
  /** TLS, connection quotas, idle timeout of the client-facing listeners (as in front of the in-memory cluster). */
  policy?: Omit<ListenerPolicy, 'log'>;
  log: Logger;
}

/** A proxy listener and the upstream address behind it. */
export interface ProxiedNode {
  /** The upstream's node id; bootstrap listeners are -1, -2, … (as Kafka clients number bootstrap servers). */
  readonly nodeId: number;
  /** Where the upstream says the node is (the latest answer wins). */
  target: HostPort;
  readonly listener: TcpListener<ProxyConnection>;
  /** Resolves once the listener accepts connections. */
  readonly ready: Promise<void>;
  listening: boolean;
}

/** How many ports past a busy one to try before giving up. */
const PORT_TRIES = 20;

/** "host:port[,host:port…]" as given to --upstream; throws naming the bad entry. */
export function parseBootstrap(spec: string): HostPort[] {
  const out = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      // [::1]:9092 for IPv6, host:port otherwise.
      const m = /^\[([^\]]+)\]:(\d+)$/.exec(entry) ?? /^([^:]+):(\d+)$/.exec(entry);
      const port = m ? Number(m[2]) : NaN;
      if (!m || !Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`upstream: "${entry}" is not host:port (e.g. localhost:9092)`);
      return { host: m[1]!, port };
    });
  if (out.length === 0) throw new RangeError('upstream: give at least one bootstrap address, host:port');
  return out;
}

export class UpstreamProxy implements AnswerRewriter {
  /** Bootstrap listeners first (negative ids), then the upstream's nodes as they are seen. */
  readonly nodes = new Map<number, ProxiedNode>();
  /** From the last Metadata answer that went through. */
  clusterId: string | null = null;
  controllerId = -1;
  private readonly topicNames = new Map<string, string>();
  private nextPort: number;
  private nextConnectionId = 1;
  private stopped = false;
  private readonly log: Logger;

  constructor(private readonly o: UpstreamProxyOptions) {
    this.nextPort = o.port;
    this.log = o.log.child({ component: 'upstream' });
  }

  /** Listens for every bootstrap address; throws naming the port that cannot be had. */
  async start(): Promise<void> {
    try {
      for (const [i, target] of this.o.bootstrap.entries()) {
        const node = this.addNode(-(i + 1), target);
        await node.ready;
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
    for (const target of this.o.bootstrap) this.probe(target);
  }

  /**
   * Tries the upstream once, without waiting for it: it may come up later,
   * but a typo in the address should not show only as clients' connection
   * resets.
   */
  private probe(target: HostPort): void {
    const socket = connect(target);
    const timer = setTimeout(() => socket.destroy(new Error('no answer in 5 s')), 5000);
    timer.unref();
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!this.stopped) this.log.warn({ upstream: `${target.host}:${target.port}`, err: err.code ?? err.message }, `upstream: ${target.host}:${target.port} cannot be reached (${err.code ?? err.message}); clients will see their connections close until it can`);
    });
  }

  /** The bootstrap listeners, comma-separated host:port, for client configs. */
  get bootstrap(): string {
    return [...this.nodes.values()]
      .filter((n) => n.nodeId < 0)
      .map((n) => `${this.o.advertisedHost}:${n.listener.port}`)
      .join(',');
  }

  /** The upstream's nodes seen so far (not the bootstrap listeners), by id. */
  brokers(): Map<number, ProxiedNode> {
    return new Map([...this.nodes].filter(([id, n]) => id >= 0 && n.listening).sort(([a], [b]) => a - b));
  }

  // ---------- AnswerRewriter ----------

  wants(apiKey: number, apiVersion: number): boolean {
    return apiKey === ApiKey.ApiVersions || carriesAddresses(apiKey, apiVersion);
  }

  rewrite(frame: Buffer, apiKey: number, apiVersion: number): Buffer | Promise<Buffer> {
    if (apiKey === ApiKey.ApiVersions) return capApiVersions(frame, apiVersion)?.subarray(4) ?? frame;
    const answer = decodeAnswer(frame, apiKey, apiVersion);
    if (!answer) {
      // Better a client that bypasses nothing than one that cannot connect: say so loudly.
      this.log.warn({ apiKey, apiVersion }, 'upstream: an answer that may carry broker addresses did not decode; forwarded as it is');
      return frame;
    }
    if (answer.metadata) this.learn(answer.metadata);
    if (answer.endpoints.length === 0) return frame;
    const nodes = answer.endpoints.map((e) => this.nodeFor(e));
    if (nodes.every((n) => n.listening)) return this.apply(answer, nodes);
    return Promise.all(nodes.map((n) => n.ready)).then(() => this.apply(answer, nodes));
  }

  private apply(answer: DecodedAnswer, nodes: ProxiedNode[]): Buffer {
    answer.endpoints.forEach((e, i) => e.set(this.o.advertisedHost, nodes[i]!.listener.port));
    // The codec writes the size prefix; the connection wants the frame without it.
    return encodeAnswer(answer).subarray(4);
  }

  private learn(m: NonNullable<DecodedAnswer['metadata']>): void {
    if (m.clusterId !== null) this.clusterId = m.clusterId;
    this.controllerId = m.controllerId;
    for (const t of m.topics) this.topicNames.set(t.topicId, t.name);
  }

  /** The listener for an advertised node, made on first sight; a moved node keeps its listener. */
  private nodeFor(e: Endpoint): ProxiedNode {
    const known = this.nodes.get(e.nodeId);
    if (!known) return this.addNode(e.nodeId, { host: e.host, port: e.port });
    if (known.target.host !== e.host || known.target.port !== e.port) {
      this.log.info({ nodeId: e.nodeId, from: known.target, to: { host: e.host, port: e.port } }, `upstream: node ${e.nodeId} moved; new connections go to its new address`);
      known.target = { host: e.host, port: e.port };
    }
    return known;
  }

  private addNode(nodeId: number, target: HostPort): ProxiedNode {
    const listener = new TcpListener<ProxyConnection>(
      nodeId,
      this.o.bindHost,
      this.takePort(),
      (socket, id, untrack) =>
        new ProxyConnection(
          socket,
          {
            id: this.nextConnectionId++,
            nodeId: id,
            engine: this.o.engine,
            clock: this.o.engine.clock,
            upstream: { ...node.target },
            maxRequestSize: this.o.maxRequestSize,
            requestTimeoutMs: this.o.requestTimeoutMs,
            topicName: (topicId) => this.topicNames.get(topicId),
            answers: this,
            log: this.o.log,
          },
          untrack,
        ),
      (c) => c.reset('proxy stopped'),
      { ...this.o.policy, log: this.o.log },
    );
    const node: ProxiedNode = { nodeId, target, listener, listening: false, ready: Promise.resolve() };
    // A node whose listener failed is forgotten, so that the next answer naming it tries again.
    (node as { ready: Promise<void> }).ready = this.listen(node).catch((err: Error) => {
      if (this.nodes.get(nodeId) === node) this.nodes.delete(nodeId);
      throw err;
    });
    this.nodes.set(nodeId, node);
    return node;
  }

  private takePort(): number {
    return this.nextPort > 0 ? this.nextPort++ : 0;
  }

  /** Binds the node's port; with --port, a busy one gives way to the next free ones after it. */
  private async listen(node: ProxiedNode): Promise<void> {
    const what = node.nodeId < 0 ? `bootstrap ${node.target.host}:${node.target.port}` : `node ${node.nodeId}`;
    for (let attempt = 1; ; attempt++) {
      if (this.stopped) throw new Error('the proxy is stopping');
      try {
        await node.listener.start();
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Bootstrap ports are the user's to choose: a busy one is an error, as for the in-memory cluster.
        if (code !== 'EADDRINUSE' || node.nodeId < 0 || node.listener.port === 0 || attempt >= PORT_TRIES) {
          throw new Error(`proxy for ${what} cannot listen on ${this.o.bindHost}:${node.listener.port}: ${code ?? (err as Error).message}`);
        }
        node.listener.port = this.takePort();
      }
    }
    node.listening = true;
    this.log.info({ nodeId: node.nodeId, proxy: `${this.o.advertisedHost}:${node.listener.port}`, upstream: `${node.target.host}:${node.target.port}` }, `upstream: proxying ${what}`);
  }

  get connectionCount(): number {
    let n = 0;
    for (const node of this.nodes.values()) n += node.listener.connections.size;
    return n;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.nodes.values()].map((n) => n.listener.stop()));
  }
}
