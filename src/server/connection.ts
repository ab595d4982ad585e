// One client connection to one broker node: frames in, decoded requests to
// handlers, responses out in request order. Requests are processed one at a
// time, as Kafka's SocketServer does: it mutes a channel once a request is
// read and unmutes it when the answer is sent, so a request never sees the
// effects of the ones behind it, and a parked JoinGroup or a long-polling
// Fetch holds back the requests pipelined after it. While one is in process
// the socket is paused (TCP backpressure, as Kafka stops reading); frames
// already read wait in order. The next request starts once the answer is
// made rather than written: the same to a client that reads its answers
// (docs/unsupported.md). Bad input closes this connection with a log line
// and never reaches the process.
import type { Socket } from 'node:net';
import { ApiKey, ApiVersionsApi } from '../protocol/messages/index.js';
import { ErrorCode } from '../protocol/errors.js';
import { peekRequestHeader, readHeader, writeResponseHeader } from '../protocol/headers.js';
import { MalformedFrameError, Reader, Writer } from '../protocol/primitives.js';
import { CLOSE_CONNECTION, CloseAfter, NO_RESPONSE, type ClientConnection, type FetchLimits, type NodeAddress, type RequestContext } from '../broker/handlers/handler.js';
import { SaslAuthenticator, type SaslConfig } from './sasl/authenticator.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Cluster } from '../broker/cluster.js';
import type { Logger } from '../logger.js';
import { FrameDecoder } from './frame-decoder.js';
import { FrameDeadline } from './frame-deadline.js';
import { ResponseQueue } from './response-queue.js';
import { hostAddress, principalOf } from './principal.js';
import { isTlsSocket } from './tls.js';
import type { ProxiedPeers } from './proxied-peers.js';

export interface ConnectionOptions {
  nodeId: number;
  cluster: Cluster;
  registry: HandlerRegistry;
  maxRequestSize: number;
  log: Logger;
  /** When set, clients must authenticate with SASL before anything else. */
  sasl: SaslConfig | null;
  /** A started request frame must arrive whole within this long; 0 or absent = no bound. */
  requestTimeoutMs?: number;
  /** With SASL, the connection must be authenticated within this long of its start; 0 or absent = no bound. */
  authTimeoutMs?: number;
  /** Broker-side Fetch caps (fetch.max.bytes, records per fetch). */
  fetchLimits?: FetchLimits;
  /** Where this connection's listener says a node is (RequestContext.endpoint). */
  endpoint: (nodeId: number) => NodeAddress | null;
  /** Who the clients behind the proxy are, when this listener sits behind it. */
  peers?: ProxiedPeers;
}

/**
 * Record batches are stored as views into their request frame, so a frame
 * must not pin a larger buffer: a frame cut from a bigger socket read is
 * copied once into memory of its own; one that (nearly) fills its buffer is
 * kept as it is. The slack allowed covers the size prefix.
 */
function ownMemory(frame: Buffer): Buffer {
  if (frame.buffer.byteLength - frame.length <= 64) return frame;
  const copy = Buffer.allocUnsafeSlow(frame.length);
  frame.copy(copy);
  return copy;
}

let nextConnectionId = 1;

export class Connection {
  private readonly decoder: FrameDecoder;
  private readonly responses: ResponseQueue;
  private readonly log: Logger;
  private readonly clientHost: string;
  private readonly sasl: SaslAuthenticator;
  private closed = false;
  private readonly deadline: FrameDeadline | null;
  private saslTimer: NodeJS.Timeout | null = null;
  /** Frames read but not yet processed, in order. */
  private readonly waiting: Buffer[] = [];
  /** A request is in process: its answer is not made yet. */
  private busy = false;
  /** processWaiting is on the stack (answers made at once must not recurse into it). */
  private draining = false;
  /** Reading is paused until the request in process is answered (Kafka's muted channel). */
  private muted = false;
  /** The principal, once the first request after authentication asked for it. */
  private knownPrincipal: string | null = null;
  private readonly closeListeners: (() => void)[] = [];
  /** RequestContext.connection: this connection as handlers see it. */
  private readonly scope: ClientConnection = {
    id: nextConnectionId++,
    onClose: (fn) => {
      if (this.closed && this.socket.destroyed) fn();
      else this.closeListeners.push(fn);
    },
  };

  constructor(
    readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.decoder = new FrameDecoder(options.maxRequestSize);
    this.responses = new ResponseQueue(socket, () => this.closeAfterLastResponse());
    this.sasl = new SaslAuthenticator(options.sasl);
    this.clientHost = `/${socket.remoteAddress ?? 'unknown'}`;
    this.log = options.log.child({ node: options.nodeId, peer: `${socket.remoteAddress}:${socket.remotePort}` });
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.log.debug({ err: err.message }, 'socket error'));
    socket.on('close', () => {
      this.closed = true;
      this.stopTimers();
      for (const fn of this.closeListeners.splice(0)) fn();
    });
    const frameMs = options.requestTimeoutMs ?? 0;
    this.deadline = frameMs > 0 ? new FrameDeadline(frameMs, (ms) => this.close(`request frame incomplete after ${ms} ms (slow client)`)) : null;
    const authMs = options.authTimeoutMs ?? 0;
    if (authMs > 0 && this.sasl.enabled) {
      // A SASL exchange begun and never finished holds a connection and a
      // half-authenticated state: bound it like a slow request.
      this.saslTimer = setTimeout(() => {
        if (!this.sasl.authenticated) this.close(`SASL authentication not completed within ${authMs} ms`);
      }, authMs);
      this.saslTimer.unref();
    }
  }

  private stopTimers(): void {
    this.deadline?.cancel();
    if (this.saslTimer) clearTimeout(this.saslTimer);
  }

  close(reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    if (reason) this.log.warn({ reason }, 'closing connection');
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Buffer[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      return this.close((err as Error).message);
    }
    this.deadline?.update(this.decoder.buffered, frames.length);
    for (const frame of frames) this.waiting.push(ownMemory(frame));
    this.processWaiting();
  }

  /** Processes the waiting frames one at a time; each starts only once the one before has its answer. */
  private processWaiting(): void {
    if (this.draining) return;
    this.draining = true;
    while (!this.busy && !this.closed && this.waiting.length > 0) {
      this.busy = true;
      this.onFrame(this.waiting.shift()!);
    }
    this.draining = false;
    if (!this.closed) this.mute(this.busy);
  }

  /** The request in process has its answer, or needs none (acks=0): the next one may start. */
  private readonly answered = (): void => {
    this.busy = false;
    this.processWaiting();
  };

  /**
   * A throttled request (a quota violated) is answered at once, and the
   * connection stays muted for the throttle time before its next request is
   * read, as Kafka's SocketServer keeps a throttled channel muted
   * (ChannelMuteState MUTED_AND_THROTTLED). The time runs on the cluster clock.
   */
  private answeredAfter(throttleMs: number): void {
    if (throttleMs <= 0) return this.answered();
    this.options.cluster.clock.setTimer(throttleMs, () => {
      if (!this.closed) this.answered();
    });
  }

  /**
   * Stops reading while a request waits for its answer and reads again once
   * it has it. Muting costs nothing for requests answered at once: only one
   * still in process when the frames read so far are done mutes the socket.
   * A muted connection reads nothing, so a frame begun before is not the
   * client's slowness: its deadline starts again on unmute.
   */
  private mute(muted: boolean): void {
    if (muted === this.muted) return;
    this.muted = muted;
    if (muted) {
      this.socket.pause();
      this.deadline?.update(0);
    } else {
      this.socket.resume();
      this.deadline?.update(this.decoder.buffered);
    }
  }

  private onFrame(frame: Buffer): void {
    if (this.sasl.expectsRawToken) return this.onRawSaslToken(frame);
    const head = peekRequestHeader(frame);
    if (!head) return this.close(`request of ${frame.length} bytes is too short for a header`);
    if (!this.sasl.allows(head.apiKey)) {
      return this.close(`api key ${head.apiKey} before SASL authentication completed`);
    }
    const { registry } = this.options;
    const handler = registry.get(head.apiKey);
    if (!handler || !registry.supports(head.apiKey, head.apiVersion)) {
      // A 3.9 broker answers an unknown ApiVersions version with a v0 body
      // carrying UNSUPPORTED_VERSION and its own range; anything else closes.
      if (head.apiKey === ApiKey.ApiVersions) return this.respondUnsupportedApiVersions(head.correlationId);
      return this.close(`unsupported api key ${head.apiKey} version ${head.apiVersion}`);
    }
    let request: unknown;
    let clientId: string | null;
    try {
      const r = new Reader(frame);
      clientId = readHeader(r, handler.api, head.apiVersion).clientId;
      request = handler.api.readRequest(r, head.apiVersion);
    } catch (err) {
      // Whatever the bytes were, only this connection pays for them.
      const what = err instanceof MalformedFrameError ? err.message : String(err);
      return this.close(`malformed ${handler.api.name} v${head.apiVersion} request: ${what}`);
    }
    const slot = this.responses.reserve();
    const ctx: RequestContext = {
      cluster: this.options.cluster,
      nodeId: this.options.nodeId,
      apiVersion: head.apiVersion,
      correlationId: head.correlationId,
      clientId,
      clientHost: this.clientHost,
      log: this.log,
      sasl: this.sasl,
      supportedApis: () => registry.versions(),
      fetchLimits: this.options.fetchLimits,
      endpoint: this.options.endpoint,
      principal: this.principal(),
      clientAddress: this.clientAddress(),
      requestSize: frame.length,
      throttle: (ms) => {
        throttleMs = Math.max(throttleMs, ms);
      },
      connection: this.scope,
    };
    let throttleMs = 0;
    // A response that ends the connection (CLOSE_CONNECTION, CloseAfter, a failed handler) lets no request after it start.
    const finish = (result: unknown) => {
      if (result === NO_RESPONSE) {
        this.responses.complete(slot, null);
        this.answeredAfter(throttleMs);
      } else if (result === CLOSE_CONNECTION) this.responses.complete(slot, null, true);
      else {
        const closeAfter = result instanceof CloseAfter;
        const w = new Writer();
        writeResponseHeader(w, handler.api, head.apiVersion, head.correlationId);
        handler.api.writeResponse(w, (closeAfter ? result.response : result) as never, head.apiVersion);
        this.responses.complete(slot, this.frame(w), closeAfter);
        if (!closeAfter) this.answeredAfter(throttleMs);
      }
    };
    const fail = (err: unknown) => {
      this.log.error({ err, api: handler.api.name, version: head.apiVersion }, 'handler failed; closing connection');
      this.responses.complete(slot, null, true);
    };
    try {
      const result = handler.handle(request, ctx);
      if (result instanceof Promise) result.then(finish, fail);
      else finish(result);
    } catch (err) {
      fail(err);
    }
  }

  /** The session's principal (DefaultKafkaPrincipalBuilder), fixed once known: SASL completes before any other request runs. */
  private principal(): string {
    if (this.knownPrincipal !== null) return this.knownPrincipal;
    const socket = this.socket;
    const cert = isTlsSocket(socket) ? socket.getPeerX509Certificate() : this.options.peers?.get(socket.remotePort)?.certificate;
    const principal = principalOf(this.sasl.principal, cert);
    if (this.sasl.authenticated) this.knownPrincipal = principal;
    return principal;
  }

  /** The client's address as ACL hosts name it: the proxy's client, behind the proxy. */
  private clientAddress(): string {
    return this.options.peers?.get(this.socket.remotePort)?.address ?? hostAddress(this.socket.remoteAddress);
  }

  /**
   * After SaslHandshake v0 the client sends bare SASL tokens (size prefix,
   * no Kafka header) and gets bare tokens back; a failure closes the
   * connection, as Kafka's SaslServerAuthenticator does for this form.
   */
  private onRawSaslToken(token: Buffer): void {
    const step = this.sasl.authenticate(token);
    if (!step.ok) {
      this.log.warn({ reason: step.message }, 'SASL authentication failed');
      return this.responses.push(null, true);
    }
    if (step.refused) this.log.info({ reason: step.refused }, 'OAUTHBEARER token refused');
    const w = new Writer();
    w.raw(step.reply);
    this.responses.push(this.frame(w));
    this.answered();
  }

  private respondUnsupportedApiVersions(correlationId: number): void {
    const w = new Writer();
    w.int32(correlationId);
    const range = this.options.registry.versions().find((v) => v.apiKey === ApiKey.ApiVersions);
    ApiVersionsApi.writeResponse(w, { errorCode: ErrorCode.UNSUPPORTED_VERSION, apiKeys: range ? [range] : [] }, 0);
    this.responses.push(this.frame(w));
    this.answered();
  }

  private frame(w: Writer): Buffer[] {
    const chunks = w.finish();
    const size = Buffer.allocUnsafe(4);
    size.writeInt32BE(w.length, 0);
    return [size, ...chunks];
  }

  /** The response queue wrote a response that ends the connection (failed acks=0 produce, failed SASL, handler error). */
  private closeAfterLastResponse(): void {
    if (this.closed) return;
    this.log.debug('closing after the last response, as the protocol requires (failed acks=0 produce, failed SASL, handler error)');
    // Let the last response leave before the socket goes.
    this.closed = true;
    this.stopTimers();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 100).unref();
  }
}
