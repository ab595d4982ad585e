// One client connection to one broker node: frames in, decoded requests to
// handlers, responses out strictly in request order even when handlers finish
// out of order (long-polling Fetch, acks=all Produce). Bad input closes this
// connection with a log line and never reaches the process.
import type { Socket } from 'node:net';
import { ApiKey, ApiVersionsApi } from '../protocol/messages/index.js';
import { ErrorCode } from '../protocol/errors.js';
import { peekRequestHeader, readHeader, writeResponseHeader } from '../protocol/headers.js';
import { MalformedFrameError, Reader, Writer } from '../protocol/primitives.js';
import { CLOSE_CONNECTION, CloseAfter, NO_RESPONSE, type RequestContext } from '../broker/handlers/handler.js';
import { SaslAuthenticator, type SaslConfig } from './sasl/authenticator.js';
import type { HandlerRegistry } from '../broker/handlers/registry.js';
import type { Cluster } from '../broker/cluster.js';
import type { Logger } from '../logger.js';
import { FrameDecoder } from './frame-decoder.js';

interface Slot {
  /** undefined while the handler runs; null when no response is written. */
  response?: Buffer[] | null;
  close?: boolean;
}

export interface ConnectionOptions {
  nodeId: number;
  cluster: Cluster;
  registry: HandlerRegistry;
  maxRequestSize: number;
  log: Logger;
  /** When set, clients must authenticate with SASL before anything else. */
  sasl: SaslConfig | null;
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

export class Connection {
  private readonly decoder: FrameDecoder;
  private readonly queue: Slot[] = [];
  private readonly log: Logger;
  private readonly clientHost: string;
  private readonly sasl: SaslAuthenticator;
  private closed = false;

  constructor(
    readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.decoder = new FrameDecoder(options.maxRequestSize);
    this.sasl = new SaslAuthenticator(options.sasl);
    this.clientHost = `/${socket.remoteAddress ?? 'unknown'}`;
    this.log = options.log.child({ node: options.nodeId, peer: `${socket.remoteAddress}:${socket.remotePort}` });
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.log.debug({ err: err.message }, 'socket error'));
    socket.on('close', () => (this.closed = true));
  }

  close(reason?: string): void {
    if (this.closed) return;
    this.closed = true;
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
    for (const frame of frames) {
      if (this.closed) return;
      this.onFrame(ownMemory(frame));
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
    const slot: Slot = {};
    this.queue.push(slot);
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
    };
    const finish = (result: unknown) => {
      if (result === NO_RESPONSE) slot.response = null;
      else if (result === CLOSE_CONNECTION) {
        slot.response = null;
        slot.close = true;
      } else {
        const closeAfter = result instanceof CloseAfter;
        const w = new Writer();
        writeResponseHeader(w, handler.api, head.apiVersion, head.correlationId);
        handler.api.writeResponse(w, (closeAfter ? result.response : result) as never, head.apiVersion);
        slot.response = this.frame(w);
        slot.close = closeAfter;
      }
      this.flush();
    };
    const fail = (err: unknown) => {
      this.log.error({ err, api: handler.api.name, version: head.apiVersion }, 'handler failed; closing connection');
      slot.response = null;
      slot.close = true;
      this.flush();
    };
    try {
      const result = handler.handle(request, ctx);
      if (result instanceof Promise) result.then(finish, fail);
      else finish(result);
    } catch (err) {
      fail(err);
    }
  }

  /**
   * After SaslHandshake v0 the client sends bare SASL tokens (size prefix,
   * no Kafka header) and gets bare tokens back; a failure closes the
   * connection, as Kafka's SaslServerAuthenticator does for this form.
   */
  private onRawSaslToken(token: Buffer): void {
    const step = this.sasl.authenticate(token);
    if (!step.ok) {
      this.queue.push({ response: null, close: true });
      this.log.warn({ reason: step.message }, 'SASL authentication failed');
      return this.flush();
    }
    const w = new Writer();
    w.raw(step.reply);
    this.queue.push({ response: this.frame(w) });
    this.flush();
  }

  private respondUnsupportedApiVersions(correlationId: number): void {
    const w = new Writer();
    w.int32(correlationId);
    const range = this.options.registry.versions().find((v) => v.apiKey === ApiKey.ApiVersions);
    ApiVersionsApi.writeResponse(w, { errorCode: ErrorCode.UNSUPPORTED_VERSION, apiKeys: range ? [range] : [] }, 0);
    this.queue.push({ response: this.frame(w) });
    this.flush();
  }

  private frame(w: Writer): Buffer[] {
    const chunks = w.finish();
    const size = Buffer.allocUnsafe(4);
    size.writeInt32BE(w.length, 0);
    return [size, ...chunks];
  }

  /** Writes every finished response at the head of the queue, in request order. */
  private flush(): void {
    if (this.closed) return;
    let corked = false;
    while (this.queue.length && this.queue[0]!.response !== undefined) {
      const slot = this.queue.shift()!;
      if (slot.response) {
        if (!corked) {
          this.socket.cork();
          corked = true;
        }
        for (const chunk of slot.response) this.socket.write(chunk);
      }
      if (slot.close) {
        if (corked) this.socket.uncork();
        this.log.debug("closing after the last response, as the protocol requires (failed acks=0 produce, failed SASL, handler error)");
        // Let the last response leave before the socket goes.
        this.closed = true;
        this.socket.end();
        setTimeout(() => this.socket.destroy(), 100).unref();
        return;
      }
    }
    if (corked) this.socket.uncork();
  }
}
